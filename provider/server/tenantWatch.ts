/**
 * The watch on Tenant resources that feeds the work queue: every add, change and delete asks for
 * a reconcile of that tenant. A broken watch starts again after a pause (client-node's informer
 * stops on an error), and it lists everything again when it does, so no change is lost.
 */
import { CustomObjectsApi, makeInformer, type KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_VERSION } from "../contracts/tenantResourceNames";

/** How the watch reports. */
export interface TenantWatchOptions {
  /** A tenant to reconcile. */
  readonly onTenant: (name: string) => void;
  /** A broken watch, before it starts again. */
  readonly onError: (error: unknown) => void;
  /** The pause before a broken watch starts again. @default 5000 */
  readonly restartDelayMs?: number;
}

/** Watches Tenants until `signal` aborts. */
export function watchTenants(config: KubeConfig, options: TenantWatchOptions, signal: AbortSignal): void {
  const custom = config.makeApiClient(CustomObjectsApi);
  const informer = makeInformer<KubernetesObject>(
    config,
    `/apis/${TENANT_GROUP}/${TENANT_VERSION}/${TENANT_PLURAL}`,
    () => custom.listClusterCustomObject({ group: TENANT_GROUP, version: TENANT_VERSION, plural: TENANT_PLURAL }),
  );
  const onObject = (object: KubernetesObject) => {
    if (object.metadata?.name) options.onTenant(object.metadata.name);
  };
  informer.on("add", onObject);
  informer.on("update", onObject);
  informer.on("delete", onObject);
  let restart: NodeJS.Timeout | undefined;
  const start = (): void => {
    if (signal.aborted) return;
    informer.start().catch((error) => {
      options.onError(error);
      startLater();
    });
  };
  const startLater = (): void => {
    clearTimeout(restart);
    if (!signal.aborted) restart = setTimeout(start, options.restartDelayMs ?? 5000);
  };
  informer.on("error", (error) => {
    options.onError(error);
    startLater();
  });
  signal.addEventListener("abort", () => {
    clearTimeout(restart);
    void informer.stop();
  });
  start();
}
