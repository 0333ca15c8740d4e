/**
 * The registered graph of a Tenant under Pulumi mocks: types, names, parents, providers, inputs
 * and the secrecy of outputs.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { Tenant, TenantValidationError, type TenantArgs } from "../../provider/index";
import { childEdges } from "../../provider/graph/childEdges";
import { childRoles } from "../../provider/render/renderTenant";
import { TENANT_OUTPUT_NAMES } from "../../provider/model/tenantOutputsSchema";
import {
  programEach,
  isSecret,
  outcomeOf,
  registeredEdges,
  registeredUrnOf,
  registeredUrns,
  settle,
  typesAndNames,
  valueOf,
} from "./support/pulumiMocks";
import { thrownBy } from "./support/thrown";
import { unhandledRejectionsOf } from "./support/unhandledRejections";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";

// Each test is a program of its own, started once the previous one has finished registering.
const registered = programEach();
const exposure = { baseDomain: "kubespaces.example.com", issuerRef: { name: "letsencrypt" }, verifyCrds: false };

const byName = (name: string) => registered().find((r) => r.name === name);
/** The URN of team-atlas's child `role`. */
const urnOf = (role: string) => registeredUrnOf(`team-atlas-${role}`);

describe("Tenant graph", () => {
  it("registers every child with its type, parented to the Tenant", async () => {
    new Tenant("team-atlas", { owner: "alice@example.com", platform: { exposure } });
    await settle();
    expect(typesAndNames(registered())).toEqual(
      [
        "kubespaces:index:Tenant team-atlas",
        "kubernetes:core/v1:Namespace team-atlas-namespace",
        "kubernetes:core/v1:ResourceQuota team-atlas-quota",
        "kubernetes:core/v1:LimitRange team-atlas-limit-range",
        "kubernetes:networking.k8s.io/v1:NetworkPolicy team-atlas-network-policy",
        "kubernetes:networking.k8s.io/v1:NetworkPolicy team-atlas-control-plane-network-policy",
        "kubernetes:gateway.networking.k8s.io/v1:ReferenceGrant team-atlas-api-reference-grant",
        "kubernetes:gateway.networking.k8s.io/v1:TLSRoute team-atlas-api-route",
        "kubernetes:gateway.networking.k8s.io/v1:ListenerSet team-atlas-apps-listener-set",
        "kubernetes:cert-manager.io/v1:Certificate team-atlas-apps-certificate",
        "kubernetes:helm.sh/v3:Release team-atlas-vcluster",
        "pulumi-nodejs:dynamic/kubespaces:TenantCleanup team-atlas-cleanup",
        "pulumi-nodejs:dynamic/kubespaces:TenantReadiness team-atlas-readiness",
        "pulumi-nodejs:dynamic/kubespaces:TenantHostCheck team-atlas-host-check",
      ].sort(),
    );
    const children = registeredUrns().filter((urn) => !urn.endsWith("::team-atlas"));
    expect(children).toHaveLength(childRoles({ tlsRouteVersion: "v1", networkPolicy: true }).length);
    for (const urn of children) expect(urn).toContain("::kubespaces:index:Tenant$");
  });

  it("registers no Gateway objects and no NetworkPolicy when neither is asked for", async () => {
    new Tenant("team-atlas", { owner: "a", platform: { networkPolicy: false } });
    await settle();
    const types = registered().map((r) => r.type);
    expect(
      types.filter((t) => t.includes("gateway") || t.includes("cert-manager") || t.includes("NetworkPolicy")),
    ).toEqual([]);
    expect(types).toHaveLength(1 + childRoles({ networkPolicy: false }).length);
  });

  it("registers every edge of the edge table, and a deletedWith only where the table has one", async () => {
    new Tenant("team-atlas", { owner: "a", platform: { exposure } });
    await settle();
    const table = childEdges(childRoles({ tlsRouteVersion: "v1", networkPolicy: true }));
    for (const [role, edges] of Object.entries(table)) {
      const seen = registeredEdges.get(`team-atlas-${role}`);
      expect(seen?.parent, role).toBe(registeredUrnOf("team-atlas"));
      for (const target of edges.dependsOn) expect(seen?.dependencies, `${role} -> ${target}`).toContain(urnOf(target));
      expect(seen?.deletedWith, role).toBe(edges.deletedWith ? urnOf(edges.deletedWith) : "");
    }
  });

  it("with an access binding, registers the access check after it, and everything in the namespace after the check", async () => {
    const subject = { kind: "User" as const, name: "kubespaces" };
    new Tenant("team-atlas", { owner: "a", platform: { namespaceAccess: { clusterRole: "edit", subject } } });
    await settle();
    expect(byName("team-atlas-access-check")).toMatchObject({
      type: "pulumi-nodejs:dynamic/kubespaces:TenantAccessCheck",
      inputs: {
        tenantName: "team-atlas",
        namespace: "kubespaces-tenant-team-atlas",
        roleBinding: "kubespaces-namespace-access",
      },
    });
    expect(registeredEdges.get("team-atlas-access-check")?.dependencies).toContain(urnOf("namespace-access"));
    for (const role of ["quota", "limit-range", "network-policy", "control-plane-network-policy", "cleanup"])
      expect(registeredEdges.get(`team-atlas-${role}`)?.dependencies, role).toContain(urnOf("access-check"));
  });

  it("replaces the Gateway objects, whose names stay the same, by deleting the old one first", async () => {
    new Tenant("team-atlas", { owner: "a", platform: { exposure } });
    await settle();
    const replacedFirst = [...registeredEdges].filter(([, edges]) => edges.deleteBeforeReplace).map(([name]) => name);
    expect(replacedFirst.sort()).toEqual([
      "team-atlas-api-reference-grant",
      "team-atlas-api-route",
      "team-atlas-apps-certificate",
      "team-atlas-apps-listener-set",
    ]);
  });

  it("passes the rendered objects as inputs", async () => {
    new Tenant("team-atlas", { owner: "alice@example.com", resources: { cpu: "3" } });
    await settle();
    // The owner id is the host check's (the mocks'), not rendered: its flow has a test of its own.
    expect(byName("team-atlas-namespace")?.inputs.metadata.annotations).toEqual({
      "kubespaces.io/owner": "alice@example.com",
      "kubespaces.io/owner-id": expect.any(String),
    });
    expect(byName("team-atlas-quota")?.inputs.spec.hard["limits.cpu"]).toBe("3");
    const release = byName("team-atlas-vcluster")?.inputs;
    expect(release).toMatchObject({
      name: "team-atlas",
      namespace: "kubespaces-tenant-team-atlas",
      chart: "vcluster",
      version: VCLUSTER_CHART_VERSION,
      repositoryOpts: { repo: "https://charts.loft.sh" },
      atomic: true,
      cleanupOnFail: true,
      maxHistory: 3,
    });
    expect(byName("team-atlas-readiness")?.inputs).toMatchObject({
      tenantName: "team-atlas",
      namespace: "kubespaces-tenant-team-atlas",
      releaseName: "team-atlas",
      serverUrl: "https://team-atlas.kubespaces-tenant-team-atlas.svc:443",
      timeoutSeconds: 600,
    });
  });

  it("hands the host identity the check recorded to the readiness wait and the cleanup", async () => {
    new Tenant("team-atlas", { owner: "a" });
    await settle();
    expect(byName("team-atlas-host-check")?.inputs).toMatchObject({
      tenantName: "team-atlas",
      namespace: "kubespaces-tenant-team-atlas",
    });
    expect(byName("team-atlas-readiness")?.inputs.hostUid).toBe("uid-of-kube-system");
    expect(byName("team-atlas-cleanup")?.inputs.hostUid).toBe("uid-of-kube-system");
  });

  it("hands the release's revision to the readiness wait, so that a new release waits again", async () => {
    new Tenant("team-atlas", { owner: "a" });
    await settle();
    expect(byName("team-atlas-readiness")?.inputs.releaseRevision).toBe("1");
  });

  it.each([
    ["plain", "a"],
    ["Outputs", pulumi.output("a")],
  ])("writes the owner id the host check recorded on the namespace (inputs %s)", async (_, owner) => {
    new Tenant("team-atlas", { owner });
    await settle();
    expect(byName("team-atlas-namespace")?.inputs.metadata.annotations["kubespaces.io/owner-id"]).toBe(
      "owner-id-of-this-stack",
    );
  });

  it("takes a local chart path without repository or version", async () => {
    new Tenant("team-atlas", { owner: "a", platform: { chart: { localPath: "./charts/vcluster" } } });
    await settle();
    expect(byName("team-atlas-vcluster")?.inputs).toMatchObject({ chart: "./charts/vcluster" });
    expect(byName("team-atlas-vcluster")?.inputs.repositoryOpts).toEqual({});
  });

  it("exposes outputs, with the kubeconfig secret", async () => {
    const tenant = new Tenant("team-atlas", { owner: "a", platform: { exposure } });
    expect(await valueOf(tenant.namespace)).toBe("kubespaces-tenant-team-atlas");
    expect(await valueOf(tenant.apiServerUrl)).toBe("https://team-atlas.api.kubespaces.example.com:443");
    expect(await valueOf(tenant.appsDomain)).toBe("team-atlas.apps.kubespaces.example.com");
    expect(await valueOf(tenant.kubeconfigSecretRef)).toEqual({
      namespace: "kubespaces-tenant-team-atlas",
      name: "vc-team-atlas",
      key: "config",
    });
    expect(await isSecret(tenant.kubeconfig)).toBe(true);
    const status = await valueOf(tenant.status);
    expect(status?.phase).toBe("Ready");
    expect(status?.conditions).toEqual([
      expect.objectContaining({ type: "Ready", status: "True", reason: "Provisioned" }),
    ]);
  });

  it.each([
    ["plain", "apiVersion: v1\nkind: Config\n"],
    ["a secret Output", pulumi.secret("apiVersion: v1\nkind: Config\n")],
  ])("keeps the host kubeconfig secret and the rendered objects not (kubeconfig %s)", async (_, hostKubeconfig) => {
    const tenant = new Tenant("team-atlas", { owner: "a", platform: { hostKubeconfig } });
    await settle();
    expect(await isSecret(tenant.namespace)).toBe(false);
    expect(byName("team-atlas-host")?.type).toBe("pulumi:providers:kubernetes");
    expect(byName("team-atlas-namespace")?.provider).toContain("team-atlas-host");
  });

  it("creates no provider of its own when one is given", async () => {
    const host = new k8s.Provider("host", { kubeconfig: "x" });
    new Tenant("team-atlas", { owner: "a", platform: { hostKubeconfig: "apiVersion: v1\n" } }, { providers: [host] });
    await settle();
    expect(byName("team-atlas-host")).toBeUndefined();
    expect(byName("team-atlas-namespace")?.provider).toContain("::host::");
  });

  it("refuses a Kubernetes provider without the kubeconfig of its cluster, registering nothing", async () => {
    const host = new k8s.Provider("host", { kubeconfig: "x" });
    await settle();
    const before = registered().length;
    expect(() => new Tenant("team-atlas", { owner: "a" }, { providers: [host] })).toThrow(
      "platform.hostKubeconfig: is required when the Tenant is given a Kubernetes provider",
    );
    await settle();
    expect(registered()).toHaveLength(before);
  });

  it("accepts Outputs as inputs and validates them once they resolve", async () => {
    const tenant = new Tenant("team-atlas", { owner: pulumi.output("alice"), resources: { cpu: pulumi.output("3") } });
    await settle();
    expect(await valueOf(tenant.namespace)).toBe("kubespaces-tenant-team-atlas");
    expect(byName("team-atlas-quota")?.inputs.spec.hard["requests.cpu"]).toBe("3");
  });

  it("checks the inputs known already at once, before anything is registered, and leaves the Outputs for later", async () => {
    const error = thrownBy(
      () =>
        new Tenant("team-atlas", {
          owner: pulumi.output(""),
          resources: { cpu: "lots", memory: pulumi.output("1Gi") },
        }),
    );
    expect(error).toBeInstanceOf(TenantValidationError);
    expect((error as TenantValidationError).problems.map((p) => p.path)).toEqual(["resources.cpu"]);
    await settle();
    expect(registered()).toEqual([]);
  });

  it("refuses structural inputs given as Outputs (the types forbid it; JavaScript and other languages may not)", () => {
    expect(
      () => new Tenant("team-atlas", { owner: "a", platform: { networkPolicy: pulumi.output(true) as never } }),
    ).toThrow("platform.networkPolicy: decides which resources the tenant has");
    expect(
      () => new Tenant("team-atlas", { owner: "a", platform: { namespaceAccess: pulumi.output({}) as never } }),
    ).toThrow("platform.namespaceAccess: decides which resources the tenant has");
  });
});

