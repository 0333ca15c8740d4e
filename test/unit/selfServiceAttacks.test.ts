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
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  readTenantFiles,
  Tenant,
  TenantFilesError,
  TenantValidationError,
  validateRequest,
  type TenantPlatformInput,
} from "../../provider/index";
import { installMocks, outcomeOf, settle, type Registered } from "./support/pulumiMocks";
import { thrownBy } from "./support/thrown";
import { unhandledRejectionsOf } from "./support/unhandledRejections";

let registered: Registered[] = [];
beforeEach(() => {
  registered = installMocks();
});
afterEach(settle);

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

const attacks: readonly Attack[] = [
  // Host permissions and what is handed back.
  {
    attack: "a ClusterRole for the syncer",
    request: overrides({ rbac: { clusterRole: { enabled: true } } }),
    refused: [outsideAllowlist("rbac.clusterRole.enabled")],
  },
  {
    attack: "the exported kubeconfig pointed elsewhere",
    request: overrides({ exportKubeConfig: { server: "https://evil.example" } }),
    refused: [outsideAllowlist("exportKubeConfig.server")],
  },
  {
    attack: "extra names on the API certificate",
    request: overrides({ controlPlane: { proxy: { extraSANs: ["api.bank.example"] } } }),
    refused: [outsideAllowlist("controlPlane.proxy.extraSANs")],
  },
  {
    attack: "the chart's own quota switched on to replace ours",
    request: overrides({ policies: { resourceQuota: { enabled: true } } }),
    refused: [outsideAllowlist("policies.resourceQuota.enabled")],
  },
  {
    attack: "a plugin container",
    request: overrides({ plugins: { miner: { image: "evil/miner" } } }),
    refused: [outsideAllowlist("plugins.miner.image")],
  },
  {
    attack: "experimental deploy hooks",
    request: overrides({ experimental: { deploy: { host: { manifests: "kind: ClusterRoleBinding" } } } }),
    refused: [outsideAllowlist("experimental.deploy.host.manifests")],
  },
  // The backing store and the control plane's pods.
  {
    attack: "the backing store's image",
    request: overrides({
      controlPlane: { backingStore: { etcd: { deploy: { statefulSet: { image: { repository: "evil/etcd" } } } } } },
    }),
    refused: [outsideAllowlist("controlPlane.backingStore.etcd.deploy.statefulSet.image.repository")],
  },
  {
    attack: "the distro's image",
    request: overrides({ controlPlane: { distro: { k8s: { image: { repository: "evil/k8s" } } } } }),
    refused: [outsideAllowlist("controlPlane.distro.k8s.image.repository")],
  },
  {
    attack: "free-form API server flags",
    request: overrides({ controlPlane: { distro: { k8s: { apiServer: { extraArgs: ["--anonymous-auth=true"] } } } } }),
    refused: [outsideAllowlist("controlPlane.distro.k8s.apiServer.extraArgs")],
  },
  {
    attack: "a privileged security context",
    request: overrides({
      controlPlane: { statefulSet: { security: { containerSecurityContext: { privileged: true } } } },
    }),
    refused: [outsideAllowlist("controlPlane.statefulSet.security.containerSecurityContext.privileged")],
  },
  {
    attack: "a system priority class",
    request: overrides({
      controlPlane: { statefulSet: { scheduling: { priorityClassName: "system-node-critical" } } },
    }),
    refused: [outsideAllowlist("controlPlane.statefulSet.scheduling.priorityClassName")],
  },
  {
    attack: "the CPU limit removed through overrides",
    request: overrides({ controlPlane: { statefulSet: { resources: { limits: { cpu: null } } } } }),
    refused: [outsideAllowlist("controlPlane.statefulSet.resources.limits.cpu")],
  },
  {
    attack: "pod labels that match another policy's selector",
    request: overrides({ controlPlane: { statefulSet: { pods: { labels: { role: "gateway" } } } } }),
    refused: [outsideAllowlist("controlPlane.statefulSet.pods.labels.role")],
  },
  {
    attack: "pod annotations",
    request: overrides({
      controlPlane: { statefulSet: { pods: { annotations: { "iam.amazonaws.com/role": "admin" } } } },
    }),
    refused: [outsideAllowlist("controlPlane.statefulSet.pods.annotations.iam.amazonaws.com/role")],
  },
  // Syncing objects that reach past the namespace.
  {
    attack: "Ingress sync (hostname hijack)",
    request: overrides({ sync: { toHost: { ingresses: { enabled: true } } } }),
    refused: [outsideAllowlist("sync.toHost.ingresses.enabled")],
  },
  {
    attack: "ServiceAccount sync (cloud identity annotations)",
    request: overrides({ sync: { toHost: { serviceAccounts: { enabled: true } } } }),
    refused: [outsideAllowlist("sync.toHost.serviceAccounts.enabled")],
  },
  {
    attack: "NetworkPolicy sync (an allow rule undoes the egress fence)",
    request: overrides({ sync: { toHost: { networkPolicies: { enabled: true } } } }),
    refused: [outsideAllowlist("sync.toHost.networkPolicies.enabled")],
  },
  {
    attack: "PodDisruptionBudget sync (blocks node drains)",
    request: overrides({ sync: { toHost: { podDisruptionBudgets: { enabled: true } } } }),
    refused: [outsideAllowlist("sync.toHost.podDisruptionBudgets.enabled")],
  },
  {
    attack: "reading the host's nodes",
    request: overrides({ sync: { fromHost: { nodes: { enabled: true, selector: { all: true } } } } }),
    refused: ["sync.fromHost.nodes.enabled"],
  },
  {
    attack: "replicating another namespace's Service in",
    request: overrides({
      networking: { replicateServices: { fromHost: [{ from: "kube-system/secret-store", to: "default/store" }] } },
    }),
    refused: [outsideAllowlist("networking.replicateServices.fromHost")],
  },
  // Quotas that cannot hold the vCluster, or that ask for nothing.
  {
    attack: "a zero CPU quota",
    request: { owner, resources: { cpu: "0" } },
    refused: ["resources.cpu: must be greater than zero"],
  },
  {
    attack: "a negative memory quota",
    request: { owner, resources: { memory: "-1Gi" } },
    refused: ["resources.memory: must be greater than zero"],
  },
  {
    attack: "a CPU quota whose exponent overflows to infinity",
    request: { owner, resources: { cpu: "1e999" } },
    refused: ["resources.cpu: must be a quantity of finite size"],
  },
  {
    attack: "a storage quota of 400 digits",
    request: { owner, resources: { storage: `${"9".repeat(400)}Gi` } },
    refused: ["resources.storage: must be a quantity of finite size"],
  },
  {
    attack: "a zero default limit",
    request: { owner, limitRange: { defaultLimit: { cpu: "0" } } },
    refused: ["limitRange.defaultLimit.cpu: must be greater than zero"],
  },
  {
    attack: "storage below the data volume",
    request: { owner, resources: { storage: "1Gi" } },
    refused: ["resources.storage: 1Gi is less than the vCluster's data volumes request"],
  },
  {
    attack: "a data volume above the storage quota",
    request: overrides({ controlPlane: { statefulSet: { persistence: { volumeClaim: { size: "500Gi" } } } } }),
    refused: ["resources.storage: 20Gi is less than the vCluster's data volumes request"],
  },
  {
    attack: "a pod count too small for the vCluster",
    request: { owner, resources: { pods: 1 } },
    refused: ["resources.pods: 1 is less than the vCluster itself needs (2)"],
  },
  {
    attack: "a Secret count too small for the vCluster and its release history",
    request: { owner, resources: { secrets: 2 } },
    refused: ["resources.secrets: 2 is less than the vCluster itself needs"],
  },
  {
    attack: "control-plane replicas beyond the CPU quota",
    request: {
      owner,
      resources: { cpu: "2" },
      vcluster: { valuesOverrides: { controlPlane: { statefulSet: { highAvailability: { replicas: 3 } } } } },
    },
    refused: ["resources.cpu: 2 is less than the limits of the vCluster's own containers"],
  },
  {
    attack: "CoreDNS limits beyond the memory quota",
    request: {
      owner,
      resources: { memory: "2Gi" },
      vcluster: {
        valuesOverrides: { controlPlane: { coredns: { deployment: { resources: { limits: { memory: "64Gi" } } } } } },
      },
    },
    refused: ["resources.memory: 2Gi is less than the limits of the vCluster's own containers"],
  },
  // Overrides the quota check reads, with values it cannot count.
  {
    attack: "negative control-plane replicas to shrink what the quota check counts",
    request: overrides({ controlPlane: { statefulSet: { highAvailability: { replicas: -1 } } } }),
    refused: [
      "vcluster.valuesOverrides.controlPlane.statefulSet.highAvailability.replicas: must be a whole number >= 0",
    ],
  },
  {
    attack: "negative CoreDNS replicas",
    request: overrides({ controlPlane: { coredns: { deployment: { replicas: -5 } } } }),
    refused: ["vcluster.valuesOverrides.controlPlane.coredns.deployment.replicas: must be a whole number >= 0"],
  },
  {
    attack: "a data volume of size zero (storage the check does not count)",
    request: overrides({ controlPlane: { statefulSet: { persistence: { volumeClaim: { size: "0" } } } } }),
    refused: [
      "vcluster.valuesOverrides.controlPlane.statefulSet.persistence.volumeClaim.size: must be greater than zero",
    ],
  },
  {
    attack: "a CoreDNS CPU limit of zero (a container the quota does not count)",
    request: overrides({ controlPlane: { coredns: { deployment: { resources: { limits: { cpu: "0" } } } } } }),
    refused: [
      "vcluster.valuesOverrides.controlPlane.coredns.deployment.resources.limits.cpu: must be greater than zero",
    ],
  },
  {
    attack: "a CoreDNS limit that is no quantity (the check itself stops)",
    request: overrides({ controlPlane: { coredns: { deployment: { resources: { limits: { memory: "all" } } } } } }),
    refused: [
      "vcluster.valuesOverrides.controlPlane.coredns.deployment.resources.limits.memory: must be a Kubernetes quantity",
    ],
  },
  // What only the platform decides.
  {
    attack: "its own host namespace",
    request: { owner, targetNamespace: "kube-system" },
    refused: ['unknown field(s) "targetNamespace": a request holds owner'],
  },
  {
    attack: "the platform's policy itself",
    request: { owner, platform: { allowUnsafeOverrides: true } },
    refused: ['unknown field(s) "platform"'],
  },
  {
    attack: "a host kubeconfig that runs a command",
    request: { owner, platform: { hostKubeconfig: "users: [{user: {exec: {command: /bin/sh}}}]" } },
    refused: ['unknown field(s) "platform"'],
  },
  {
    attack: "its own chart",
    request: { owner, vcluster: { chart: { localPath: "/tmp/evil-chart" } } },
    refused: ['vcluster: unknown field(s) "chart"'],
  },
  {
    attack: "the unsafe-overrides switch",
    request: {
      owner,
      vcluster: { allowUnsafeOverrides: true, valuesOverrides: { rbac: { clusterRole: { enabled: true } } } },
    },
    refused: ['vcluster: unknown field(s) "allowUnsafeOverrides"'],
  },
  {
    attack: "its own exposure (gateway, issuer, domain)",
    request: { owner, exposure: { baseDomain: "bank.example", issuerRef: { name: "prod-ca" } } },
    refused: ['unknown field(s) "exposure"'],
  },
  {
    attack: "no NetworkPolicy",
    request: { owner, isolation: { networkPolicy: false } },
    refused: ['isolation: unknown field(s) "networkPolicy"'],
  },
  {
    attack: "a pod security level the platform does not allow",
    request: { owner, isolation: { podSecurity: "baseline" } },
    refused: [
      "isolation.podSecurity: baseline is not a level the platform allows (platform.podSecurity.allowed: restricted)",
    ],
  },
  {
    attack: "CPU above the platform's ceiling",
    request: { owner, resources: { cpu: "64" } },
    refused: ["resources.cpu: 64 is above the platform's ceiling (platform.quota.ceilings.cpu: 16)"],
  },
  {
    attack: "memory above the platform's ceiling",
    request: { owner, resources: { memory: "1Ti" } },
    refused: ["resources.memory: 1Ti is above the platform's ceiling (platform.quota.ceilings.memory: 64Gi)"],
  },
  {
    attack: "more pods than the platform's ceiling",
    request: { owner, resources: { pods: 1000 } },
    refused: ["resources.pods: 1000 is above the platform's ceiling (platform.quota.ceilings.pods: 100)"],
  },
  {
    attack: "NodePort Services (ports on every node)",
    request: { owner, resources: { servicesNodePorts: 3 } },
    refused: [
      "resources.servicesNodePorts: 3 is above the platform's ceiling (platform.quota.ceilings.servicesNodePorts: 0)",
    ],
  },
  // Values that say nothing.
  {
    attack: "an owner of only whitespace (nobody to answer for the tenant)",
    request: { owner: "   " },
    refused: ["owner: must not be blank: it holds only whitespace"],
  },
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

// What a platform might allow; the requests above ask for more, or for what it keeps to itself.
const platform = {
  podSecurity: { default: "restricted" as const, allowed: ["restricted" as const] },
  quota: {
    ceilings: {
      cpu: "16",
      memory: "64Gi",
      storage: "200Gi",
      pods: 100,
      servicesNodePorts: 0,
      servicesLoadBalancers: 0,
    },
  },
};

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
    expect(registered).toEqual([]);
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
    expect(registered.filter((r) => r.type !== "kubespaces:index:Tenant")).toEqual([]);
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
