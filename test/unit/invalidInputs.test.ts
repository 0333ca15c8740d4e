/**
 * Bad input never creates anything: each invalid input is reported, naming the field and the
 * rule, before a single resource (the Tenant included) is registered.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { installMocks, settle, type Registered } from "./support/pulumiMocks";
import { Tenant, TenantValidationError } from "../../provider/index";
import { thrownBy } from "./support/thrown";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";

let registered: Registered[] = [];
const owner = "alice@example.com";
const exposure = { baseDomain: "example.com", issuerRef: { name: "letsencrypt" }, verifyCrds: false };

interface Case {
  readonly why: string;
  readonly name?: string;
  readonly args: Record<string, unknown>;
  /** Each fragment must appear in the error, e.g. "resources.cpu: must be a Kubernetes quantity". */
  readonly expected: readonly string[];
}

const cases: Case[] = [
  { why: "owner missing", args: {}, expected: ["owner: is required"] },
  { why: "owner empty", args: { owner: "" }, expected: ["owner: must not be empty"] },
  {
    why: "owner only whitespace",
    args: { owner: " \t " },
    expected: ["owner: must not be blank: it holds only whitespace"],
  },
  { why: "owner too long", args: { owner: "x".repeat(254) }, expected: ["owner: must be at most 253"] },
  {
    why: "name with capitals",
    name: "Team-Atlas",
    args: { owner },
    expected: ["name: must be a DNS-1123 label", '"Team-Atlas"'],
  },
  { why: "name with underscore", name: "team_atlas", args: { owner }, expected: ["name: must be a DNS-1123 label"] },
  { why: "name ending in dash", name: "atlas-", args: { owner }, expected: ["name: must be a DNS-1123 label"] },
  {
    why: "name too long for a release",
    name: "a".repeat(54),
    args: { owner },
    expected: ["name: must be at most 53 characters"],
  },
  {
    why: "name too long for the default namespace",
    name: "a".repeat(50),
    args: { owner },
    expected: ['name: gives namespace "kubespaces-tenant-aaaa', "(at most 63, with platform.namespacePrefix)"],
  },
  { why: "unknown top-level field", args: { owner, quota: {} }, expected: ['unknown field(s) "quota"'] },
  {
    why: "cpu not a quantity",
    args: { owner, resources: { cpu: "lots" } },
    expected: ["resources.cpu: must be a Kubernetes quantity", '(got "lots")'],
  },
  {
    why: "memory with a bad suffix",
    args: { owner, resources: { memory: "16GB" } },
    expected: ["resources.memory: must be a Kubernetes quantity"],
  },
  {
    why: "storage as a number",
    args: { owner, resources: { storage: 50 } },
    expected: ["resources.storage: must be a string, got number"],
  },
  {
    why: "negative pod count",
    args: { owner, resources: { pods: -1 } },
    expected: ["resources.pods: must be a whole number >= 0"],
  },
  {
    why: "fractional service count",
    args: { owner, resources: { services: 1.5 } },
    expected: ["resources.services: must be a whole number, got 1.5"],
  },
  {
    why: "pod count of infinity (YAML's .inf)",
    args: { owner, resources: { pods: Infinity } },
    expected: ["resources.pods: must be a finite number, got Infinity"],
  },
  {
    why: "unknown resource",
    args: { owner, resources: { gpus: 2 } },
    expected: ['resources: unknown field(s) "gpus"'],
  },
  {
    why: "namespace prefix with dots",
    args: { owner, platform: { namespacePrefix: "team.atlas-" } },
    expected: ["platform.namespacePrefix: must be lower-case letters, digits and '-'"],
  },
  {
    why: "namespace prefix too long",
    args: { owner, platform: { namespacePrefix: "n".repeat(41) } },
    expected: ["platform.namespacePrefix: must be at most 40 characters"],
  },
  {
    why: "default request above default limit",
    args: { owner, limitRange: { defaultRequest: { cpu: "2" } } },
    expected: ["limitRange.defaultRequest.cpu: 2 must not exceed limitRange.defaultLimit.cpu (1)"],
  },
  {
    why: "default limit above the quota",
    args: { owner, resources: { memory: "512Mi" } },
    expected: ["limitRange.defaultLimit.memory: 1Gi must not exceed resources.memory (512Mi)"],
  },
  {
    why: "cpu whose exponent overflows",
    args: { owner, resources: { cpu: "1e999" } },
    expected: ["resources.cpu: must be a quantity of finite size", '(got "1e999")'],
  },
  {
    why: "memory whose digits overflow",
    args: { owner, resources: { memory: "9".repeat(400) } },
    expected: ["resources.memory: must be a quantity of finite size"],
  },
  {
    why: "a ceiling that overflows",
    args: { owner, platform: { quota: { ceilings: { storage: "1e400" } } } },
    expected: ["platform.quota.ceilings.storage: must be a quantity of finite size"],
  },
  {
    why: "limit range quantity",
    args: { owner, limitRange: { defaultLimit: { cpu: "1 core" } } },
    expected: ["limitRange.defaultLimit.cpu: must be a Kubernetes quantity"],
  },
  {
    why: "privileged pod security",
    args: { owner, isolation: { podSecurity: "privileged" } },
    expected: ["isolation.podSecurity: must be one of: baseline, restricted"],
  },
  {
    why: "network policy as text",
    args: { owner, platform: { networkPolicy: "yes" } },
    expected: ["platform.networkPolicy: must be a boolean, got string"],
  },
  {
    why: "exposure without a base domain",
    args: { owner, platform: { exposure: { issuerRef: { name: "le" } } } },
    expected: ["platform.exposure.baseDomain: is required"],
  },
  {
    why: "base domain with a scheme",
    args: { owner, platform: { exposure: { ...exposure, baseDomain: "https://example.com" } } },
    expected: ["platform.exposure.baseDomain: must be a DNS name"],
  },
  {
    why: "base domain of a single label",
    args: { owner, platform: { exposure: { ...exposure, baseDomain: "localhost" } } },
    expected: ["platform.exposure.baseDomain: must have at least two labels", '(got "localhost")'],
  },
  {
    why: "base domain that is a top-level domain",
    args: { owner, platform: { exposure: { ...exposure, baseDomain: "com" } } },
    expected: ["platform.exposure.baseDomain: must have at least two labels"],
  },
  {
    why: "base domain label too long",
    args: { owner, platform: { exposure: { ...exposure, baseDomain: `${"l".repeat(64)}.com` } } },
    expected: ["platform.exposure.baseDomain: has a label longer than 63"],
  },
  {
    why: "exposure without an issuer",
    args: { owner, platform: { exposure: { baseDomain: "example.com" } } },
    expected: ["platform.exposure.issuerRef: is required"],
  },
  {
    why: "issuer name only whitespace",
    args: { owner, platform: { exposure: { ...exposure, issuerRef: { name: "  " } } } },
    expected: ["platform.exposure.issuerRef.name: must not be blank"],
  },
  {
    why: "chart version only whitespace",
    args: { owner, platform: { chart: { version: " " } } },
    expected: ["platform.chart.version: must not be blank"],
  },
  {
    why: "issuer of an unknown kind",
    args: { owner, platform: { exposure: { ...exposure, issuerRef: { name: "le", kind: "Vault" } } } },
    expected: ["platform.exposure.issuerRef.kind: must be one of: ClusterIssuer, Issuer"],
  },
  {
    why: "TLSRoute version not served",
    args: { owner, platform: { exposure: { ...exposure, tlsRouteVersion: "v1beta1" } } },
    expected: ["platform.exposure.tlsRouteVersion: must be one of: v1, v1alpha2"],
  },
  {
    why: "gateway namespace invalid",
    args: { owner, platform: { exposure: { ...exposure, gateway: { namespace: "Gateway NS" } } } },
    expected: ["platform.exposure.gateway.namespace: must be a DNS-1123 label"],
  },
  {
    why: "Kubernetes version malformed",
    args: { owner, vcluster: { kubernetesVersion: "1.36" } },
    expected: ["vcluster.kubernetesVersion: must be a Kubernetes version such as v1.36.0"],
  },
  {
    why: "unsafe overrides",
    args: {
      owner,
      vcluster: {
        valuesOverrides: { rbac: { clusterRole: { enabled: true } }, exportKubeConfig: { server: "https://evil" } },
      },
    },
    expected: [
      "vcluster.valuesOverrides: sets paths outside the self-service allowlist: exportKubeConfig.server, rbac.clusterRole.enabled",
    ],
  },
  {
    why: "an unsafe path beside a safe one",
    args: {
      owner,
      vcluster: { valuesOverrides: { controlPlane: { statefulSet: { resources: {}, image: { tag: "x" } } } } },
    },
    expected: ["controlPlane.statefulSet.image.tag"],
  },
  {
    why: "control plane limit above the quota",
    args: {
      owner,
      resources: { cpu: "500m" },
      limitRange: { defaultLimit: { cpu: "500m" }, defaultRequest: { cpu: "100m" } },
    },
    expected: ["vcluster.controlPlaneResources.limits.cpu: 1 must not exceed resources.cpu (500m)"],
  },
  {
    why: "an allowlisted override of the wrong type",
    args: { owner, vcluster: { valuesOverrides: { controlPlane: { coredns: { enabled: "yes" } } } } },
    expected: [
      `vcluster.valuesOverrides: make values the vCluster ${VCLUSTER_CHART_VERSION} chart's schema rejects: /controlPlane/coredns/enabled must be boolean`,
    ],
  },
  ...overrideValueCases(),
  {
    why: "a storage class that is not a string",
    args: {
      owner,
      vcluster: {
        valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { storageClass: 5 } } } } },
      },
    },
    expected: ["/controlPlane/statefulSet/persistence/volumeClaim/storageClass must be string"],
  },
  {
    why: "helm timeout too short",
    args: { owner, platform: { helmTimeoutSeconds: 5 } },
    expected: ["platform.helmTimeoutSeconds: must be at least 60"],
  },
  {
    why: "readiness timeout zero",
    args: { owner, platform: { readinessTimeoutSeconds: 0 } },
    expected: ["platform.readinessTimeoutSeconds: must be at least 1"],
  },
  {
    why: "readiness timeout over an hour",
    args: { owner, platform: { readinessTimeoutSeconds: 7200 } },
    expected: ["platform.readinessTimeoutSeconds: must be at most 3600"],
  },
  {
    why: "empty host kubeconfig",
    args: { owner, platform: { hostKubeconfig: "" } },
    expected: ["platform.hostKubeconfig: must not be empty"],
  },
  {
    why: "host kubeconfig only whitespace",
    args: { owner, platform: { hostKubeconfig: "\n  \n" } },
    expected: ["platform.hostKubeconfig: must not be blank: it holds only whitespace"],
  },
];

