/**
 * A stand-in for the TenantsForPeople port (the real one is the lead's ownedTenants.ts over Tenant
 * resources): tenants in memory, seen by their owner (and by admins who ask for all), refused with
 * the tenants service's own error classes. A create is checked as OwnedTenants checks it
 * (requestCheck.ts, under the default policy), so pages show real messages. Previews run on the
 * stand-in previews (standInStackPreviews.ts) after the same checks as OwnedTenants'.
 * Every create, delete and preview is recorded for tests to read.
 */
import type { OwnerCapsBody } from "../../../provider/contracts/tenantsApi";
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import type { TenantsForPeople } from "../../../provider/server/people/tenantsForPeople";
import type { QuotaUsage, TenantChange, TenantView } from "../../../provider/tenantResource/tenantReplies";
import type { Actor, StackUpdate } from "../../../provider/tenants/ports";
import { checkRequest } from "../../../provider/tenants/requestCheck";
import { planOf, type ChangePlan } from "../../../provider/tenants/tenantPlan";
import { StandInStackHistories } from "./standInStackHistories";
import { StandInStackPreviews } from "./standInStackPreviews";
import {
  OperationRefusedError,
  RequestConflictError,
  RequestInvalidError,
  TenantNotFoundError,
  TenantNotReadyError,
} from "../../../provider/tenants/tenantsErrors";

/** A tenant as the port shows it, from the few facts a test cares about. */
export function tenantView(
  name: string,
  owner: string,
  status: Partial<TenantView["status"]> = {},
  metadata: Partial<TenantView["metadata"]> = {},
): TenantView {
  return {
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "Tenant",
    metadata: { name, generation: 1, creationTimestamp: "2026-12-01T10:00:00Z", ...metadata },
    spec: { owner },
    status: {
      phase: "Pending",
      message: "requested; not provisioned yet",
      conditions: [{ type: "Ready", status: "Unknown", reason: "Pending", message: "requested; not provisioned yet" }],
      ...status,
    },
  };
}

/** The status the reconciler writes once tenant `name` is Ready (its Ready condition changed at 10:07 UTC). */
export function readyStatus(name: string): TenantView["status"] {
  const message = `virtual cluster of tenant ${name} is ready`;
  return {
    phase: "Ready",
    message,
    apiServerUrl: `https://${name}.example.com:443`,
    namespace: `kubespaces-tenant-${name}`,
    conditions: [
      {
        type: "Ready",
        status: "True",
        reason: "Provisioned",
        message,
        lastTransitionTime: "2026-12-01T10:07:00Z",
        observedGeneration: 1,
      },
    ],
  };
}

export class StandInTenantsForPeople implements TenantsForPeople {
  /** The tenants, by name. */
  readonly tenants = new Map<string, TenantView>();
  /** Kubeconfigs, by tenant name. */
  readonly kubeconfigs = new Map<string, string>();
  /** Host quotas, by tenant name. */
  readonly quotas = new Map<string, QuotaUsage>();
  /** The caps per owner the stand-in answers with; none: no cap. */
  caps: OwnerCapsBody["caps"];
  /** Every create that was stored, in order: the name and the request. */
  readonly created: { readonly name: string; readonly request: TenantRequestInput }[] = [];
  /** Every tenant whose deletion was asked for, in order. */
  readonly deleted: string[] = [];
  /** The previews, and each one run. */
  readonly previews = new StandInStackPreviews();
  /** Each tenant's updates, as a test puts them. */
  readonly histories = new StandInStackHistories();
  /** Every snapshot asked for, in order: the tenant. */
  readonly snapshotsAsked: string[] = [];
  /** Every restore asked for, in order: the tenant and the snapshot. */
  readonly restoresAsked: { readonly name: string; readonly snapshot: string }[] = [];
  /** Every rollback asked for, in order: the tenant and the version. */
  readonly rolledBack: { readonly name: string; readonly version: number }[] = [];

  /** Adds `tenant` as if it had been created. */
  put(tenant: TenantView): this {
    this.tenants.set(tenant.metadata.name, tenant);
    return this;
  }

  async list(actor: Actor, options: { readonly all?: boolean } = {}): Promise<TenantView[]> {
    return [...this.tenants.values()]
      .filter((t) => (options.all && actor.isAdmin) || t.spec.owner === actor.owner)
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  }

