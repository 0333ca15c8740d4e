/**
 * What a self-service team might send to escape its namespace or its quota: each refused by the
 * door (validateRequest, what Tenant files and the CLI call) naming the field and the rule, and,
 * where the request is one a Tenant can carry, by the Tenant before anything is registered, and
 * when its fields arrive as Outputs, as one error of the Tenant's before any child is registered.
 * Tenant files have rows of their own: what a committed file might do to confuse the check.
 * (Plain invalid inputs are in invalidInputs.test.ts.)
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { expect, it } from "vitest";
import {
  readTenantFiles,
  Tenant,
  TenantFilesError,
  TenantValidationError,
  validateRequest,
  type TenantPlatformInput,
} from "../../provider/index";
import { outcomeOf, programEach, settle } from "./support/pulumiMocks";
import { thrownBy } from "./support/thrown";
import { unhandledRejectionsOf } from "./support/unhandledRejections";
import { valuesAt } from "./support/valuesAt";

const registered = programEach();

const owner = "mallory@example.com";
const overrides = (valuesOverrides: Record<string, unknown>) => ({ owner, vcluster: { valuesOverrides } });
const outsideAllowlist = (path: string) =>
  `vcluster.valuesOverrides: sets paths outside the self-service allowlist: ${path}`;

interface Attack {
  readonly attack: string;
  readonly name?: string;
  readonly request: Record<string, unknown>;
  /** A platform policy the request would take advantage of, in place of `platform` below. */
  readonly platform?: TenantPlatformInput;
  /** Fragments the error must contain: the field and the rule. */
  readonly refused: readonly string[];
}

// What a platform might allow; the requests below ask for more, or for what it keeps to itself.
const platform = {
  podSecurity: { default: "restricted" as const, allowed: ["restricted" as const] },
  quota: {
    ceilings: {
      cpu: "16",
      memory: "64Gi",
      storage: "200Gi",
      ephemeralStorage: "100Gi",
      pods: 100,
      servicesNodePorts: 0,
      servicesLoadBalancers: 0,
    },
  },
};

/** A request refused, naming the field and the rule in each of `refused`. */
const refuses = (attack: string, request: Record<string, unknown>, ...refused: string[]): Attack => ({
  attack,
  request,
  refused,
});
/** A request of quota `resources`, refused for `refused`. */
const quota = (attack: string, resources: Record<string, unknown>, ...refused: string[]): Attack =>
  refuses(attack, { owner, resources }, ...refused);
/** A quota of `value` for `field`, above the platform's ceiling for it. */
const aboveCeiling = (attack: string, field: keyof typeof platform.quota.ceilings, value: string | number): Attack => {
  const ceiling = `platform.quota.ceilings.${field}: ${platform.quota.ceilings[field]}`;
  return quota(attack, { [field]: value }, `resources.${field}: ${value} is above the platform's ceiling (${ceiling})`);
};
/** A request that sets a field only the platform decides, at `path`: refused as a field a request does not have. */
const platformOnly = (attack: string, fields: Record<string, unknown>, path: string): Attack => {
  const [where, field] = path.includes(".") ? path.split(".") : [undefined, path];
  return refuses(attack, { owner, ...fields }, `${where ? `${where}: ` : ""}unknown field(s) "${field}"`);
};
/** An override of `value` at `path`, outside the allowlist: refused naming the path. */
const beyondAllowlist = (attack: string, path: string, value: unknown): Attack =>
  refuses(attack, overrides(valuesAt(path, value)), outsideAllowlist(path));
/** An allowlisted override of `value` at `path`, which the quota check reads but cannot count: refused by `rule`. */
const uncountable = (attack: string, path: string, value: unknown, rule: string): Attack =>
  refuses(attack, overrides(valuesAt(path, value)), `vcluster.valuesOverrides.${path}: ${rule}`);

