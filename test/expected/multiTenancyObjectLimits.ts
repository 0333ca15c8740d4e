/**
 * The object kinds the multi-tenancy benchmarks' check MTB-PL1-CC-FNS-2 ("Configure namespace
 * object limits") looks for among the hard limits of the namespace's ResourceQuotas, copied by hand
 * from kubectl-mtb (kubernetes-sigs/multi-tenancy, benchmarks/kubectl-mtb/test/benchmarks/
 * configure_ns_object_quota), never read from the code under test.
 */
export const MTB_OBJECT_KINDS = [
  "pods",
  "services",
  "replicationcontrollers",
  "resourcequotas",
  "secrets",
  "configmaps",
  "persistentvolumeclaims",
  "services.nodeports",
  "services.loadbalancers",
] as const;

/**
 * The kinds of MTB_OBJECT_KINDS that `hard` (the quotas' hard limits, merged) sets no count for.
 * A kind counts as capped by its own key or its `count/<kind>` form, both of which the quota
 * enforces and MTB accepts; nothing else excuses a kind, as MTB excuses none.
 */
export function uncappedObjectKinds(hard: Readonly<Record<string, string>>): string[] {
  return MTB_OBJECT_KINDS.filter((kind) => hard[kind] === undefined && hard[`count/${kind}`] === undefined);
}