  async get(name: string, actor: Actor): Promise<TenantView> {
    return this.visible(name, actor);
  }

  async create(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<TenantView> {
    const owned = checkRequest(name, { ...request, owner: actor.owner } as TenantRequestInput, actor, {});
    if (this.tenants.has(name)) throw new RequestConflictError(`tenant ${name} exists already`);
    this.created.push({ name, request: owned });
    const tenant = tenantView(name, actor.owner);
    this.tenants.set(name, tenant);
    return tenant;
  }

  async previewCreate(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<ChangePlan> {
    const owned = checkRequest(name, { ...request, owner: actor.owner } as TenantRequestInput, actor, {});
    if (this.tenants.has(name)) throw new RequestConflictError(`tenant ${name} exists already`);
    return planOf(await this.previews.preview(name, owned));
  }

  async previewDelete(name: string, actor: Actor): Promise<ChangePlan> {
    this.visible(name, actor);
    return planOf(await this.previews.preview(name, undefined));
  }

  async delete(name: string, actor: Actor): Promise<TenantView> {
    const tenant = this.visible(name, actor);
    this.deleted.push(name);
    const deleting = {
      ...tenant,
      metadata: { ...tenant.metadata, deletionTimestamp: "2026-12-01T11:00:00Z" },
    };
    this.tenants.set(name, deleting);
    return deleting;
  }

  async kubeconfig(name: string, actor: Actor): Promise<string> {
    const tenant = this.visible(name, actor);
    if (tenant.spec.owner !== actor.owner)
      throw new OperationRefusedError(`tenant ${name}'s kubeconfig is for its owner only`);
    if (tenant.status.phase !== "Ready")
      throw new TenantNotReadyError(name, tenant.status.phase as "Pending", tenant.status.message);
    return this.kubeconfigs.get(name) ?? "";
  }

  async history(name: string, actor: Actor): Promise<StackUpdate[]> {
    this.visible(name, actor);
    return this.histories.history(name);
  }

  async rollback(name: string, version: number, actor: Actor): Promise<TenantView> {
    const tenant = this.visible(name, actor);
    const update = (await this.histories.history(name)).find((u) => u.version === version);
    if (!update?.request) throw new RequestInvalidError(`tenant ${name} has no update ${version}`, ["version"]);
    this.rolledBack.push({ name, version });
    const rolled = { ...tenant, spec: update.request };
    this.tenants.set(name, rolled);
    return rolled;
  }

  async setSleep(name: string, asleep: boolean, actor: Actor): Promise<TenantView> {
    const tenant = this.visible(name, actor);
    const changed = { ...tenant, spec: { ...tenant.spec, sleep: asleep } };
    this.tenants.set(name, changed);
    return changed;
  }

  async snapshot(name: string, actor: Actor): Promise<TenantView> {
    const tenant = this.visible(name, actor);
    this.snapshotsAsked.push(name);
    return tenant;
  }

  async restore(name: string, snapshot: string, actor: Actor): Promise<TenantView> {
    const tenant = this.visible(name, actor);
    this.restoresAsked.push({ name, snapshot });
    return tenant;
  }

  async quota(name: string, actor: Actor): Promise<QuotaUsage | undefined> {
    this.visible(name, actor);
    return this.quotas.get(name);
  }

  /** What `actor` holds across the stand-in's tenants (each counted with no quota), against `caps`. */
  async capsOf(actor: Actor): Promise<OwnerCapsBody> {
    const owned = [...this.tenants.values()].filter((t) => t.spec.owner === actor.owner);
    const awake = owned.filter((t) => t.spec.sleep !== true).length;
    const use = { tenants: owned.length, awake, cpu: 0, memory: 0, storage: 0 };
    return { owner: actor.owner, ...(this.caps && { caps: this.caps }), use };
  }

  /** The tenant as it stands, once; the portal's routes never follow (its script reads the API's stream). */
  async *follow(name: string, actor: Actor): AsyncIterable<TenantChange> {
    const tenant = this.visible(name, actor);
    yield { id: "1", tenant };
  }

  private visible(name: string, actor: Actor): TenantView {
    const tenant = this.tenants.get(name);
    if (!tenant || !(actor.isAdmin || tenant.spec.owner === actor.owner)) throw new TenantNotFoundError(name);
    return tenant;
  }
}