const attacks: readonly Attack[] = [
  // Host permissions and what is handed back.
  beyondAllowlist("a ClusterRole for the syncer", "rbac.clusterRole.enabled", true),
  beyondAllowlist("the exported kubeconfig pointed elsewhere", "exportKubeConfig.server", "https://evil.example"),
  beyondAllowlist("extra names on the API certificate", "controlPlane.proxy.extraSANs", ["api.bank.example"]),
  beyondAllowlist("the chart's own quota switched on to replace ours", "policies.resourceQuota.enabled", true),
  beyondAllowlist("a plugin container", "plugins.miner.image", "evil/miner"),
  beyondAllowlist("experimental deploy hooks", "experimental.deploy.host.manifests", "kind: ClusterRoleBinding"),
  // The backing store and the control plane's pods.
  beyondAllowlist(
    "the backing store's image",
    "controlPlane.backingStore.etcd.deploy.statefulSet.image.repository",
    "evil/etcd",
  ),
  beyondAllowlist("the distro's image", "controlPlane.distro.k8s.image.repository", "evil/k8s"),
  beyondAllowlist("free-form API server flags", "controlPlane.distro.k8s.apiServer.extraArgs", [
    "--anonymous-auth=true",
  ]),
  beyondAllowlist(
    "a privileged security context",
    "controlPlane.statefulSet.security.containerSecurityContext.privileged",
    true,
  ),
  beyondAllowlist(
    "a system priority class",
    "controlPlane.statefulSet.scheduling.priorityClassName",
    "system-node-critical",
  ),
  beyondAllowlist("the CPU limit removed through overrides", "controlPlane.statefulSet.resources.limits.cpu", null),
  beyondAllowlist(
    "pod labels that match another policy's selector",
    "controlPlane.statefulSet.pods.labels.role",
    "gateway",
  ),
  // The annotation's key holds dots, so the override is written out.
  refuses(
    "pod annotations",
    overrides({ controlPlane: { statefulSet: { pods: { annotations: { "iam.amazonaws.com/role": "admin" } } } } }),
    outsideAllowlist("controlPlane.statefulSet.pods.annotations.iam.amazonaws.com/role"),
  ),
  // Syncing objects that reach past the namespace.
  beyondAllowlist("Ingress sync (hostname hijack)", "sync.toHost.ingresses.enabled", true),
  beyondAllowlist("ServiceAccount sync (cloud identity annotations)", "sync.toHost.serviceAccounts.enabled", true),
  beyondAllowlist(
    "NetworkPolicy sync (an allow rule undoes the egress fence)",
    "sync.toHost.networkPolicies.enabled",
    true,
  ),
  beyondAllowlist("PodDisruptionBudget sync (blocks node drains)", "sync.toHost.podDisruptionBudgets.enabled", true),
  refuses(
    "reading the host's nodes",
    overrides({ sync: { fromHost: { nodes: { enabled: true, selector: { all: true } } } } }),
    "sync.fromHost.nodes.enabled",
  ),
  beyondAllowlist("replicating another namespace's Service in", "networking.replicateServices.fromHost", [
    { from: "kube-system/secret-store", to: "default/store" },
  ]),
  // Quotas that cannot hold the vCluster, or that ask for nothing.
  quota("a zero CPU quota", { cpu: "0" }, "resources.cpu: must be greater than zero"),
  quota("a negative memory quota", { memory: "-1Gi" }, "resources.memory: must be greater than zero"),
  quota(
    "a CPU quota whose exponent overflows to infinity",
    { cpu: "1e999" },
    "resources.cpu: must be a quantity of finite size",
  ),
  quota(
    "a storage quota of 400 digits",
    { storage: `${"9".repeat(400)}Gi` },
    "resources.storage: must be at most 64 characters",
  ),
  refuses(
    "a zero default limit",
    { owner, limitRange: { defaultLimit: { cpu: "0" } } },
    "limitRange.defaultLimit.cpu: must be greater than zero",
  ),
  quota(
    "storage below the data volume",
    { storage: "1Gi" },
    "resources.storage: 1Gi is less than the vCluster's data volumes request",
  ),
  refuses(
    "a data volume above the storage quota",
    overrides(valuesAt("controlPlane.statefulSet.persistence.volumeClaim.size", "500Gi")),
    "resources.storage: 20Gi is less than the vCluster's data volumes request",
  ),
  quota(
    "a pod count too small for the vCluster",
    { pods: 1 },
    "resources.pods: 1 is less than the vCluster itself needs (3)",
  ),
  quota(
    "a Secret count too small for the vCluster and its release history",
    { secrets: 2 },
    "resources.secrets: 2 is less than the vCluster itself needs",
  ),
  quota(
    "ephemeral storage below the control plane's own limit",
    { ephemeralStorage: "5Gi" },
    "resources.ephemeralStorage: 5Gi is less than the ephemeral-storage limits of the vCluster's own containers (14Gi",
  ),
  refuses(
    "a CoreDNS ephemeral-storage limit beyond the quota",
    overrides({
      controlPlane: { coredns: { deployment: { resources: { limits: { "ephemeral-storage": "64Gi" } } } } },
    }),
    "resources.ephemeralStorage: 32Gi is less than the ephemeral-storage limits of the vCluster's own containers (138Gi",
  ),
  refuses(
    "a default ephemeral-storage limit above the quota",
    { owner, limitRange: { defaultLimit: { ephemeralStorage: "1Ti" } } },
    "limitRange.defaultLimit.ephemeralStorage: 1Ti must not exceed resources.ephemeralStorage (32Gi)",
  ),
  refuses(
    "control-plane replicas beyond the CPU quota",
    {
      ...overrides(valuesAt("controlPlane.statefulSet.highAvailability.replicas", 3)),
      resources: { cpu: "2" },
    },
    "resources.cpu: 2 is less than the limits of the vCluster's own containers",
  ),
  refuses(
    "CoreDNS limits beyond the memory quota",
    {
      ...overrides(valuesAt("controlPlane.coredns.deployment.resources.limits.memory", "64Gi")),
      resources: { memory: "2Gi" },
    },
    "resources.memory: 2Gi is less than the limits of the vCluster's own containers",
  ),
  // Overrides the quota check reads, with values it cannot count.
  uncountable(
    "negative control-plane replicas to shrink what the quota check counts",
    "controlPlane.statefulSet.highAvailability.replicas",
    -1,
    "must be a whole number >= 0",
  ),
  uncountable(
    "negative CoreDNS replicas",
    "controlPlane.coredns.deployment.replicas",
    -5,
    "must be a whole number >= 0",
  ),
  uncountable(
    "a data volume of size zero (storage the check does not count)",
    "controlPlane.statefulSet.persistence.volumeClaim.size",
    "0",
    "must be greater than zero",
  ),
  uncountable(
    "a CoreDNS CPU limit of zero (a container the quota does not count)",
    "controlPlane.coredns.deployment.resources.limits.cpu",
    "0",
    "must be greater than zero",
  ),
  uncountable(
    "a CoreDNS limit that is no quantity (the check itself stops)",
    "controlPlane.coredns.deployment.resources.limits.memory",
    "all",
    "must be a Kubernetes quantity",
  ),
  // The resource's name holds a dash, not a dot, but is written out like the annotation above.
  refuses(
    "a CoreDNS ephemeral-storage limit that is no quantity",
    overrides({
      controlPlane: { coredns: { deployment: { resources: { limits: { "ephemeral-storage": "plenty" } } } } },
    }),
    "vcluster.valuesOverrides.controlPlane.coredns.deployment.resources.limits.ephemeral-storage: must be a Kubernetes quantity",
  ),
  // What only the platform decides.
  refuses(
    "its own host namespace",
    { owner, targetNamespace: "kube-system" },
    'unknown field(s) "targetNamespace": a request holds owner',
  ),
  platformOnly("the platform's policy itself", { platform: { allowUnsafeOverrides: true } }, "platform"),
  platformOnly(
    "a host kubeconfig that runs a command",
    { platform: { hostKubeconfig: "users: [{user: {exec: {command: /bin/sh}}}]" } },
    "platform",
  ),
  platformOnly("its own chart", { vcluster: { chart: { localPath: "/tmp/evil-chart" } } }, "vcluster.chart"),
  platformOnly(
    "the unsafe-overrides switch",
    { vcluster: { allowUnsafeOverrides: true, valuesOverrides: { rbac: { clusterRole: { enabled: true } } } } },
    "vcluster.allowUnsafeOverrides",
  ),
  platformOnly(
    "its own exposure (gateway, issuer, domain)",
    { exposure: { baseDomain: "bank.example", issuerRef: { name: "prod-ca" } } },
    "exposure",
  ),
  platformOnly("no NetworkPolicy", { isolation: { networkPolicy: false } }, "isolation.networkPolicy"),
  refuses(
    "a pod security level the platform does not allow",
    { owner, isolation: { podSecurity: "baseline" } },
    "isolation.podSecurity: baseline is not a level the platform allows (platform.podSecurity.allowed: restricted)",
  ),
  aboveCeiling("CPU above the platform's ceiling", "cpu", "64"),
  aboveCeiling("memory above the platform's ceiling", "memory", "1Ti"),
  aboveCeiling("more pods than the platform's ceiling", "pods", 1000),
  aboveCeiling("NodePort Services (ports on every node)", "servicesNodePorts", 3),
  aboveCeiling("ephemeral storage above the platform's ceiling", "ephemeralStorage", "1Ti"),
  // Values that say nothing.
  refuses(
    "an owner of only whitespace (nobody to answer for the tenant)",
    { owner: "   " },
    "owner: must not be blank: it holds only whitespace",
  ),
  // A policy that would put tenants' names where they do not belong.
  {
    attack: "a tenant name made a hostname in others' domains (the platform's base domain is a top-level domain)",
    name: "bank",
    request: { owner },
    platform: { exposure: { baseDomain: "com", issuerRef: { name: "private-ca" } } },
    refused: ["platform.exposure.baseDomain: must have at least two labels"],
  },
  // Names that break later.
  {
    attack: "a tenant name that cannot name a Service",
    name: "1team",
    request: { owner },
    refused: ['name: must start with a letter (it names the vCluster\'s Service), got "1team"'],
  },
];

