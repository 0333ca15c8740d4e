/**
 * The operations the server's API and portal run on behalf of a signed-in person (what they show
 * of a tenant is tenantResource/tenantReplies.ts): the port between the HTTP routes (API and portal pages) and the Tenant
 * resources on the host (ownedTenants.ts). Every operation takes the caller as an Actor, and a
 * tenant the caller may not see is "not found".
 */
import type { OwnerCapsBody } from "../../contracts/tenantsApi";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { QuotaUsage, TenantChange, TenantView } from "../../tenantResource/tenantReplies";
import type { Actor, StackUpdate } from "../../tenants/ports";
import type { ChangePlan } from "../../tenants/tenantPlan";

/** The tenants as signed-in people may see and change them. */
export interface TenantsForPeople {
  /** The caller's tenants or, with `all` and an admin, every tenant; by name. */
  list(actor: Actor, options?: { readonly all?: boolean }): Promise<TenantView[]>;
  /** Tenant `name`; TenantNotFoundError when it does not exist or the caller may not see it. */
  get(name: string, actor: Actor): Promise<TenantView>;
  /**
   * Creates Tenant `name` owned by the caller, checked first with the component's rules and
   * messages (RequestInvalidError); RequestConflictError when the name is taken.
   */
  create(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<TenantView>;
  /**
   * What creating Tenant `name` owned by the caller would change, checked first as `create` checks
   * it; RequestConflictError when the name is taken. Nothing is stored or changed.
   */
  previewCreate(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<ChangePlan>;
  /** What deleting Tenant `name` would remove; nothing is changed. */
  previewDelete(name: string, actor: Actor): Promise<ChangePlan>;
  /** Asks for Tenant `name`'s teardown; the reconciler removes it once everything is gone. */
  delete(name: string, actor: Actor): Promise<TenantView>;
  /** The tenant's kubeconfig, for its owner only; TenantNotReadyError before it is Ready. */
  kubeconfig(name: string, actor: Actor): Promise<string>;
  /**
   * The tenant's updates, newest first: when, the result, what changed, and what each recorded
   * (the request's generation, the platform revision, who ran it, the request).
   */
  history(name: string, actor: Actor): Promise<StackUpdate[]>;
  /**
   * Puts the request that update `version` ran back as the tenant's request, for its owner or an
   * admin: a new generation, which the reconciler previews and, where the platform requires it,
   * holds for approval as any change. RequestInvalidError when that update recorded no request or
   * its request breaks today's policy; RequestConflictError when the tenant changed meanwhile.
   */
  rollback(name: string, version: number, actor: Actor): Promise<TenantView>;
  /**
   * Puts the tenant to sleep (`asleep`) or wakes it, for its owner or an admin: its request's
   * `sleep` changes and nothing else, a new generation that the reconciler brings up like any
   * change. The tenant as it was when it already is so; RequestConflictError when it changed meanwhile.
   */
  setSleep(name: string, asleep: boolean, actor: Actor): Promise<TenantView>;
  /**
   * Asks for a snapshot of the tenant, for its owner or an admin: the reconciler has vCluster take
   * it and lists it in the status (`status.snapshots`), or records an Event why not.
   */
  snapshot(name: string, actor: Actor): Promise<TenantView>;
  /**
   * Asks for the tenant to be restored from `snapshot`, for its owner or an admin: only a snapshot
   * of the tenant's owner is ever found (another owner's is "not found", whatever its name).
   */
  restore(name: string, snapshot: string, actor: Actor): Promise<TenantView>;
  /** The tenant's host quota, once its namespace exists. */
  quota(name: string, actor: Actor): Promise<QuotaUsage | undefined>;
  /** What `actor` holds across their tenants, and the caps per owner on it. */
  capsOf(actor: Actor): Promise<OwnerCapsBody>;
  /**
   * The tenant now, then each change, until it is deleted, the caller may no longer see it (it was
   * given to someone else: to them it is deleted), or `signal` aborts. With `after` (an event id a
   * client saw last), changes after it only.
   */
  follow(
    name: string,
    actor: Actor,
    options: { readonly after?: string; readonly signal: AbortSignal },
  ): AsyncIterable<TenantChange>;
}
