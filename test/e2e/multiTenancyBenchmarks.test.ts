/**
 * The Kubernetes multi-tenancy benchmarks (MTB: kubernetes-sigs/multi-tenancy,
 * benchmarks/kubectl-mtb), their 19 level-1 and level-2 checks, against two tenants on the test bed:
 * one under the platform's default policy and one that asks for Pod Security `restricted`. Written
 * from the checks' published audits, as the requests `kubectl auth can-i` and
 * `kubectl create --dry-run=server` send, made as the tenant's identity on the host: its vCluster's
 * ServiceAccount, which creates whatever the tenant's virtual cluster syncs into the host namespace
 * (the tenant's own kubeconfig is refused by the host). The checks MTB states as self-service
 * ("tenants should be able to") are also asked inside the tenant's virtual cluster, where docs/policy.md
 * says a team does them.
 *
 * It prints a table of the checks per policy, and asserts each one's verdict: the ones the fence
 * keeps pass, and the kept design choices behave as docs/policy.md says.
 */
import { CoreV1Api, NetworkingV1Api, type V1Service } from "@kubernetes/client-node";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, hostClients } from "./support/hostCluster";
import {
  MULTI_TENANCY_CHECKS as CHECKS,
  probePod,
  runCheck,
  type Outcome,
  type TenantUnderTest,
} from "./support/multiTenancyChecks";
import { forwardedKubeconfig, tenantNamespace } from "./support/tenantAssertions";
import { tenantHostIdentity } from "./support/tenantIdentity";
import { removeStack, tenantsStack, type TenantDecl } from "./support/tenantsStack";

const POLICIES = {
  "default policy": { name: "mtb-default", persistence: false },
  restricted: { name: "mtb-restricted", persistence: false, isolation: { podSecurity: "restricted" } },
} as const satisfies Record<string, TenantDecl>;
type Policy = keyof typeof POLICIES;

const { core, config: admin } = hostClients();

let stack: Stack;
const tenants = {} as Record<Policy, TenantUnderTest>;
const results = {} as Record<Policy, Record<string, Outcome>>;

beforeAll(async () => {
  stack = await tenantsStack("mtb", Object.values(POLICIES));
  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  const kubeconfigs: Record<string, string> = (await stack.outputs()).kubeconfigs.value;
  const [first, second] = Object.values(POLICIES).map((t) => t.name);
  for (const [policy, { name }] of Object.entries(POLICIES) as [Policy, TenantDecl][]) {
    const namespace = tenantNamespace(name);
    tenants[policy] = {
      name,
      namespace,
      otherNamespace: tenantNamespace(name === first ? second : first),
      host: await tenantHostIdentity(namespace, name),
      inside: forwardedKubeconfig(kubeconfigs[name], name),
    };
  }
  for (const policy of Object.keys(POLICIES) as Policy[]) {
    results[policy] = {};
    for (const check of CHECKS) results[policy][check.id] = await runCheck(check, tenants[policy]);
  }
  printTable();
});

afterAll(() => removeStack(stack));

function printTable(): void {
  const cell = (o: Outcome) =>
    `${o.verdict}${o.documented !== undefined ? ` (documented: ${o.documented ? "holds" : "BROKEN"})` : ""}`;
  const policies = Object.keys(POLICIES) as Policy[];
  const lines = [
    `| MTB check | title | ${policies.join(" | ")} |`,
    `| --- | --- | ${policies.map(() => "---").join(" | ")} |`,
    ...CHECKS.map((c) => `| ${c.id} | ${c.title} | ${policies.map((p) => cell(results[p][c.id])).join(" | ")} |`),
    "",
    ...CHECKS.filter((c) => c.expected !== "pass").map(
      (c) => `${c.id} fails by design: ${(c.expected as { fail: string }).fail}`,
    ),
    "",
    ...CHECKS.flatMap((c) => policies.map((p) => `${c.id} [${p}]: ${results[p][c.id].detail}`)),
  ];
  console.log(`The multi-tenancy benchmarks on the test bed:\n${lines.join("\n")}`);
}

