/**
 * What the drift watch counts as drift (driftWatch.ts's DriftTracker), from the events an informer
 * gives: the first sight of an object is no drift; a change of what the stack set of it (labels,
 * spec, a RoleBinding's role and subjects), or its removal, is drift of the tenant its label names;
 * a status is never. And what it hands the cost metrics of a tenant's quota.
 */
import { describe, expect, it } from "vitest";
import { DriftTracker, DRIFT_SELECTOR, tenantQuotaOf } from "../../provider/server/kube/driftWatch";

const LABELS = { "kubespaces.io/tenant": "atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" };
const quota = (
  hard: Record<string, string>,
  used: Record<string, string> = {},
  labels: Record<string, string> = LABELS,
) => ({
  metadata: { name: "kubespaces-quota", namespace: "kubespaces-tenant-atlas", labels },
  spec: { hard },
  status: { hard, used },
});

function tracker() {
  const drifts: string[] = [];
  return { drifts, tracker: new DriftTracker((tenant, kind, object) => drifts.push(`${tenant} ${kind} ${object}`)) };
}

describe("the drift watch", () => {
  it("selects the objects a tenant's stack makes, by both of their labels", () => {
    expect(DRIFT_SELECTOR).toBe("kubespaces.io/tenant,app.kubernetes.io/managed-by=kubespaces-pulumi");
  });

  it("sees no drift in an object listed or made, nor in a change of its status alone", () => {
    const { drifts, tracker: t } = tracker();
    t.added("ResourceQuota", quota({ cpu: "4" }));
    t.changed("ResourceQuota", quota({ cpu: "4" }, { cpu: "1" }));
    t.changed("ResourceQuota", quota({ cpu: "4" }, { cpu: "3" }));
    expect(drifts).toEqual([]);
  });

  it.each([
    ["its spec", quota({ cpu: "64" })],
    ["its labels", quota({ cpu: "4" }, {}, { ...LABELS, "kubespaces.io/extra": "x" })],
  ])("sees drift in a change of %s, for the tenant its label names", (_what, changed) => {
    const { drifts, tracker: t } = tracker();
    t.added("ResourceQuota", quota({ cpu: "4" }));
    t.changed("ResourceQuota", changed);
    expect(drifts).toEqual(["atlas ResourceQuota kubespaces-tenant-atlas/kubespaces-quota"]);
  });

  it("sees drift in a removal, and in a RoleBinding's changed subjects", () => {
    const { drifts, tracker: t } = tracker();
    const binding = (subject: string) => ({
      metadata: { name: "kubespaces-namespace-access", namespace: "kubespaces-tenant-atlas", labels: LABELS },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "kubespaces-server-tenant" },
      subjects: [{ kind: "ServiceAccount", name: subject, namespace: "kubespaces-system" }],
    });
    t.added("RoleBinding", binding("kubespaces-server"));
    t.changed("RoleBinding", binding("someone-else"));
    t.added("Namespace", { metadata: { name: "kubespaces-tenant-atlas", labels: LABELS } });
    t.removed("Namespace", { metadata: { name: "kubespaces-tenant-atlas", labels: LABELS } });
    expect(drifts).toEqual([
      "atlas RoleBinding kubespaces-tenant-atlas/kubespaces-namespace-access",
      "atlas Namespace kubespaces-tenant-atlas",
    ]);
  });

  it("keeps each kind's objects apart: a Namespace and a RoleBinding of one name are two objects", () => {
    const { drifts, tracker: t } = tracker();
    t.added("Namespace", { metadata: { name: "x", labels: LABELS } });
    t.changed("LimitRange", { metadata: { name: "x", labels: LABELS }, spec: { limits: [] } });
    expect(drifts).toEqual([]);
  });

  it("hands on a tenant's own quota only, its status's ceilings first, the spec's before there is a status", () => {
    expect(tenantQuotaOf(quota({ cpu: "4" }, { cpu: "1" }))).toEqual({
      tenant: "atlas",
      quota: { hard: { cpu: "4" }, used: { cpu: "1" } },
    });
    expect(tenantQuotaOf({ ...quota({ cpu: "4" }), status: undefined })).toEqual({
      tenant: "atlas",
      quota: { hard: { cpu: "4" }, used: {} },
    });
    const named = (name: string) => ({ ...quota({ cpu: "4" }), metadata: { ...quota({}).metadata, name } });
    expect(tenantQuotaOf(named("another-quota"))).toBeUndefined();
    expect(
      tenantQuotaOf(quota({ cpu: "4" }, {}, { "app.kubernetes.io/managed-by": "kubespaces-pulumi" })),
    ).toBeUndefined();
  });
});
