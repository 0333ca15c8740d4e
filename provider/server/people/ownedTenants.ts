/**
 * The tenants as signed-in people see and change them, over the Tenant resources on the host: the
 * API's and the portal's one core. It creates and deletes Tenant resources on a person's behalf
 * (the owner is always the caller's identity), and the reconciler does the rest. What a person may
 * not see is "not found", never "forbidden", so nobody learns who owns what. A name no tenant can
 * have is refused (RequestInvalidError) before the host is asked anything.
 */
import { countedRequests, ownerUse, refuseOverCaps, type OwnerCaps } from "../../tenants/ownerCaps";
import type { OwnerCapsBody } from "../../contracts/tenantsApi";
import { TENANT_MANIFEST } from "../../contracts/tenantManifest";
import { isHeldPhase, RESTORE_ANNOTATION, SNAPSHOT_ANNOTATION } from "../../contracts/tenantResourceNames";
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { checkRequest, mayUse, ownerOf, refuseNewAsleep } from "../../tenants/requestCheck";
import type { Actor, StackUpdate } from "../../tenants/ports";
import {
  RequestConflictError,
  RequestInvalidError,
  TenantNotFoundError,
  TenantNotReadyError,
} from "../../tenants/tenantsErrors";
import { isProvisionedPhase, type ResourceStep } from "../../tenants/tenantObject";
import { planOf, type ChangePlan } from "../../tenants/tenantPlan";
import { tenantStatus } from "../../tenants/tenantStatus";
import { requireTenantName } from "../nameChecks";
import type { SecretKeyRef, TenantResource, TenantResourceStatus, TenantResources } from "../tenantResourcePort";
import type { TenantsForPeople } from "./tenantsForPeople";
import { isSnapshotName } from "../snapshots/snapshotAsks";
import type { QuotaUsage, TenantChange, TenantView } from "../../tenantResource/tenantReplies";

/** One change the host's watch of a Tenant reports. */
export interface TenantWatchEvent {
  /** What happened to it. */
  readonly type: "ADDED" | "MODIFIED" | "DELETED";
  /** The Tenant as it stands after the change. */
  readonly object: TenantResource;
}

/** What OwnedTenants reads and writes on the host, besides the Tenants themselves. */
export interface PeopleHost {
  /** The Tenant resources. */
  readonly tenants: Pick<TenantResources, "get" | "list" | "create" | "replaceSpec" | "annotate" | "delete">;
  /** The text under `ref`'s key of the Secret it names, if it exists. */
  readSecret(ref: SecretKeyRef): Promise<string | undefined>;
  /** The tenant's ResourceQuota in `namespace`, if it exists. */
  readQuota(namespace: string): Promise<QuotaUsage | undefined>;
  /** Tenant `name`'s changes after resourceVersion `after`, until `signal` aborts or the watch ends. */
  watchTenant(name: string, after: string, signal: AbortSignal): AsyncIterable<TenantWatchEvent>;
}

/**
 * Where previews run: the tenants service's stacks, as the server, bounded in time; a preview never
 * stores, creates or changes anything (a new tenant is previewed on a scratch stack).
 */
export interface StackPreviews {
  /** The steps creating tenant `name` with the checked `request` would take, or, with none, deleting it. */
  preview(name: string, request: TenantRequestInput | undefined): Promise<readonly ResourceStep[]>;
}

/** Where a tenant's history is read: the tenants service's stacks, as the server. */
export interface StackHistories {
  /** Tenant `name`'s updates, newest first. */
  history(name: string): Promise<StackUpdate[]>;
}

/** The tenants as signed-in people may see and change them, over the host. */
export class OwnedTenants implements TenantsForPeople {
  constructor(
    private readonly host: PeopleHost,
    private readonly policy: TenantPlatformInput,
    private readonly previews: StackPreviews,
    private readonly histories: StackHistories,
    private readonly caps?: OwnerCaps,
  ) {}

  async list(actor: Actor, options: { readonly all?: boolean } = {}): Promise<TenantView[]> {
    const all = options.all && actor.isAdmin;
    return (await this.host.tenants.list())
      .filter((t) => (all ? true : ownerOf(t.spec) === actor.owner))
      .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      .map(tenantViewOf);
  }

  async get(name: string, actor: Actor): Promise<TenantView> {
    return tenantViewOf(await this.visible(name, actor));
  }

