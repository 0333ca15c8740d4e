/**
 * Which Tenant claimed which host namespace in this program, so that two tenants cannot be
 * declared into one namespace (the second would take over the first's quota and release).
 */
const claims = new Map<string, string>();

/** The tenant that claimed `namespace`, if any. */
export function namespaceOwner(namespace: string): string | undefined {
  return claims.get(namespace);
}

/** Records that `tenant` owns `namespace`. */
export function claimNamespace(namespace: string, tenant: string): void {
  claims.set(namespace, tenant);
}

/** Forgets every claim: for test files that declare tenants in separate programs. */
export function forgetNamespaceClaims(): void {
  claims.clear();
}