describe("a Tenant whose invalid input arrives as an Output", () => {
  // With a host kubeconfig, the Tenant would also create its own provider: a child like the others.
  const args = {
    owner: pulumi.output("   "),
    resources: { cpu: "3" },
    platform: { hostKubeconfig: "apiVersion: v1\nkind: Config\n" },
  };

  it("fails as one error of the Tenant's, naming the field, with every output settled and no child registered", async () => {
    let tenant: Tenant | undefined;
    let outcomes: PromiseSettledResult<unknown>[] = [];
    const unhandled = await unhandledRejectionsOf(async () => {
      tenant = new Tenant("team-atlas", args);
      outcomes = await Promise.all(TENANT_OUTPUT_NAMES.map((key) => outcomeOf(tenant![key] as pulumi.Output<unknown>)));
      await settle();
    });
    const errors = new Set(outcomes.map((outcome) => (outcome.status === "rejected" ? outcome.reason : "resolved")));
    expect(errors.size).toBe(1);
    const [error] = errors as Set<pulumi.ResourceError>;
    expect(pulumi.ResourceError.isInstance(error)).toBe(true);
    expect(error.resource).toBe(tenant);
    expect(error.message).toBe(
      `kubespaces:index:Tenant "team-atlas" has an invalid input; nothing was created:\n  - owner: must not be blank: it holds only whitespace (got "   ")`,
    );
    // Pulumi fails a program through what it leaves unhandled, and reports each error object once:
    // the one error is all there is, not a cascade of others from each child's inputs.
    expect(unhandled.length).toBeGreaterThan(0);
    expect(new Set(unhandled)).toEqual(new Set([error]));
    expect(registered().map((r) => r.name)).toEqual(["team-atlas"]);
  });

  /** The one error `new Tenant(name, inputs)` fails with once its Outputs resolve, after every registration has settled. */
  async function failureOf(inputs: TenantArgs): Promise<Error> {
    let outcome: PromiseSettledResult<unknown> | undefined;
    await unhandledRejectionsOf(async () => {
      outcome = await outcomeOf(new Tenant("team-atlas", inputs).namespace);
      await settle();
    });
    if (outcome?.status !== "rejected") throw new Error("expected the Tenant to fail");
    return outcome.reason as Error;
  }

  it("shows no text of an Output marked secret, though a rule would quote it", async () => {
    const error = await failureOf({
      ...args,
      owner: "alice@example.com",
      resources: { cpu: pulumi.secret("hunter2-cores") },
    });
    expect(error.message).toContain(
      'resources.cpu: must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi (got "[secret]")',
    );
    expect(error.message).not.toContain("hunter2");
  });

  it("checks a host kubeconfig given as an Output, without quoting it", async () => {
    const error = await failureOf({ owner: "alice@example.com", platform: { hostKubeconfig: pulumi.output(" \n ") } });
    expect(error.message).toContain("platform.hostKubeconfig: must not be blank: it holds only whitespace");
    expect(error.message).not.toContain("(got");
    expect(registered().map((r) => r.name)).toEqual(["team-atlas"]);
  });

  it("registers every child along the edge table once the Outputs resolve to valid inputs", async () => {
    new Tenant("team-atlas", { ...args, owner: pulumi.output("alice@example.com") });
    await settle();
    const table = childEdges(childRoles({ networkPolicy: true }));
    expect(
      registered()
        .map((r) => r.name)
        .sort(),
    ).toEqual(["team-atlas", "team-atlas-host", ...Object.keys(table).map((role) => `team-atlas-${role}`)].sort());
    for (const [role, edges] of Object.entries(table)) {
      for (const target of edges.dependsOn)
        expect(registeredEdges.get(`team-atlas-${role}`)?.dependencies, `${role} -> ${target}`).toContain(
          urnOf(target),
        );
    }
  });
});
