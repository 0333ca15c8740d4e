/**
 * The watch on Tenant resources that feeds the work queue: every new Tenant, and every change a
 * reconcile acts on, asks for a reconcile of that tenant; a deleted one is reported gone (its
 * finalizer already let it go). It is kept running by informerRun.ts.
 */
import { CustomObjectsApi, makeInformer, type KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  PREVIEW_ONLY_ANNOTATION,
  RESTORE_ANNOTATION,
  SNAPSHOT_ANNOTATION,
  TENANT_GROUP,
  TENANT_PLURAL,
  TENANT_VERSION,
} from "../../contracts/tenantResourceNames";
import { runInformer, type InformerRunOptions } from "./informerRun";

/** How the watch reports: a tenant to reconcile, and a tenant gone, besides how its run goes (informerRun.ts). */
export interface TenantWatchOptions extends InformerRunOptions {
  /** A tenant to reconcile, and whether it has a status yet. */
  readonly onTenant: (name: string, hasStatus: boolean) => void;
  /** A tenant whose Tenant resource is gone. */
  readonly onGone?: (name: string) => void;
  /** Each add and change of a Tenant: the platform revision its status says it runs (none: none). */
  readonly onRunning?: (name: string, platformRevision: string | undefined) => void;
  /** Each add and change of a Tenant: the phase its status says (none: no status yet). */
  readonly onPhase?: (name: string, phase: string | undefined) => void;
}

/** Watches Tenants until `signal` aborts. */
export function watchTenants(config: KubeConfig, options: TenantWatchOptions, signal: AbortSignal): void {
  const custom = config.makeApiClient(CustomObjectsApi);
  const informer = makeInformer<KubernetesObject>(
    config,
    `/apis/${TENANT_GROUP}/${TENANT_VERSION}/${TENANT_PLURAL}`,
    () => custom.listClusterCustomObject({ group: TENANT_GROUP, version: TENANT_VERSION, plural: TENANT_PLURAL }),
  );
  // What a reconcile acts on, per tenant: a change of anything else (the server's own status
  // writes above all) asks for no reconcile.
  const seen = new Map<string, string>();
  const onObject = (object: KubernetesObject) => {
    const name = object.metadata?.name;
    if (!name) return;
    const { status } = object as { status?: { platformRevision?: string; phase?: string } };
    options.onRunning?.(name, status?.platformRevision);
    options.onPhase?.(name, status?.phase);
    const key = reconcileKey(object);
    if (seen.get(name) === key) return;
    seen.set(name, key);
    options.onTenant(name, (object as { status?: unknown }).status !== undefined);
  };
  const onDeleted = (object: KubernetesObject) => {
    const name = object.metadata?.name;
    if (!name) return;
    seen.delete(name);
    options.onGone?.(name);
  };
  informer.on("add", onObject);
  informer.on("update", onObject);
  informer.on("delete", onDeleted);
  runInformer(informer, options, signal);
}

/** The annotations a reconcile reads: the approval's, the ask for a preview only, and the asks for a snapshot or a restore. */
const RECONCILED_ANNOTATIONS = [
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  PREVIEW_ONLY_ANNOTATION,
  SNAPSHOT_ANNOTATION,
  RESTORE_ANNOTATION,
] as const;

/** The fields a reconcile reads besides the status: the spec's generation, deletion, finalizers, the annotations it reads. */
export function reconcileKey(object: KubernetesObject): string {
  const { generation, deletionTimestamp, finalizers, annotations } = object.metadata ?? {};
  const read = RECONCILED_ANNOTATIONS.map((annotation) => annotations?.[annotation]);
  return JSON.stringify([generation, deletionTimestamp, finalizers, ...read]);
}
