/** An RBAC rule with the reason it is granted, which the generated YAML prints above it. */

/** A PolicyRule of rbac.authorization.k8s.io/v1. */
export interface PolicyRule {
  /** API groups; "" is the core group. */
  readonly apiGroups: readonly string[];
  /** Resources, and subresources as `<resource>/<subresource>`. */
  readonly resources: readonly string[];
  /** Verbs. */
  readonly verbs: readonly string[];
  /** The only objects the rule covers, by name; all of them when absent. */
  readonly resourceNames?: readonly string[];
}

/** A rule and which part of the package needs it. */
export interface DocumentedRule {
  /** Which part of the package needs the rule, and why. */
  readonly why: string;
  /** The rule. */
  readonly rule: PolicyRule;
}

/** Everything done to objects a Pulumi resource or a Helm release owns: create, read, watch, change, delete. */
export const MANAGE = ["get", "list", "watch", "create", "update", "patch", "delete"] as const;

/** A documented rule, on the objects named `resourceNames` only when given. */
export const granted = (
  why: string,
  apiGroups: readonly string[],
  resources: readonly string[],
  verbs: readonly string[],
  resourceNames?: readonly string[],
): DocumentedRule => ({ why, rule: { apiGroups, resources, verbs, ...(resourceNames && { resourceNames }) } });
