/**
 * The snapshot stage: a running tenant's ask for a snapshot (its annotation) is served once; the
 * snapshot is kept under its owner in the platform's store and listed in the status. A refusal or
 * a failure is an Event, not retried.
 */
import { ownerOf } from "../../../tenants/requestCheck";
import { releaseName } from "../../../model/names";
import type { TenantResource } from "../../tenantResourcePort";
import { snapshotName } from "../../snapshots/snapshotAsks";
import type { VclusterTarget } from "../../snapshots/vclusterSnapshots";
import { errorMessage, type ReconcileOptions, type StageContext } from "./stageContext";
import type { TenantStatusWrites } from "./tenantStatusWrites";

/** Takes a snapshot of the running tenant for the ask `ask`, and lists it in the status. */
export async function takeSnapshot(
  context: StageContext,
  statuses: TenantStatusWrites,
  tenant: TenantResource,
  ask: string,
  options: ReconcileOptions,
): Promise<void> {
  const { name } = tenant.metadata;
  const { resources, config, now } = context;
  const { snapshots } = config;
  const refusal = !snapshots
    ? "the server has no snapshot store (its configuration's `snapshots`)"
    : tenant.status?.phase === "Sleeping"
      ? "a sleeping tenant's control plane is down: wake it first"
      : undefined;
  if (refusal || !snapshots) {
    await statuses.update(name, { snapshotRequest: ask });
    return config.events?.record(tenant, "SnapshotFailed", `no snapshot taken: ${refusal}`);
  }
  const snapshot = snapshotName(name, now());
  const object = snapshots.store.objectOf(ownerOf(tenant.spec) ?? "", snapshot);
  try {
    await snapshots.vcluster.take(vclusterOf(tenant), snapshot, object, options.signal);
    const entry = { name: snapshot, takenAt: now().toISOString(), url: object.url };
    const latest = (await resources.get(name))?.status?.snapshots ?? [];
    await statuses.update(name, { snapshotRequest: ask, snapshots: [...latest, entry] });
    // The URL is in the status: an Event's scrubber would take its owner digest for a credential.
    await config.events?.record(tenant, "SnapshotTaken", `snapshot ${snapshot} is kept in the snapshot store`);
  } catch (error) {
    await statuses.update(name, { snapshotRequest: ask });
    await config.events?.record(tenant, "SnapshotFailed", `snapshot ${snapshot} failed: ${errorMessage(error)}`);
  }
}

/** The tenant's vCluster on the host. */
export function vclusterOf(tenant: TenantResource): VclusterTarget {
  const { name } = tenant.metadata;
  return { tenant: name, namespace: tenant.status!.namespace!, release: releaseName(name) };
}