/** Allowlisted overrides the quota check reads, with values it cannot count. */
function overrideValueCases(): Case[] {
  const at = (path: string, value: unknown): Record<string, unknown> =>
    path
      .split(".")
      .reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as Record<string, unknown>);
  const field = (path: string) => `vcluster.valuesOverrides.${path}`;
  const rows: [string, string, unknown, string][] = [
    [
      "negative control-plane replicas",
      "controlPlane.statefulSet.highAvailability.replicas",
      -1,
      "must be a whole number >= 0",
    ],
    [
      "control-plane replicas as text",
      "controlPlane.statefulSet.highAvailability.replicas",
      "three",
      "must be a number, got string",
    ],
    ["fractional CoreDNS replicas", "controlPlane.coredns.deployment.replicas", 1.5, "must be a whole number, got 1.5"],
    [
      "a data volume of size zero",
      "controlPlane.statefulSet.persistence.volumeClaim.size",
      "0",
      'must be greater than zero (got "0")',
    ],
    [
      "a negative data volume",
      "controlPlane.statefulSet.persistence.volumeClaim.size",
      "-5Gi",
      "must be greater than zero",
    ],
    [
      "a data volume size that is no quantity",
      "controlPlane.statefulSet.persistence.volumeClaim.size",
      "lots",
      'must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi (got "lots")',
    ],
    [
      "a CoreDNS limit that is no quantity",
      "controlPlane.coredns.deployment.resources.limits.cpu",
      "lots",
      "must be a Kubernetes quantity",
    ],
    [
      "a CoreDNS request that overflows",
      "controlPlane.coredns.deployment.resources.requests.memory",
      "1e999",
      "must be a quantity of finite size",
    ],
    [
      "a CoreDNS limit removed with null",
      "controlPlane.coredns.deployment.resources.limits.memory",
      null,
      "must be a string, got null (null would remove the chart's value",
    ],
  ];
  return rows.map(([why, path, value, rule]) => ({
    why,
    args: { owner, vcluster: { valuesOverrides: at(path, value) } },
    expected: [`${field(path)}: ${rule}`],
  }));
}