/** Fields only the platform sets, which the Tenant's own arguments do carry (beside the request). */
const platformOwned = (request: Record<string, unknown>) =>
  ["platform", "targetNamespace", "exposure"].some((key) => key in request) ||
  JSON.stringify(request).match(/"(chart|allowUnsafeOverrides|networkPolicy)":/);

it.each(attacks)(
  "refuses $attack at the door, naming field and rule",
  ({ name = "team-mallory", request, platform: policy = platform, refused }) => {
    const error = thrownBy(() => validateRequest(name, request, policy));
    expect(error).toBeInstanceOf(TenantValidationError);
    for (const fragment of refused) expect((error as Error).message).toContain(fragment);
  },
);

const tenantRows = attacks.filter((row) => !platformOwned(row.request));

it.each(tenantRows)(
  "refuses $attack in a Tenant, registering nothing",
  async ({ name = "team-mallory", request, platform: policy = platform, refused }) => {
    const error = thrownBy(() => new Tenant(name, { ...request, platform: policy } as never));
    expect(error).toBeInstanceOf(TenantValidationError);
    for (const fragment of refused) expect((error as Error).message).toContain(fragment);
    await settle();
    expect(registered()).toEqual([]);
  },
);

/** The request with each of its fields an Output, as a program that computes them passes it. */
const asOutputs = (request: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(request).map(([key, value]) => [key, pulumi.output(value)]));

