/**
 * OwnedTenants' view of the host through @kubernetes/client-node, with the server's own
 * credentials: the Tenant resources, a tenant's kubeconfig Secret and ResourceQuota, and a watch
 * of one Tenant. A watch that the API server ends, or refuses because its version is too old,
 * simply ends: ownedTenants.ts reads the tenant again and watches on. Names are checked before they
 * reach a path or a field selector (nameChecks.ts).
 */
import { EventEmitter, on } from "node:events";
import { CoreV1Api, Watch, type KubeConfig } from "@kubernetes/client-node";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_VERSION } from "../../contracts/tenantResourceNames";
import { readTenantQuota } from "../../hosts/tenantQuotaRead";
import { statusCodeOf } from "../../util/kubeClientErrors";
import { KubeTenantResources, requireSecretRef } from "./kubeTenantResources";
import { requireObjectName } from "../nameChecks";
import type { SecretKeyRef, TenantResource } from "../tenantResourcePort";
import type { PeopleHost, TenantWatchEvent } from "../people/ownedTenants";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";

/** How long one watch request lasts before the API server ends it and it is made again. */
const WATCH_SECONDS = 300;

/** The host as `config` reaches it. */
export class KubePeopleHost implements PeopleHost {
  readonly tenants: KubeTenantResources;
  private readonly core: CoreV1Api;

  constructor(private readonly config: KubeConfig) {
    this.tenants = new KubeTenantResources(config);
    this.core = config.makeApiClient(CoreV1Api);
  }

  async readSecret(ref: SecretKeyRef): Promise<string | undefined> {
    requireSecretRef(ref);
    const secret = await this.core
      .readNamespacedSecret({ name: ref.name, namespace: ref.namespace })
      .catch((error) => (statusCodeOf(error) === 404 ? undefined : Promise.reject(error)));
    const data = secret?.data?.[ref.key];
    return data === undefined ? undefined : Buffer.from(data, "base64").toString("utf8");
  }

  async readQuota(namespace: string): Promise<QuotaUsage | undefined> {
    requireObjectName(namespace, "namespace");
    return readTenantQuota(this.core, namespace);
  }

  async *watchTenant(name: string, after: string, signal: AbortSignal): AsyncGenerator<TenantWatchEvent> {
    // Checked before the field selector is written: a comma in a name would add a condition.
    requireObjectName(name, "metadata.name");
    // The watch's callbacks feed an emitter; node's `on` drains it as an iteration until "end".
    const events = new EventEmitter();
    // Listening before the watch starts, so no early change is missed.
    const changes = on(events, "change", { close: ["end"], signal });
    const controller = await new Watch(this.config).watch(
      `/apis/${TENANT_GROUP}/${TENANT_VERSION}/${TENANT_PLURAL}`,
      { fieldSelector: `metadata.name=${name}`, resourceVersion: after, timeoutSeconds: WATCH_SECONDS },
      (type: string, object: TenantResource) => {
        if (type === "ADDED" || type === "MODIFIED" || type === "DELETED") events.emit("change", { type, object });
        // ERROR: the version is too old (410); the caller reads the tenant again.
        else if (type === "ERROR") events.emit("end");
      },
      () => events.emit("end"),
    );
    try {
      for await (const [event] of changes) yield event as TenantWatchEvent;
    } catch (error) {
      if (!signal.aborted) throw error;
    } finally {
      controller.abort();
    }
  }
}
