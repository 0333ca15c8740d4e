/**
 * A stand-in for the host's API server as OwnedTenants reads it (PeopleHost): Tenant
 * resources in memory with the API server's bookkeeping (a resourceVersion bumped at each write,
 * generation 1 at create, 409 on a taken name, deletion held by a finalizer), Secrets, quotas and
 * a watch that reports each change after a given version, as a real watch does.
 */
import { EventEmitter, on } from "node:events";
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import type { PeopleHost, TenantWatchEvent } from "../../../provider/server/people/ownedTenants";
import type { QuotaUsage } from "../../../provider/tenantResource/tenantReplies";
import type { SecretKeyRef, TenantResource, TenantResourceStatus } from "../../../provider/server/tenantResourcePort";

/** The stand-in host. */
export class StandInPeopleHost implements PeopleHost {
  private version = 100;
  private readonly objects = new Map<string, TenantResource>();
  private readonly changes = new EventEmitter();
  /** Secret texts by `namespace/name/key`. */
  readonly secrets = new Map<string, string>();
  /** Quotas by namespace. */
  readonly quotas = new Map<string, QuotaUsage>();
  /** The names deleted through `tenants.delete`, in order. */
  readonly deleted: string[] = [];
  /** Every name the door asked about (get, delete, watch), in order. */
  readonly asked: string[] = [];

  readonly tenants = {
    get: async (name: string) => {
      this.asked.push(name);
      return this.objects.get(name);
    },
    list: async () => [...this.objects.values()],
    create: async (name: string, spec: TenantRequestInput) => {
      if (this.objects.has(name)) return undefined;
      return this.write("ADDED", {
        metadata: { name, generation: 1, creationTimestamp: new Date(0).toISOString() },
        spec,
      });
    },
    replaceSpec: async (name: string, spec: TenantRequestInput, resourceVersion: string) => {
      const object = this.objects.get(name);
      if (!object || object.metadata.resourceVersion !== resourceVersion) return undefined;
      return this.write("MODIFIED", {
        ...object,
        metadata: { ...object.metadata, generation: object.metadata.generation + 1 },
        spec,
      });
    },
    annotate: async (name: string, annotations: Readonly<Record<string, string>>, resourceVersion: string) => {
      const object = this.objects.get(name);
      if (!object || object.metadata.resourceVersion !== resourceVersion) return undefined;
      const merged = { ...object.metadata.annotations, ...annotations };
      return this.write("MODIFIED", { ...object, metadata: { ...object.metadata, annotations: merged } });
    },
    delete: async (name: string) => {
      this.asked.push(name);
      const object = this.objects.get(name);
      if (!object) return;
      this.deleted.push(name);
      // The server's finalizer holds it: it stays, marked, until the reconciler lets it go.
      this.write("MODIFIED", {
        ...object,
        metadata: { ...object.metadata, deletionTimestamp: new Date(0).toISOString() },
      });
    },
  };

  /** The reconciler's part: writes `status` into Tenant `name`. */
  writeStatus(name: string, status: TenantResourceStatus): void {
    const object = this.objects.get(name);
    if (!object) throw new Error(`stand-in host: no Tenant ${name}`);
    this.write("MODIFIED", { ...object, status });
  }

  /** An admin's edit of Tenant `name`'s spec (`kubectl edit`): an owner given away, say. */
  editSpec(name: string, spec: TenantRequestInput): void {
    const object = this.objects.get(name);
    if (!object) throw new Error(`stand-in host: no Tenant ${name}`);
    this.write("MODIFIED", {
      ...object,
      metadata: { ...object.metadata, generation: object.metadata.generation + 1 },
      spec,
    });
  }

  /** The finalizer released: Tenant `name` is gone. */
  remove(name: string): void {
    const object = this.objects.get(name);
    if (!object) return;
    this.objects.delete(name);
    this.changes.emit("change", { type: "DELETED", object: this.stamped(object) });
  }

  /** How many watches follow a tenant now. */
  watchers(): number {
    return this.changes.listenerCount("change");
  }

  async readSecret(ref: SecretKeyRef): Promise<string | undefined> {
    return this.secrets.get(`${ref.namespace}/${ref.name}/${ref.key}`);
  }

  async readQuota(namespace: string): Promise<QuotaUsage | undefined> {
    return this.quotas.get(namespace);
  }

  async *watchTenant(name: string, after: string, signal: AbortSignal): AsyncGenerator<TenantWatchEvent> {
    this.asked.push(name);
    const changes = on(this.changes, "change", { signal });
    try {
      for await (const [event] of changes) {
        const change = event as TenantWatchEvent;
        if (change.object.metadata.name === name && Number(change.object.metadata.resourceVersion) > Number(after))
          yield change;
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }

  private write(type: TenantWatchEvent["type"], object: TenantResource): TenantResource {
    const stamped = this.stamped(object);
    this.objects.set(object.metadata.name, stamped);
    this.changes.emit("change", { type, object: stamped });
    return stamped;
  }

  private stamped(object: TenantResource): TenantResource {
    return { ...object, metadata: { ...object.metadata, resourceVersion: String(++this.version) } };
  }
}
