/**
 * OwnedTenants with its audit log: every create, delete, rollback, sleep, wake and kubeconfig handed out is
 * recorded, whichever front asked (the API, the portal), with the person, the tenant and how it
 * ended. Reads are not recorded.
 */
import type { OwnerCapsBody } from "../../contracts/tenantsApi";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { Actor, StackUpdate } from "../../tenants/ports";
import type { ChangePlan } from "../../tenants/tenantPlan";
import { audit, type AuditSink } from "./auditLog";
import type { TenantsForPeople } from "./tenantsForPeople";
import type { QuotaUsage, TenantChange, TenantView } from "../../tenantResource/tenantReplies";

/** `tenants`, each change and kubeconfig recorded into `sink`. */
export class AuditedTenants implements TenantsForPeople {
  constructor(
    private readonly tenants: TenantsForPeople,
    private readonly sink: AuditSink,
  ) {}

  list(actor: Actor, options?: { readonly all?: boolean }): Promise<TenantView[]> {
    return this.tenants.list(actor, options);
  }

  get(name: string, actor: Actor): Promise<TenantView> {
    return this.tenants.get(name, actor);
  }

  create(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<TenantView> {
    return this.recorded(actor, "tenant.create", name, () => this.tenants.create(name, request, actor));
  }

  // Previews change nothing, like reads: they are not recorded.
  previewCreate(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<ChangePlan> {
    return this.tenants.previewCreate(name, request, actor);
  }

  previewDelete(name: string, actor: Actor): Promise<ChangePlan> {
    return this.tenants.previewDelete(name, actor);
  }

  delete(name: string, actor: Actor): Promise<TenantView> {
    return this.recorded(actor, "tenant.delete", name, () => this.tenants.delete(name, actor));
  }

  kubeconfig(name: string, actor: Actor): Promise<string> {
    return this.recorded(actor, "tenant.kubeconfig", name, () => this.tenants.kubeconfig(name, actor));
  }

  history(name: string, actor: Actor): Promise<StackUpdate[]> {
    return this.tenants.history(name, actor);
  }

  rollback(name: string, version: number, actor: Actor): Promise<TenantView> {
    return this.recorded(actor, "tenant.rollback", name, () => this.tenants.rollback(name, version, actor));
  }

  setSleep(name: string, asleep: boolean, actor: Actor): Promise<TenantView> {
    const action = asleep ? "tenant.sleep" : "tenant.wake";
    return this.recorded(actor, action, name, () => this.tenants.setSleep(name, asleep, actor));
  }

  snapshot(name: string, actor: Actor): Promise<TenantView> {
    return this.recorded(actor, "tenant.snapshot", name, () => this.tenants.snapshot(name, actor));
  }

  restore(name: string, snapshot: string, actor: Actor): Promise<TenantView> {
    return this.recorded(actor, "tenant.restore", name, () => this.tenants.restore(name, snapshot, actor));
  }

  quota(name: string, actor: Actor): Promise<QuotaUsage | undefined> {
    return this.tenants.quota(name, actor);
  }

  capsOf(actor: Actor): Promise<OwnerCapsBody> {
    return this.tenants.capsOf(actor);
  }

  follow(
    name: string,
    actor: Actor,
    options: { readonly after?: string; readonly signal: AbortSignal },
  ): AsyncIterable<TenantChange> {
    return this.tenants.follow(name, actor, options);
  }

  /** Runs `operation`, recording how it ended. */
  private async recorded<T>(actor: Actor, action: string, tenant: string, operation: () => Promise<T>): Promise<T> {
    try {
      const result = await operation();
      audit(this.sink, { actor: actor.owner, action, tenant, outcome: "ok" });
      return result;
    } catch (error) {
      const kind = (error as { kind?: unknown }).kind;
      audit(this.sink, { actor: actor.owner, action, tenant, outcome: typeof kind === "string" ? kind : "error" });
      throw error;
    }
  }
}
