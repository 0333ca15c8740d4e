/**
 * The Tenant resources on the host's API server, through @kubernetes/client-node: the reconciler's
 * TenantResources port. Finalizers change by JSON patch guarded with a `test` of the list read, so
 * a concurrent change is never overwritten; status goes through the status subresource.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Secret } from "@kubernetes/client-node";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type {
  KubeconfigWrite,
  SecretKeyRef,
  TenantResource,
  TenantResourceStatus,
  TenantResources,
} from "../tenantResourcePort";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_VERSION } from "../../contracts/tenantResourceNames";
import { TENANT_LABEL } from "../../model/names";
import { statusCodeOf } from "../../util/kubeClientErrors";
import { changeFinalizers } from "./finalizerPatch";
import { requireObjectName } from "../nameChecks";

/** The label that marks what the server made for a tenant (its kubeconfig Secret) as the server's own. */
export const MANAGED_BY = { label: "app.kubernetes.io/managed-by", value: "kubespaces-server" } as const;

const TENANTS = { group: TENANT_GROUP, version: TENANT_VERSION, plural: TENANT_PLURAL } as const;

/** Tenant resources through the API server that `config` reaches. */
export class KubeTenantResources implements TenantResources {
  private readonly custom: CustomObjectsApi;
  private readonly core: CoreV1Api;

  constructor(config: KubeConfig) {
    this.custom = config.makeApiClient(CustomObjectsApi);
    this.core = config.makeApiClient(CoreV1Api);
  }

  async get(name: string): Promise<TenantResource | undefined> {
    requireObjectName(name, "metadata.name");
    try {
      return (await this.custom.getClusterCustomObject({ ...TENANTS, name })) as TenantResource;
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  async list(): Promise<TenantResource[]> {
    const list = (await this.custom.listClusterCustomObject({ ...TENANTS })) as { items: TenantResource[] };
    return list.items;
  }

  async create(name: string, spec: TenantRequestInput): Promise<TenantResource | undefined> {
    requireObjectName(name, "metadata.name");
    const body = { apiVersion: `${TENANT_GROUP}/${TENANT_VERSION}`, kind: "Tenant", metadata: { name }, spec };
    try {
      return (await this.custom.createClusterCustomObject({ ...TENANTS, body })) as TenantResource;
    } catch (error) {
      if (statusCodeOf(error) === 409) return undefined;
      throw error;
    }
  }

  async replaceSpec(
    name: string,
    spec: TenantRequestInput,
    resourceVersion: string,
  ): Promise<TenantResource | undefined> {
    requireObjectName(name, "metadata.name");
    const body = [
      { op: "test", path: "/metadata/resourceVersion", value: resourceVersion },
      { op: "replace", path: "/spec", value: spec },
    ];
    try {
      return (await this.custom.patchClusterCustomObject({ ...TENANTS, name, body })) as TenantResource;
    } catch (error) {
      // 422: the test failed (another writer changed it since); 404: it is gone.
      if ([404, 409, 422].includes(statusCodeOf(error) ?? 0)) return undefined;
      throw error;
    }
  }

  async annotate(
    name: string,
    annotations: Readonly<Record<string, string>>,
    resourceVersion: string,
  ): Promise<TenantResource | undefined> {
    requireObjectName(name, "metadata.name");
    const current = (await this.get(name))?.metadata.annotations ?? {};
    const body = [
      { op: "test", path: "/metadata/resourceVersion", value: resourceVersion },
      { op: "add", path: "/metadata/annotations", value: { ...current, ...annotations } },
    ];
    try {
      return (await this.custom.patchClusterCustomObject({ ...TENANTS, name, body })) as TenantResource;
    } catch (error) {
      // 422: the test failed (another writer changed it since); 404: it is gone.
      if ([404, 409, 422].includes(statusCodeOf(error) ?? 0)) return undefined;
      throw error;
    }
  }

  async delete(name: string): Promise<void> {
    requireObjectName(name, "metadata.name");
    try {
      await this.custom.deleteClusterCustomObject({ ...TENANTS, name });
    } catch (error) {
      if (statusCodeOf(error) !== 404) throw error;
    }
  }

  async addFinalizer(name: string, finalizer: string): Promise<void> {
    await this.changeFinalizers(name, (list) => (list.includes(finalizer) ? undefined : [...list, finalizer]));
  }

  async removeFinalizer(name: string, finalizer: string): Promise<void> {
    await this.changeFinalizers(name, (list) =>
      list.includes(finalizer) ? list.filter((f) => f !== finalizer) : undefined,
    );
  }

  async writeStatus(name: string, status: TenantResourceStatus): Promise<void> {
    requireObjectName(name, "metadata.name");
    // `add` replaces the whole status, so nothing of an earlier write lingers.
    await this.custom.patchClusterCustomObjectStatus({
      ...TENANTS,
      name,
      body: [{ op: "add", path: "/status", value: status }],
    });
  }

  async writeKubeconfig(tenant: string, ref: SecretKeyRef, kubeconfig: string): Promise<KubeconfigWrite> {
    requireObjectName(tenant, "tenant");
    requireSecretRef(ref);
    const body: V1Secret = {
      metadata: {
        name: ref.name,
        namespace: ref.namespace,
        labels: { [TENANT_LABEL]: tenant, [MANAGED_BY.label]: MANAGED_BY.value },
      },
      type: "Opaque",
      stringData: { [ref.key]: kubeconfig },
    };
    const existing = await this.core
      .readNamespacedSecret({ name: ref.name, namespace: ref.namespace })
      .catch((error) => (statusCodeOf(error) === 404 ? undefined : Promise.reject(error)));
    if (!existing) {
      await this.core.createNamespacedSecret({ namespace: ref.namespace, body });
      return "created";
    }
    const labels = existing.metadata?.labels ?? {};
    if (labels[MANAGED_BY.label] !== MANAGED_BY.value || labels[TENANT_LABEL] !== tenant) {
      throw new Error(
        `Secret ${ref.namespace}/${ref.name} exists and was not made by kubespaces server for tenant ${tenant}; it is left alone`,
      );
    }
    const held = existing.data?.[ref.key];
    if (held !== undefined && Buffer.from(held, "base64").toString("utf8") === kubeconfig) return "unchanged";
    body.metadata!.resourceVersion = existing.metadata?.resourceVersion;
    await this.core.replaceNamespacedSecret({ name: ref.name, namespace: ref.namespace, body });
    return "changed";
  }

  /** Applies `change` to the Tenant's finalizers as read (finalizerPatch.ts). */
  private async changeFinalizers(
    name: string,
    change: (list: readonly string[]) => readonly string[] | undefined,
  ): Promise<void> {
    requireObjectName(name, "metadata.name");
    await changeFinalizers(
      {
        get: () => this.get(name),
        patch: (body) => this.custom.patchClusterCustomObject({ ...TENANTS, name, body }),
      },
      change,
    );
  }
}

/** Refuses a Secret reference whose name or namespace no object can have, before it goes into a path. */
export function requireSecretRef(ref: SecretKeyRef): void {
  requireObjectName(ref.namespace, "kubeconfigSecretRef.namespace");
  requireObjectName(ref.name, "kubeconfigSecretRef.name");
}
