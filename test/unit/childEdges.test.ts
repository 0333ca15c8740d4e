/**
 * The edge table against the ordering rules docs/reference.md states: each rule is a check over the
 * table, and removing any edge of the table breaks at least one rule.
 */
import { describe, expect, it } from "vitest";
import { childEdges, creationOrder, type EdgeTable } from "../../provider/graph/childEdges";
import type { ChildRole } from "../../provider/contracts/childRoles";
import { childRoles } from "../../provider/render/renderTenant";

const FULL = childRoles({ tlsRouteVersion: "v1", networkPolicy: true, namespaceAccess: true });
/** The children that live or act in the tenant namespace, after its access binding is in force. */
const NEED_ACCESS: readonly ChildRole[] = [
  "quota",
  "limit-range",
  "network-policy",
  "control-plane-network-policy",
  "api-reference-grant",
  "cleanup",
  "vcluster",
  "readiness",
];

/** A rule of creation and deletion order: `after` is created after `before` and deleted before it. */
type OrderRule = readonly [before: ChildRole, after: ChildRole, why: string];

const ORDER_RULES: readonly OrderRule[] = [
  ["host-check", "namespace", "the host check refuses a namespace that is not the tenant's before it is created"],
  ...FULL.filter((role) => !["host-check", "namespace"].includes(role)).map((role): OrderRule => [
    "namespace",
    role,
    "the namespace comes before every object in it, and goes last",
  ]),
  ...FULL.filter((role) => role !== "readiness").map((role): OrderRule => [
    role,
    "readiness",
    "readiness is deleted first, so that its host check stops a destroy on another cluster",
  ]),
  ...NEED_ACCESS.map((role): OrderRule => [
    "namespace-access",
    role,
    "whoever runs the stack may hold its rights in the namespace through the binding alone (kubespaces server does)",
  ]),
  ...NEED_ACCESS.map((role): OrderRule => [
    "access-check",
    role,
    "the API server may refuse under a binding just made, until its cache has it: the check waits for that",
  ]),
  ["namespace-access", "access-check", "the check waits for the binding's effect, so the binding comes first"],
  ["quota", "vcluster", "the release's pods schedule under the quota"],
  ["limit-range", "vcluster", "the release's pods get the LimitRange defaults"],
  ["network-policy", "vcluster", "the release starts fenced"],
  ["control-plane-network-policy", "vcluster", "the control plane reaches the host API server once it is fenced"],
  ["vcluster", "readiness", "readiness waits for the release"],
  ["api-reference-grant", "api-route", "the TLSRoute comes after the ReferenceGrant that admits it"],
  ["apps-certificate", "apps-listener-set", "the listener comes after the certificate it serves"],
  ["cleanup", "vcluster", "cleanup is deleted after the release, removing the PVCs and PriorityClasses it leaves"],
  ["cleanup", "apps-certificate", "cleanup is deleted after the certificate, removing the Secret cert-manager leaves"],
];

/** Objects inside the tenant namespace go with it (the release is uninstalled by Helm instead). */
const DELETED_WITH_NAMESPACE: readonly ChildRole[] = [
  "namespace-access",
  "quota",
  "limit-range",
  "network-policy",
  "control-plane-network-policy",
  "api-reference-grant",
];

function dependsTransitively(table: EdgeTable, from: ChildRole, on: ChildRole, seen = new Set<ChildRole>()): boolean {
  for (const next of table[from]?.dependsOn ?? []) {
    if (next === on) return true;
    if (!seen.has(next)) {
      seen.add(next);
      if (dependsTransitively(table, next, on, seen)) return true;
    }
  }
  return false;
}

/** Every rule the table breaks, as text. */
function ruleViolations(table: EdgeTable): string[] {
  const present = (role: ChildRole) => table[role] !== undefined;
  const order = ORDER_RULES.filter(
    ([before, after]) => present(before) && present(after) && !dependsTransitively(table, after, before),
  ).map(([before, after, why]) => `${after} must depend on ${before}: ${why}`);
  const deleted = (Object.keys(table) as ChildRole[])
    .filter((role) => (table[role]?.deletedWith === "namespace") !== DELETED_WITH_NAMESPACE.includes(role))
    .map((role) => `${role}: deletedWith namespace exactly for the objects inside it`);
  const parents = (Object.keys(table) as ChildRole[])
    .filter((role) => table[role]?.parent !== "tenant")
    .map((role) => `${role}: parent must be the Tenant`);
  return [...order, ...deleted, ...parents];
}

/** The table with one edge removed. */
function without(table: EdgeTable, role: ChildRole, edge: { dependsOn: ChildRole } | { deletedWith: true }): EdgeTable {
  const row = table[role]!;
  const changed =
    "dependsOn" in edge
      ? { ...row, dependsOn: row.dependsOn.filter((r) => r !== edge.dependsOn) }
      : { parent: row.parent, dependsOn: row.dependsOn };
  return { ...table, [role]: changed };
}

describe("the edge table", () => {
  it.each([
    ["exposed, with a NetworkPolicy and an access binding", FULL],
    ["exposed, without an access binding", childRoles({ tlsRouteVersion: "v1", networkPolicy: true })],
    ["not exposed", childRoles({ networkPolicy: true })],
    ["without a NetworkPolicy", childRoles({ tlsRouteVersion: "v1alpha2", networkPolicy: false })],
  ])("keeps every ordering rule (%s)", (_case, roles) => {
    expect(ruleViolations(childEdges(roles))).toEqual([]);
  });

  it("registers each child after every child it depends on or is deleted with", () => {
    const table = childEdges(FULL);
    const order = creationOrder(table);
    expect([...order].sort()).toEqual([...FULL].sort());
    order.forEach((role, index) => {
      for (const target of [
        ...table[role]!.dependsOn,
        ...(table[role]!.deletedWith ? [table[role]!.deletedWith!] : []),
      ]) {
        expect(order.indexOf(target), `${role} -> ${target}`).toBeLessThan(index);
      }
    });
  });

  it("puts what the access binding would come before after the namespace when there is no binding", () => {
    const table = childEdges(childRoles({ tlsRouteVersion: "v1", networkPolicy: true }));
    expect(table.quota?.dependsOn).toEqual(["namespace"]);
    expect(table.cleanup?.dependsOn).toEqual(["namespace"]);
    expect(Object.keys(table)).not.toContain("namespace-access");
  });

  it("refuses a table with a cycle", () => {
    const cyclic = { ...childEdges(FULL), namespace: { parent: "tenant" as const, dependsOn: ["readiness" as const] } };
    expect(() => creationOrder(cyclic)).toThrow("cycle");
  });

  it("drops the edges to children a tenant does not have", () => {
    const table = childEdges(childRoles({ networkPolicy: false }));
    expect(table.vcluster?.dependsOn).not.toContain("network-policy");
    expect(Object.keys(table)).not.toContain("api-route");
  });

  const full = childEdges(FULL);
  const edges = FULL.flatMap((role) => [
    ...full[role]!.dependsOn.map((target) => [`${role} dependsOn ${target}`, role, { dependsOn: target }] as const),
    ...(full[role]!.deletedWith
      ? [[`${role} deletedWith ${full[role]!.deletedWith}`, role, { deletedWith: true as const }] as const]
      : []),
  ]);

  it.each(edges)("breaks a rule when the edge %s is removed", (_edge, role, edge) => {
    expect(ruleViolations(without(full, role, edge))).not.toEqual([]);
  });
});