it.each(tenantRows)(
  "refuses $attack given as Outputs, as one error of the Tenant's, registering no child",
  async ({ name = "team-mallory", request, platform: policy = platform, refused }) => {
    let error: unknown;
    const unhandled = await unhandledRejectionsOf(async () => {
      try {
        const outcome = await outcomeOf(
          new Tenant(name, { ...asOutputs(request), platform: policy } as never).namespace,
        );
        error = outcome.status === "rejected" ? outcome.reason : undefined;
      } catch (thrown) {
        error = thrown; // what is known at once (the name) is refused before anything is registered
      }
      await settle();
    });
    for (const fragment of refused) expect((error as Error).message).toContain(fragment);
    expect(unhandled.every((reason) => reason === error)).toBe(true);
    expect(registered().filter((r) => r.type !== "kubespaces:index:Tenant")).toEqual([]);
  },
);

// The same door through Tenant files: what a team might commit to confuse the reader of the check.
const tenantFile = (name: string, spec: string) =>
  `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: ${name}\n${spec}\n`;
// Seven lines whose aliases would expand to 9^7 nodes.
const aliasBomb = [..."abcdefg"]
  .map(
    (level, i) =>
      `${level}: &${level} [${Array(9)
        .fill(i === 0 ? "x" : `*${"abcdefg"[i - 1]}`)
        .join(", ")}]`,
  )
  .join("\n");

interface FileAttack {
  readonly attack: string;
  readonly text: string;
  /** The problem the check must report, for the file at `file`. */
  readonly refused: (file: string) => string;
}

const fileAttacks: readonly FileAttack[] = [
  {
    attack: "an alias bomb",
    text: `${tenantFile("team-mallory", "spec: { owner: m@example.com }")}${aliasBomb}\n`,
    refused: (file) => `${file}, document 1: cannot be read (Excessive alias count`,
  },
  {
    attack: "a variable named after a property every object has",
    text: tenantFile("team-mallory", 'spec: { owner: "${constructor}" }'),
    refused: (file) => `${file}: \${constructor} names no variable`,
  },
  {
    attack: "a spec that is no mapping, to be blamed on the name",
    text: tenantFile("team-mallory", "spec: give me everything"),
    refused: (file) => `${file}, document 1: spec must be a mapping`,
  },
  {
    attack: "an override that is no quantity, to stop the check of the other files",
    text: tenantFile(
      "team-mallory",
      "spec: { owner: m@example.com, vcluster: { valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { size: all } } } } } } }",
    ),
    refused: (file) =>
      `${file}, document 1 (team-mallory): spec.vcluster.valuesOverrides.controlPlane.statefulSet.persistence.volumeClaim.size: must be a Kubernetes quantity`,
  },
];

it.each(fileAttacks)(
  "refuses $attack in a Tenant file, naming the file, and still reports the other files",
  ({ text, refused }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-attacks-"));
    writeFileSync(path.join(dir, "mallory.yaml"), text);
    writeFileSync(path.join(dir, "neighbour.yaml"), tenantFile("team-neighbour", 'spec: { owner: "" }'));
    const error = thrownBy(() => readTenantFiles(dir, platform));
    expect(error).toBeInstanceOf(TenantFilesError);
    expect(error.message).toContain(refused(path.join(dir, "mallory.yaml")));
    expect(error.message).toContain(
      `${path.join(dir, "neighbour.yaml")}, document 1 (team-neighbour): spec.owner: must not be empty`,
    );
  },
);