  async create(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<TenantView> {
    const checked = this.checkedNew(name, request, actor);
    refuseNewAsleep(name, checked);
    await this.refuseOverCaps(name, checked, true);
    const created = await this.host.tenants.create(name, checked);
    if (!created) throw nameTaken(name);
    return tenantViewOf(created);
  }

  async previewCreate(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): Promise<ChangePlan> {
    const checked = this.checkedNew(name, request, actor);
    // What a create would answer: a taken name is taken, whoever holds it; a cap refuses as it would.
    if (await this.host.tenants.get(name)) throw nameTaken(name);
    refuseNewAsleep(name, checked);
    await this.refuseOverCaps(name, checked, true);
    return planOf(await this.previews.preview(name, checked));
  }

  async previewDelete(name: string, actor: Actor): Promise<ChangePlan> {
    await this.visible(name, actor);
    return planOf(await this.previews.preview(name, undefined));
  }

  async delete(name: string, actor: Actor): Promise<TenantView> {
    const tenant = await this.visible(name, actor);
    await this.host.tenants.delete(name);
    const now = await this.host.tenants.get(name);
    return tenantViewOf(now ?? tenant);
  }

  async kubeconfig(name: string, actor: Actor): Promise<string> {
    const tenant = await this.visible(name, actor);
    // The kubeconfig is cluster-admin inside the tenant: its owner's alone, not even an admin's.
    if (ownerOf(tenant.spec) !== actor.owner) throw new TenantNotFoundError(name);
    const ref = tenant.status?.kubeconfigSecretRef;
    const phase = tenant.status?.phase ?? "Pending";
    // A sleeping tenant's kubeconfig is the one it wakes with.
    const text = ref && isProvisionedPhase(phase) ? await this.host.readSecret(ref) : undefined;
    if (!text)
      throw new TenantNotReadyError(
        name,
        isHeldPhase(phase) ? "Pending" : phase,
        "its kubeconfig is handed out once it is Ready",
      );
    return text;
  }

  async history(name: string, actor: Actor): Promise<StackUpdate[]> {
    await this.visible(name, actor);
    return this.histories.history(name);
  }

  async rollback(name: string, version: number, actor: Actor): Promise<TenantView> {
    const tenant = await this.visible(name, actor);
    if (!Number.isInteger(version) || version < 1)
      throw new RequestInvalidError(`tenant ${name}: which update to roll back to is not given`, [
        "version: must be an update's version (a whole number from 1), as the tenant's history lists it",
      ]);
    const update = (await this.histories.history(name)).find((u) => u.version === version);
    if (!update?.request)
      throw new RequestInvalidError(`tenant ${name} has no update ${version} that recorded its request`, [
        `version: must be one of the tenant's updates that recorded a request (kubespaces tenant history ${name})`,
      ]);
    // The owner stays whoever owns the tenant now: a rollback never gives a tenant to someone else.
    const owner = ownerOf(tenant.spec) ?? actor.owner;
    if (ownerOf(update.request) !== owner)
      throw new RequestInvalidError(`tenant ${name}'s update ${version} was another owner's request`, [
        `version: its request's owner is not the tenant's owner (${owner})`,
      ]);
    refusePastExpiry(name, version, update.request, new Date());
    const request = checkRequest(name, update.request, { ...actor, owner, isAdmin: true }, this.policy);
    const replaced = await this.host.tenants.replaceSpec(name, request, tenant.metadata.resourceVersion ?? "");
    if (!replaced)
      throw new RequestConflictError(`tenant ${name} changed while it was rolled back; read it again and retry`);
    return tenantViewOf(replaced);
  }

  async setSleep(name: string, asleep: boolean, actor: Actor): Promise<TenantView> {
    const tenant = await this.visible(name, actor);
    if ((tenant.spec.sleep ?? false) === asleep) return tenantViewOf(tenant);
    // Only `sleep` changes: the reconciler checks the whole request against the policy, as for any
    // change; a wake is refused here at once when it would take the owner above a cap.
    const spec = { ...tenant.spec, sleep: asleep };
    await this.refuseOverCaps(name, spec, false);
    const replaced = await this.host.tenants.replaceSpec(name, spec, tenant.metadata.resourceVersion ?? "");
    if (!replaced)
      throw new RequestConflictError(
        `tenant ${name} changed while it was ${asleep ? "put to sleep" : "woken"}; read it again and retry`,
      );
    return tenantViewOf(replaced);
  }

  async capsOf(actor: Actor): Promise<OwnerCapsBody> {
    const use = ownerUse(actor.owner, await this.storedRequests(), this.policy);
    return { owner: actor.owner, ...(this.caps && { caps: this.caps }), use };
  }

  /** Refuses `request` for tenant `name` (new or not) when it would take its owner above a cap per owner. */
  private async refuseOverCaps(name: string, request: TenantRequestInput, isNew: boolean): Promise<void> {
    if (!this.caps) return;
    refuseOverCaps(name, request, await this.storedRequests(), { caps: this.caps, policy: this.policy, isNew });
  }

  /** The Tenants' requests the caps count. */
  private async storedRequests(): Promise<{ name: string; spec: TenantRequestInput }[]> {
    return countedRequests(await this.host.tenants.list());
  }

  async snapshot(name: string, actor: Actor): Promise<TenantView> {
    const tenant = await this.visible(name, actor);
    // Each ask is new: the time it was made.
    return this.annotated(tenant, { [SNAPSHOT_ANNOTATION]: new Date().toISOString() }, "a snapshot was asked for");
  }

  async restore(name: string, snapshot: string, actor: Actor): Promise<TenantView> {
    const tenant = await this.visible(name, actor);
    if (!isSnapshotName(snapshot))
      throw new RequestInvalidError(`tenant ${name}: "${snapshot}" is not a snapshot's name`, [
        "snapshot: must be a snapshot's name, as the tenant's status.snapshots lists it",
      ]);
    return this.annotated(tenant, { [RESTORE_ANNOTATION]: snapshot }, "a restore was asked for");
  }

  /** Tenant `tenant` with `annotations` set, while it is as read; RequestConflictError when it changed. */
  private async annotated(
    tenant: TenantResource,
    annotations: Record<string, string>,
    what: string,
  ): Promise<TenantView> {
    const { name, resourceVersion } = tenant.metadata;
    const annotated = await this.host.tenants.annotate(name, annotations, resourceVersion ?? "");
    if (!annotated) throw new RequestConflictError(`tenant ${name} changed while ${what}; read it again and retry`);
    return tenantViewOf(annotated);
  }

  async quota(name: string, actor: Actor): Promise<QuotaUsage | undefined> {
    const namespace = (await this.visible(name, actor)).status?.namespace;
    return namespace ? this.host.readQuota(namespace) : undefined;
  }

  async *follow(
    name: string,
    actor: Actor,
    options: { readonly after?: string; readonly signal: AbortSignal },
  ): AsyncGenerator<TenantChange> {
    let current = await this.visible(name, actor);
    let lastId = options.after;
    // State, not a log: a client resuming after an older version gets the state it missed at once.
    for (;;) {
      const version = current.metadata.resourceVersion ?? "0";
      if (version !== lastId) yield { id: (lastId = version), tenant: tenantViewOf(current) };
      for await (const event of this.host.watchTenant(name, version, options.signal)) {
        const id = event.object.metadata.resourceVersion ?? version;
        // Checked at every change, not only when the stream began: a tenant given to someone else
        // is, to its old owner, gone, and nothing of it after that is theirs to see.
        if (event.type === "DELETED" || !mayUse(actor, event.object)) {
          yield { id, deleted: true };
          return;
        }
        yield { id: (lastId = id), tenant: tenantViewOf(event.object) };
      }
      if (options.signal.aborted) return;
      // The watch ended (API servers close watches now and then, or its version was too old): read again.
      const next = await this.host.tenants.get(name);
      if (!next || !mayUse(actor, next)) {
        yield { id: lastId ?? version, deleted: true };
        return;
      }
      current = next;
    }
  }

  /** The request of a new tenant owned by `actor`, checked with the component's rules; the owner is never read from it. */
  private checkedNew(name: string, request: Omit<TenantRequestInput, "owner">, actor: Actor): TenantRequestInput {
    if ((request as { owner?: unknown }).owner !== undefined)
      throw new RequestInvalidError(
        `tenant ${name}: owner is taken from your sign-in (${actor.owner}); leave it out of the request`,
        ["owner: must not be given; the signed-in person owns what they create"],
      );
    // The caller is the owner even for an admin: the API never reads an owner from a body.
    return checkRequest(name, { ...request, owner: actor.owner } as TenantRequestInput, actor, this.policy);
  }

  /** Tenant `name` if `actor` may see it; TenantNotFoundError otherwise, RequestInvalidError for a name no tenant can have. */
  private async visible(name: string, actor: Actor): Promise<TenantResource> {
    requireTenantName(name);
    const tenant = await this.host.tenants.get(name);
    if (!tenant || !mayUse(actor, tenant)) throw new TenantNotFoundError(name);
    return tenant;
  }
}

/** The refusal of a name some Tenant has already. */
const nameTaken = (name: string) => new RequestConflictError(`tenant ${name} exists already; choose another name`);

/** A Tenant resource as the API shows it: Pending before the reconciler wrote a status, and never where its kubeconfig is kept. */
export function tenantViewOf(resource: TenantResource): TenantView {
  const { name, generation, creationTimestamp, resourceVersion, deletionTimestamp } = resource.metadata;
  const { kubeconfigSecretRef: _secretRef, ...status }: TenantResourceStatus =
    resource.status ?? (tenantStatus({ name, generation }, undefined) as TenantResourceStatus);
  return {
    ...TENANT_MANIFEST,
    metadata: {
      name,
      generation,
      ...(creationTimestamp && { creationTimestamp }),
      ...(resourceVersion && { resourceVersion }),
      ...(deletionTimestamp && { deletionTimestamp }),
    },
    spec: resource.spec,
    status,
  };
}

/**
 * Refuses a rollback to a request whose expiry has passed: put back, it would have the tenant
 * deleted with its data at its next reconcile. The person is told to roll back and then set a new
 * expiry, or to change the tenant instead.
 */
function refusePastExpiry(name: string, version: number, request: TenantRequestInput, now: Date): void {
  const { expiresAt } = request;
  if (expiresAt === undefined || Date.parse(expiresAt) > now.getTime()) return;
  throw new RequestInvalidError(`tenant ${name}'s update ${version} set an expiry that has passed`, [
    `expiresAt: update ${version}'s ${expiresAt} has passed; a rollback never brings back an expiry in the past (change the tenant with a new expiresAt instead)`,
  ]);
}
