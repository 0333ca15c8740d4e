/**
 * Bad input never creates anything: each invalid input is reported, naming the field and the
 * rule, before a single resource (the Tenant included) is registered.
 */
import { describe, expect, it } from "vitest";
import { installMocks, programEach, settle } from "./support/pulumiMocks";
import { Tenant, TenantValidationError } from "../../provider/index";
import { thrownBy } from "./support/thrown";
import { valuesAt } from "./support/valuesAt";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";

const owner = "alice@example.com";
const exposure = { baseDomain: "example.com", issuerRef: { name: "letsencrypt" }, verifyCrds: false };

interface Case {
  readonly why: string;
  readonly name?: string;
  readonly args: Record<string, unknown>;
  /** Each fragment must appear in the error, e.g. "resources.cpu: must be a Kubernetes quantity". */
  readonly expected: readonly string[];
}

/** Arguments `args`, rejected with each of `expected`. */
const invalid = (why: string, args: Record<string, unknown>, ...expected: string[]): Case => ({ why, args, expected });
/** A tenant named `name`, rejected with each of `expected`. */
const invalidName = (why: string, name: string, ...expected: string[]): Case => ({
  why,
  name,
  args: { owner },
  expected,
});
/** A quota of `resources`, rejected with each of `expected`. */
const invalidQuota = (why: string, resources: Record<string, unknown>, ...expected: string[]): Case =>
  invalid(why, { owner, resources }, ...expected);
/** A platform policy of `platform`, rejected with each of `expected`. */
const invalidPolicy = (why: string, platform: Record<string, unknown>, ...expected: string[]): Case =>
  invalid(why, { owner, platform }, ...expected);
/** A valid exposure with `fields` changed, rejected with each of `expected`. */
const invalidExposure = (why: string, fields: Record<string, unknown>, ...expected: string[]): Case =>
  invalidPolicy(why, { exposure: { ...exposure, ...fields } }, ...expected);
/** An allowlisted override of `value` at `path` that the quota check reads but cannot count, rejected by `rule`. */
const invalidOverrideValue = (why: string, path: string, value: unknown, rule: string): Case =>
  invalid(
    why,
    { owner, vcluster: { valuesOverrides: valuesAt(path, value) } },
    `vcluster.valuesOverrides.${path}: ${rule}`,
  );

