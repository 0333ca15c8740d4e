/**
 * A stand-in for the host's API server as the reconciler uses it (the TenantResources port; the
 * real adapter is provider/server/kube/kubeTenantResources.ts). It mimics what the reconciler relies
 * on: `metadata.generation` starts at 1 and grows only when the spec changes; a delete of a Tenant
 * that holds finalizers only sets `deletionTimestamp`, and the Tenant goes once its last finalizer
 * is removed; status writes replace the whole status; a Secret is written only over one the server
 * labelled as its own. It keeps every status written, in order, for tests to read.
 */
import { isDeepStrictEqual } from "node:util";
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import type {
  KubeconfigWrite,
  SecretKeyRef,
  TenantResource,
  TenantResourceStatus,
  TenantResources,
} from "../../../provider/server/tenantResourcePort";

/** A Secret the stand-in holds. */
export interface FakeSecret {
  readonly labels: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, string>>;
}

export class FakeTenantResources implements TenantResources {
  private readonly tenants = new Map<string, TenantResource>();
  /** Secrets by `namespace/name`. */
  readonly secrets = new Map<string, FakeSecret>();
  /** Every status written, by tenant, in order. */
  readonly statusWrites = new Map<string, TenantResourceStatus[]>();

  /** Applies a Tenant as `kubectl apply` would: created, or its spec replaced (generation bumped on a change). */
  apply(name: string, spec: TenantRequestInput, annotations: Record<string, string> = {}): TenantResource {
    const current = this.tenants.get(name);
    const generation = !current
      ? 1
      : isDeepStrictEqual(current.spec, spec)
        ? current.metadata.generation
        : current.metadata.generation + 1;
    const next: TenantResource = {
      ...current,
      metadata: {
        ...current?.metadata,
        name,
        generation,
        creationTimestamp: current?.metadata.creationTimestamp ?? "2026-12-01T00:00:00Z",
        annotations: { ...current?.metadata.annotations, ...annotations },
      },
      spec: structuredClone(spec),
    };
    this.tenants.set(name, next);
    return next;
  }

  /** Tenant `name` as the API server holds it now. */
  peek(name: string): TenantResource | undefined {
    return this.tenants.get(name);
  }

  /** The text under `ref`'s key of the Secret it names, if it exists. */
  secretText(ref: SecretKeyRef): string | undefined {
    return this.secrets.get(`${ref.namespace}/${ref.name}`)?.data[ref.key];
  }

  /** The statuses written for tenant `name`, in order. */
  statusesOf(name: string): TenantResourceStatus[] {
    return this.statusWrites.get(name) ?? [];
  }

  async get(name: string): Promise<TenantResource | undefined> {
    const tenant = this.tenants.get(name);
    return tenant && structuredClone(tenant);
  }

  async list(): Promise<TenantResource[]> {
    return [...this.tenants.values()].map((t) => structuredClone(t));
  }

  async create(name: string, spec: TenantRequestInput): Promise<TenantResource | undefined> {
    if (this.tenants.has(name)) return undefined;
    return this.apply(name, spec);
  }

  async replaceSpec(
    name: string,
    spec: TenantRequestInput,
    resourceVersion: string,
  ): Promise<TenantResource | undefined> {
    const tenant = this.tenants.get(name);
    if (!tenant || (tenant.metadata.resourceVersion ?? "") !== resourceVersion) return undefined;
    return this.apply(name, spec);
  }

  async annotate(
    name: string,
    annotations: Readonly<Record<string, string>>,
    resourceVersion: string,
  ): Promise<TenantResource | undefined> {
    const tenant = this.tenants.get(name);
    if (!tenant || (tenant.metadata.resourceVersion ?? "") !== resourceVersion) return undefined;
    return this.apply(name, tenant.spec, { ...annotations });
  }

  async delete(name: string): Promise<void> {
    const tenant = this.tenants.get(name);
    if (!tenant) return;
    if (!tenant.metadata.finalizers?.length) {
      this.tenants.delete(name);
      return;
    }
    this.tenants.set(name, {
      ...tenant,
      metadata: { ...tenant.metadata, deletionTimestamp: tenant.metadata.deletionTimestamp ?? "2026-12-01T01:00:00Z" },
    });
  }

  async addFinalizer(name: string, finalizer: string): Promise<void> {
    const tenant = this.tenants.get(name);
    if (!tenant || tenant.metadata.finalizers?.includes(finalizer)) return;
    // The API server refuses new finalizers on an object being deleted.
    if (tenant.metadata.deletionTimestamp) throw new Error(`stand-in: Tenant ${name} is being deleted`);
    this.tenants.set(name, {
      ...tenant,
      metadata: { ...tenant.metadata, finalizers: [...(tenant.metadata.finalizers ?? []), finalizer] },
    });
  }

  async removeFinalizer(name: string, finalizer: string): Promise<void> {
    const tenant = this.tenants.get(name);
    if (!tenant) return;
    const finalizers = (tenant.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    if (finalizers.length === 0 && tenant.metadata.deletionTimestamp) {
      this.tenants.delete(name);
      return;
    }
    this.tenants.set(name, { ...tenant, metadata: { ...tenant.metadata, finalizers } });
  }

  async writeStatus(name: string, status: TenantResourceStatus): Promise<void> {
    const tenant = this.tenants.get(name);
    if (!tenant) throw new Error(`stand-in: Tenant ${name} not found (404)`);
    this.tenants.set(name, { ...tenant, status: structuredClone(status) });
    this.statusWrites.set(name, [...this.statusesOf(name), structuredClone(status)]);
  }

  async writeKubeconfig(tenant: string, ref: SecretKeyRef, kubeconfig: string): Promise<KubeconfigWrite> {
    const key = `${ref.namespace}/${ref.name}`;
    const existing = this.secrets.get(key);
    const labels = { "kubespaces.io/tenant": tenant, "app.kubernetes.io/managed-by": "kubespaces-server" };
    if (existing && !isDeepStrictEqual(existing.labels, labels))
      throw new Error(
        `Secret ${key} exists and was not made by kubespaces server for tenant ${tenant}; it is left alone`,
      );
    this.secrets.set(key, { labels, data: { [ref.key]: kubeconfig } });
    if (!existing) return "created";
    return existing.data[ref.key] === kubeconfig ? "unchanged" : "changed";
  }
}
