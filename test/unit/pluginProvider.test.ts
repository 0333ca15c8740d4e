/** The provider plugin's Provider under Pulumi mocks: construct, and the custom resources' check and diff. */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import { kubespacesProvider } from "../../provider/plugin/kubespacesProvider";
import { TENANT_OUTPUT_NAMES } from "../../provider/model/tenantOutputsSchema";
import { installMocks, isSecret, settle, valueOf } from "./support/pulumiMocks";

const registered = installMocks();
const provider = kubespacesProvider("0.1.0", "{}");
const readinessUrn =
  "urn:pulumi:test::proj::kubespaces:index:Tenant$kubespaces:index:TenantReadiness::team-atlas-readiness";
const readinessInputs = {
  tenantName: "team-atlas",
  namespace: "ns",
  releaseName: "team-atlas",
  serverUrl: "https://x:443",
  timeoutSeconds: 600,
};

describe("kubespaces provider plugin", () => {
  it("constructs a Tenant whose host check, access check, readiness and cleanup are the plugin's custom resources", async () => {
    const namespaceAccess = { clusterRole: "edit", subject: { kind: "User", name: "kubespaces" } };
    const result = await provider.construct!(
      "team-atlas",
      "kubespaces:index:Tenant",
      { owner: "alice", platform: { namespaceAccess } },
      {},
    );
    await settle();
    expect(await valueOf(result.state.namespace as never)).toBe("kubespaces-tenant-team-atlas");
    const types = registered.map((r) => r.type);
    expect(types).toContain("kubespaces:index:TenantReadiness");
    expect(types).toContain("kubespaces:index:TenantCleanup");
    expect(types).toContain("kubespaces:index:TenantHostCheck");
    expect(types).toContain("kubespaces:index:TenantAccessCheck");
    expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
    expect(Object.keys(result.state).sort()).toEqual([...TENANT_OUTPUT_NAMES].sort());
    expect(await isSecret(result.state.kubeconfig as never)).toBe(true);
  });

  it("claims namespaces across the Tenants of one deployment", async () => {
    await provider.construct!(
      "eam",
      "kubespaces:index:Tenant",
      { owner: "a", platform: { namespacePrefix: "p-t" } },
      {},
    );
    await settle();
    await expect(
      provider.construct!("team", "kubespaces:index:Tenant", { owner: "b", platform: { namespacePrefix: "p-" } }, {}),
    ).rejects.toThrow('namespace "p-team" is already claimed by Tenant "eam"');
  });

  it("reports invalid Tenant inputs from construct with the same message", async () => {
    await expect(
      provider.construct!("team-atlas", "kubespaces:index:Tenant", { owner: "a", resources: { cpu: "lots" } }, {}),
    ).rejects.toThrow("resources.cpu: must be a Kubernetes quantity");
  });

  it("refuses unknown component types", async () => {
    await expect(provider.construct!("x", "kubespaces:index:Nope", {}, {})).rejects.toThrow(
      "unknown component type kubespaces:index:Nope",
    );
  });

  it("checks readiness inputs, naming the property", async () => {
    expect(await provider.check!(readinessUrn, {}, readinessInputs)).toEqual({ inputs: readinessInputs });
    const { failures } = await provider.check!(readinessUrn, {}, { ...readinessInputs, namespace: "" });
    expect(failures?.map((f) => f.property)).toEqual(["namespace"]);
  });

  it("checks access check inputs, naming the property", async () => {
    const urn =
      "urn:pulumi:test::proj::kubespaces:index:Tenant$kubespaces:index:TenantAccessCheck::team-atlas-access-check";
    const inputs = { tenantName: "team-atlas", namespace: "ns", roleBinding: "kubespaces-namespace-access" };
    expect(await provider.check!(urn, {}, inputs)).toEqual({ inputs });
    const { failures } = await provider.check!(urn, {}, { ...inputs, roleBinding: "" });
    expect(failures?.map((f) => f.property)).toEqual(["roleBinding"]);
  });

  it("diffs readiness: a new release revision waits again, another namespace replaces", async () => {
    expect(
      await provider.diff!("id", readinessUrn, readinessInputs, { ...readinessInputs, releaseRevision: "2" }),
    ).toEqual({ changes: true, replaces: [] });
    expect(
      await provider.diff!("id", readinessUrn, readinessInputs, { ...readinessInputs, namespace: "other" }),
    ).toEqual({
      changes: true,
      replaces: ["namespace"],
    });
    expect(await provider.diff!("id", readinessUrn, readinessInputs, readinessInputs)).toEqual({
      changes: false,
      replaces: [],
    });
  });

  it("accepts secret-wrapped inputs, as the engine sends them, and passes the plain values on", async () => {
    const wrapped = { [specialSigKey]: specialSecretSig, value: "apiVersion: v1\nkind: Config\n" };
    const inputs = { ...readinessInputs, hostKubeconfig: wrapped };
    expect(await provider.check!(readinessUrn, {}, inputs)).toEqual({ inputs });
    expect(
      await provider.diff!("id", readinessUrn, { ...inputs, hostKubeconfig: "apiVersion: v1\nkind: Config\n" }, inputs),
    ).toEqual({
      changes: false,
      replaces: [],
    });
  });

  it("never quotes a malformed host kubeconfig in its error", async () => {
    const secretText = "apiVersion: v1\nusers:\n- name: a\n  user: {token: s3cr3t-token\n";
    const cleanupUrn = readinessUrn.replace(
      /TenantReadiness::team-atlas-readiness$/,
      "TenantCleanup::team-atlas-cleanup",
    );
    const props = {
      tenantName: "team-atlas",
      namespace: "ns",
      releaseName: "team-atlas",
      hostKubeconfig: { [specialSigKey]: specialSecretSig, value: secretText },
    };
    const error = await provider.delete!("id", cleanupUrn, props).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("the host kubeconfig is not valid YAML (line 5)");
    expect(error?.message).not.toContain("s3cr3t");
  });
});