const cases: Case[] = [
  invalid("owner missing", {}, "owner: is required"),
  invalid("owner empty", { owner: "" }, "owner: must not be empty"),
  invalid("owner only whitespace", { owner: " \t " }, "owner: must not be blank: it holds only whitespace"),
  invalid("owner too long", { owner: "x".repeat(254) }, "owner: must be at most 253"),
  invalidName("name with capitals", "Team-Atlas", "name: must be a DNS-1123 label", '"Team-Atlas"'),
  invalidName("name with underscore", "team_atlas", "name: must be a DNS-1123 label"),
  invalidName("name ending in dash", "atlas-", "name: must be a DNS-1123 label"),
  invalidName("name too long for a release", "a".repeat(54), "name: must be at most 53 characters"),
  invalidName(
    "name too long for the default namespace",
    "a".repeat(50),
    'name: gives namespace "kubespaces-tenant-aaaa',
    "(at most 63, with platform.namespacePrefix)",
  ),
  invalid("unknown top-level field", { owner, quota: {} }, 'unknown field(s) "quota"'),
  invalidQuota("cpu not a quantity", { cpu: "lots" }, "resources.cpu: must be a Kubernetes quantity", '(got "lots")'),
  invalidQuota("memory with a bad suffix", { memory: "16GB" }, "resources.memory: must be a Kubernetes quantity"),
  invalidQuota("storage as a number", { storage: 50 }, "resources.storage: must be a string, got number"),
  invalidQuota("negative pod count", { pods: -1 }, "resources.pods: must be a whole number >= 0"),
  invalidQuota("fractional service count", { services: 1.5 }, "resources.services: must be a whole number, got 1.5"),
  invalidQuota(
    "pod count of infinity (YAML's .inf)",
    { pods: Infinity },
    "resources.pods: must be a finite number, got Infinity",
  ),
  invalidQuota("unknown resource", { gpus: 2 }, 'resources: unknown field(s) "gpus"'),
  invalidPolicy(
    "namespace prefix with dots",
    { namespacePrefix: "team.atlas-" },
    "platform.namespacePrefix: must be lower-case letters, digits and '-'",
  ),
  invalidPolicy(
    "namespace prefix too long",
    { namespacePrefix: "n".repeat(41) },
    "platform.namespacePrefix: must be at most 40 characters",
  ),
  invalid(
    "default request above default limit",
    { owner, limitRange: { defaultRequest: { cpu: "2" } } },
    "limitRange.defaultRequest.cpu: 2 must not exceed limitRange.defaultLimit.cpu (1)",
  ),
  invalidQuota(
    "default limit above the quota",
    { memory: "512Mi" },
    "limitRange.defaultLimit.memory: 1Gi must not exceed resources.memory (512Mi)",
  ),
  invalidQuota(
    "cpu whose exponent overflows",
    { cpu: "1e999" },
    "resources.cpu: must be a quantity of finite size",
    '(got "1e999")',
  ),
  invalidQuota(
    "memory of 400 digits, longer than any quantity needs",
    { memory: "9".repeat(400) },
    "resources.memory: must be at most 64 characters",
  ),
  invalidPolicy(
    "a ceiling that overflows",
    { quota: { ceilings: { storage: "1e400" } } },
    "platform.quota.ceilings.storage: must be a quantity of finite size",
  ),
  invalid(
    "limit range quantity",
    { owner, limitRange: { defaultLimit: { cpu: "1 core" } } },
    "limitRange.defaultLimit.cpu: must be a Kubernetes quantity",
  ),
  invalid(
    "privileged pod security",
    { owner, isolation: { podSecurity: "privileged" } },
    "isolation.podSecurity: must be one of: baseline, restricted",
  ),
  invalidPolicy(
    "network policy as text",
    { networkPolicy: "yes" },
    "platform.networkPolicy: must be a boolean, got string",
  ),
  invalidPolicy(
    "exposure without a base domain",
    { exposure: { issuerRef: { name: "le" } } },
    "platform.exposure.baseDomain: is required",
  ),
  invalidExposure(
    "base domain with a scheme",
    { baseDomain: "https://example.com" },
    "platform.exposure.baseDomain: must be a DNS name",
  ),
  invalidExposure(
    "base domain of a single label",
    { baseDomain: "localhost" },
    "platform.exposure.baseDomain: must have at least two labels",
    '(got "localhost")',
  ),
  invalidExposure(
    "base domain that is a top-level domain",
    { baseDomain: "com" },
    "platform.exposure.baseDomain: must have at least two labels",
  ),
  invalidExposure(
    "base domain label too long",
    { baseDomain: `${"l".repeat(64)}.com` },
    "platform.exposure.baseDomain: has a label longer than 63",
  ),
  invalidPolicy(
    "exposure without an issuer",
    { exposure: { baseDomain: "example.com" } },
    "platform.exposure.issuerRef: is required",
  ),
  invalidExposure(
    "issuer name only whitespace",
    { issuerRef: { name: "  " } },
    "platform.exposure.issuerRef.name: must not be blank",
  ),
  invalidPolicy(
    "chart version only whitespace",
    { chart: { version: " " } },
    "platform.chart.version: must not be blank",
  ),
  invalidExposure(
    "issuer of an unknown kind",
    { issuerRef: { name: "le", kind: "Vault" } },
    "platform.exposure.issuerRef.kind: must be one of: ClusterIssuer, Issuer",
  ),
  invalidExposure(
    "TLSRoute version not served",
    { tlsRouteVersion: "v1beta1" },
    "platform.exposure.tlsRouteVersion: must be one of: v1, v1alpha2",
  ),
  invalidExposure(
    "gateway namespace invalid",
    { gateway: { namespace: "Gateway NS" } },
    "platform.exposure.gateway.namespace: must be a DNS-1123 label",
  ),
  invalid(
    "Kubernetes version malformed",
    { owner, vcluster: { kubernetesVersion: "1.36" } },
    "vcluster.kubernetesVersion: must be a Kubernetes version such as v1.36.0",
  ),
  invalid(
    "unsafe overrides",
    {
      owner,
      vcluster: {
        valuesOverrides: { rbac: { clusterRole: { enabled: true } }, exportKubeConfig: { server: "https://evil" } },
      },
    },
    "vcluster.valuesOverrides: sets paths outside the self-service allowlist: exportKubeConfig.server, rbac.clusterRole.enabled",
    "(see the allowlist in docs/reference.md#self-service-overrides;",
  ),
  invalid(
    "an unsafe path beside a safe one",
    { owner, vcluster: { valuesOverrides: { controlPlane: { statefulSet: { resources: {}, image: { tag: "x" } } } } } },
    "controlPlane.statefulSet.image.tag",
  ),
  invalid(
    "control plane limit above the quota",
    {
      owner,
      resources: { cpu: "500m" },
      limitRange: { defaultLimit: { cpu: "500m" }, defaultRequest: { cpu: "100m" } },
    },
    "vcluster.controlPlaneResources.limits.cpu: 1 must not exceed resources.cpu (500m)",
  ),
  invalid(
    "an allowlisted override of the wrong type",
    { owner, vcluster: { valuesOverrides: valuesAt("controlPlane.coredns.enabled", "yes") } },
    `vcluster.valuesOverrides: make values the vCluster ${VCLUSTER_CHART_VERSION} chart's schema rejects: /controlPlane/coredns/enabled must be boolean`,
  ),
  // Allowlisted overrides the quota check reads, with values it cannot count.
  invalidOverrideValue(
    "negative control-plane replicas",
    "controlPlane.statefulSet.highAvailability.replicas",
    -1,
    "must be a whole number >= 0",
  ),
  invalidOverrideValue(
    "control-plane replicas as text",
    "controlPlane.statefulSet.highAvailability.replicas",
    "three",
    "must be a number, got string",
  ),
  invalidOverrideValue(
    "fractional CoreDNS replicas",
    "controlPlane.coredns.deployment.replicas",
    1.5,
    "must be a whole number, got 1.5",
  ),
  invalidOverrideValue(
    "a data volume of size zero",
    "controlPlane.statefulSet.persistence.volumeClaim.size",
    "0",
    'must be greater than zero (got "0")',
  ),
  invalidOverrideValue(
    "a negative data volume",
    "controlPlane.statefulSet.persistence.volumeClaim.size",
    "-5Gi",
    "must be greater than zero",
  ),
  invalidOverrideValue(
    "a data volume size that is no quantity",
    "controlPlane.statefulSet.persistence.volumeClaim.size",
    "lots",
    'must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi (got "lots")',
  ),
  invalidOverrideValue(
    "a CoreDNS limit that is no quantity",
    "controlPlane.coredns.deployment.resources.limits.cpu",
    "lots",
    "must be a Kubernetes quantity",
  ),
  invalidOverrideValue(
    "a CoreDNS request that overflows",
    "controlPlane.coredns.deployment.resources.requests.memory",
    "1e999",
    "must be a quantity of finite size",
  ),
  invalidOverrideValue(
    "a CoreDNS limit removed with null",
    "controlPlane.coredns.deployment.resources.limits.memory",
    null,
    "must be a string, got null (null would remove the chart's value",
  ),
  invalid(
    "a storage class that is not a string",
    {
      owner,
      vcluster: { valuesOverrides: valuesAt("controlPlane.statefulSet.persistence.volumeClaim.storageClass", 5) },
    },
    "/controlPlane/statefulSet/persistence/volumeClaim/storageClass must be string",
  ),
  invalidPolicy(
    "helm timeout too short",
    { helmTimeoutSeconds: 5 },
    "platform.helmTimeoutSeconds: must be at least 60",
  ),
  invalidPolicy(
    "readiness timeout zero",
    { readinessTimeoutSeconds: 0 },
    "platform.readinessTimeoutSeconds: must be at least 1",
  ),
  invalidPolicy(
    "readiness timeout over an hour",
    { readinessTimeoutSeconds: 7200 },
    "platform.readinessTimeoutSeconds: must be at most 3600",
  ),
  invalidPolicy("empty host kubeconfig", { hostKubeconfig: "" }, "platform.hostKubeconfig: must not be empty"),
  invalidPolicy(
    "host kubeconfig only whitespace",
    { hostKubeconfig: "\n  \n" },
    "platform.hostKubeconfig: must not be blank: it holds only whitespace",
  ),
];

describe("invalid tenant inputs", () => {
  const registered = programEach();

  it.each(cases)("rejects $why, registering nothing", async ({ name = "team-atlas", args, expected }) => {
    const error = thrownBy(() => new Tenant(name, args as never));
    expect(error).toBeInstanceOf(TenantValidationError);
    const message = error.message;
    for (const fragment of expected) expect(message).toContain(fragment);
    expect(message).toContain("nothing was created");
    await settle();
    expect(registered()).toEqual([]);
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
    const before = registered().length;
    expect(() => new Tenant("atlas", { owner, platform: { namespacePrefix: "t-team-" } })).toThrow(
      'name: namespace "t-team-atlas" is already claimed by Tenant "team-atlas" in this program',
    );
    await settle();
    expect(registered().length).toBe(before);
  });

  it("keeps claims to their program: another program may use the namespace", async () => {
    new Tenant("team-atlas", { owner, platform: { namespacePrefix: "t-" } });
    await settle();
    installMocks(); // another program
    expect(() => new Tenant("atlas", { owner, platform: { namespacePrefix: "t-team-" } })).not.toThrow();
  });
});