describe("the multi-tenancy benchmarks, as a tenant's identity on the host", () => {
  it("may create what the checks probe with: a pod that passes restricted and a Service (MTB's preconditions)", async () => {
    for (const tenant of Object.values(tenants)) {
      const api = tenant.host.makeApiClient(CoreV1Api);
      await api.createNamespacedPod({ namespace: tenant.namespace, body: probePod(), dryRun: "All" });
      const service: V1Service = {
        metadata: { name: "mtb-probe" },
        spec: { selector: { app: "mtb" }, ports: [{ port: 80 }] },
      };
      await api.createNamespacedService({ namespace: tenant.namespace, body: service, dryRun: "All" });
    }
  });

  it("runs under the default policy at Pod Security restricted", async () => {
    const ns = await core.readNamespace({ name: tenants["default policy"].namespace });
    expect(ns.metadata?.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
  });

  describe.each(Object.keys(POLICIES) as Policy[])("under the %s", (policy) => {
    it.each(CHECKS.filter((c) => c.expected === "pass"))("$id $title: passes", ({ id }) => {
      expect(results[policy][id], results[policy][id].detail).toMatchObject({ verdict: "pass" });
    });

    it.each(CHECKS.filter((c) => c.expected !== "pass"))(
      "$id $title: fails as MTB states it, by design, and behaves as docs/policy.md says",
      ({ id }) => {
        expect(results[policy][id], results[policy][id].detail).toMatchObject({ verdict: "fail", documented: true });
      },
    );
  });
});

describe("the fence behind the checks, with the real vCluster", () => {
  it("refuses a NodePort Service made inside the virtual cluster with the host quota's message, and none reaches the host", async () => {
    const tenant = tenants["default policy"];
    const inside = tenant.inside.makeApiClient(CoreV1Api);
    const body: V1Service = {
      metadata: { name: "exposed" },
      spec: { type: "NodePort", selector: { app: "web" }, ports: [{ port: 80 }] },
    };
    // vCluster creates the host's Service as the team creates its own, so the host's refusal is the answer.
    const refused = await inside.createNamespacedService({ namespace: "default", body }).then(
      () => undefined,
      (error: { code?: number; body?: unknown }) => error,
    );
    expect(refused?.code).toBe(403);
    expect(String(refused?.body)).toMatch(/exceeded quota: kubespaces-quota, requested: services\.nodeports=1/);
    const onHost = await core.listNamespacedService({ namespace: tenant.namespace });
    expect(onHost.items.filter((s) => s.spec?.type === "NodePort")).toEqual([]);
    const virtual = await inside.listNamespacedService({ namespace: "default" });
    expect(virtual.items.map((s) => s.metadata?.name)).not.toContain("exposed");
  });

  it("lets no synced pod carry the control plane's labels, which its NetworkPolicy to the host API server selects", async () => {
    const tenant = tenants["default policy"];
    const selector = (
      await admin
        .makeApiClient(NetworkingV1Api)
        .readNamespacedNetworkPolicy({ name: "kubespaces-control-plane", namespace: tenant.namespace })
    ).spec?.podSelector?.matchLabels;
    expect(selector).toEqual({ app: "vcluster", release: tenant.name });
    await tenant.inside.makeApiClient(CoreV1Api).createNamespacedPod({
      namespace: "default",
      body: { ...probePod(), metadata: { name: "impostor", labels: { ...selector } } },
    });
    let labels: Record<string, string> = {};
    await eventually(
      async () => {
        const pods = await core.listNamespacedPod({ namespace: tenant.namespace });
        const synced = pods.items.find((p) => p.metadata?.name === `impostor-x-default-x-${tenant.name}`);
        labels = synced?.metadata?.labels ?? {};
        return synced !== undefined;
      },
      120_000,
      "the pod synced to the host",
    );
    expect(labels.app).toBe("vcluster");
    expect(labels.release).toBeUndefined();
    const controlPlane = await core.listNamespacedPod({
      namespace: tenant.namespace,
      labelSelector: `app=vcluster,release=${tenant.name}`,
    });
    expect(controlPlane.items.map((p) => p.metadata?.name)).toEqual([
      expect.stringMatching(new RegExp(`^${tenant.name}-`)),
    ]);
  });
});