describe("invalid tenant inputs", () => {
  // Each test is a program of its own.
  beforeEach(() => {
    registered = installMocks();
  });
  afterEach(settle);

  it.each(cases)("rejects $why, registering nothing", async ({ name = "team-atlas", args, expected }) => {
    const error = thrownBy(() => new Tenant(name, args as never));
    expect(error).toBeInstanceOf(TenantValidationError);
    const message = error.message;
    for (const fragment of expected) expect(message).toContain(fragment);
    expect(message).toContain("nothing was created");
    await settle();
    expect(registered).toEqual([]);
  });

  it("never quotes the host kubeconfig, even one that breaks a rule", () => {
    const error = thrownBy(() => new Tenant("team-atlas", { owner, platform: { hostKubeconfig: "   " } }));
    expect(error.message).toContain("platform.hostKubeconfig: must not be blank");
    expect(error.message).not.toContain("(got");
  });

  it("checks the values of allowlisted overrides even where the platform allows unsafe ones", () => {
    const args = {
      owner,
      vcluster: { valuesOverrides: { controlPlane: { coredns: { deployment: { replicas: -2 } } } } },
      platform: { allowUnsafeOverrides: true },
    };
    expect(() => new Tenant("team-atlas", args)).toThrow(
      "vcluster.valuesOverrides.controlPlane.coredns.deployment.replicas: must be a whole number >= 0",
    );
  });

  it("reports every problem of one tenant in one error", () => {
    const args = { owner: "", resources: { cpu: "x", memory: "y" }, isolation: { podSecurity: "none" } };
    const error = thrownBy(() => new Tenant("team-atlas", args as never));
    expect(error).toBeInstanceOf(TenantValidationError);
    const problems = (error as TenantValidationError).problems.map((p) => p.path);
    expect(problems).toEqual(["owner", "resources.cpu", "resources.memory", "isolation.podSecurity"]);
  });

  // Two platforms in one program whose prefixes make the same namespace of two tenants' names.
  it("rejects a namespace already claimed by another tenant in the program", async () => {
    new Tenant("team-atlas", { owner, platform: { namespacePrefix: "t-" } });
    await settle();
    const before = registered.length;
    expect(() => new Tenant("atlas", { owner, platform: { namespacePrefix: "t-team-" } })).toThrow(
      'name: namespace "t-team-atlas" is already claimed by Tenant "team-atlas" in this program',
    );
    await settle();
    expect(registered.length).toBe(before);
  });

  it("keeps claims to their program: another program may use the namespace", async () => {
    new Tenant("team-atlas", { owner, platform: { namespacePrefix: "t-" } });
    await settle();
    registered = installMocks();
    expect(() => new Tenant("atlas", { owner, platform: { namespacePrefix: "t-team-" } })).not.toThrow();
  });
});
