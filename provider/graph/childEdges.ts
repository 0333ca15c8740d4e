/**
 * The one table of edges between a tenant's children: who is each child's parent, what it must
 * wait for (`dependsOn`), and which child's deletion takes it along (`deletedWith`). The engine
 * creates along these edges and deletes against them, so teardown order is read from here too.
 * Every edge is needed: none follows from the others (a unit test removes each one in turn and
 * checks that an ordering rule breaks).
 */
import type { ChildRole } from "../contracts/childRoles";

/** The edges of one child. */
export interface ChildEdges {
  /** The child's parent: always the Tenant component. */
  readonly parent: "tenant";
  /** Children that must exist before this one, and that are deleted only after it. */
  readonly dependsOn: readonly ChildRole[];
  /** A child whose deletion removes this one, so the engine need not delete it itself. */
  readonly deletedWith?: ChildRole;
}

/** The edges of each present child. */
export type EdgeTable = Partial<Record<ChildRole, ChildEdges>>;

type Rule = Omit<ChildEdges, "parent">;

// Why each edge exists:
// - namespace: the host check refuses a namespace that is not this stack's tenant's before it is
//   created (the namespace also carries the owner id the check recorded).
// - namespace-access (the RoleBinding of platform.namespaceAccess): whoever runs the stack may hold
//   its rights in the namespace through it alone (kubespaces server does). It goes only with the
//   namespace: the engine never deletes it while something in the namespace is still to be deleted.
// - access-check: the API server authorizes from a cache that takes the new binding in a moment
//   later, so everything in the namespace waits until the check finds the binding in force; the
//   check is deleted after them and before the binding.
// - quota, LimitRange, NetworkPolicies: live in the namespace, so they need it (and its access)
//   and go with it.
// - ReferenceGrant: lives in the namespace too; the TLSRoute it admits is in the gateway namespace.
// - cleanup: created after the namespace, deleted before it; the release and the certificate
//   depend on it, so its delete (removing what they leave) runs after theirs.
// - vcluster: its pods must schedule under the quota, LimitRange and NetworkPolicies (the control
//   plane's lets it reach the host API server once the namespace's fences it).
// - readiness: waits for the release; it also depends on the other leaves (the Gateway objects), so
//   that a destroy deletes it first and its check of the host stops a destroy on the wrong cluster.
/** What an object in the namespace waits for: the access check, which the namespace stands for when absent. */
const IN_NAMESPACE: readonly ChildRole[] = ["access-check"];
/** The child an edge to an absent child goes to instead; edges to other absent children are dropped. */
const STANDS_FOR: Partial<Record<ChildRole, ChildRole>> = { "access-check": "namespace" };
const RULES: Record<ChildRole, Rule> = {
  "host-check": { dependsOn: [] },
  namespace: { dependsOn: ["host-check"] },
  "namespace-access": { dependsOn: ["namespace"], deletedWith: "namespace" },
  "access-check": { dependsOn: ["namespace-access"] },
  quota: { dependsOn: IN_NAMESPACE, deletedWith: "namespace" },
  "limit-range": { dependsOn: IN_NAMESPACE, deletedWith: "namespace" },
  "network-policy": { dependsOn: IN_NAMESPACE, deletedWith: "namespace" },
  "control-plane-network-policy": { dependsOn: IN_NAMESPACE, deletedWith: "namespace" },
  "api-reference-grant": { dependsOn: IN_NAMESPACE, deletedWith: "namespace" },
  "api-route": { dependsOn: ["api-reference-grant"] },
  cleanup: { dependsOn: IN_NAMESPACE },
  "apps-certificate": { dependsOn: ["cleanup"] },
  "apps-listener-set": { dependsOn: ["apps-certificate"] },
  vcluster: { dependsOn: ["quota", "limit-range", "network-policy", "control-plane-network-policy", "cleanup"] },
  readiness: { dependsOn: ["vcluster", "api-route", "apps-listener-set"] },
};

/**
 * The edge table of a tenant whose children are `roles`: an edge to the absent access check (there
 * is none without an access binding) goes to the namespace, edges to other absent children are
 * dropped.
 */
export function childEdges(roles: readonly ChildRole[]): EdgeTable {
  const present = new Set(roles);
  const table: EdgeTable = {};
  for (const role of roles) {
    const rule = RULES[role];
    const targets = rule.dependsOn.map((target) => (present.has(target) ? target : STANDS_FOR[target]));
    table[role] = {
      parent: "tenant",
      dependsOn: targets.filter((target): target is ChildRole => target !== undefined && present.has(target)),
      ...(rule.deletedWith && present.has(rule.deletedWith) && { deletedWith: rule.deletedWith }),
    };
  }
  return table;
}

/**
 * The order to register the children in: each after every child it depends on or is deleted with,
 * otherwise in the order of `roles`.
 */
export function creationOrder(table: EdgeTable): ChildRole[] {
  const pending = Object.keys(table) as ChildRole[];
  const order: ChildRole[] = [];
  const before = (role: ChildRole) => [
    ...table[role]!.dependsOn,
    ...(table[role]!.deletedWith ? [table[role]!.deletedWith!] : []),
  ];
  while (pending.length > 0) {
    const next = pending.findIndex((role) => before(role).every((target) => order.includes(target)));
    if (next < 0) throw new Error(`kubespaces: the edge table has a cycle among ${pending.join(", ")}`);
    order.push(...pending.splice(next, 1));
  }
  return order;
}
