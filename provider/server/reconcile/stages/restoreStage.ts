/**
 * The restore stage: a running tenant's ask to be restored from a snapshot of its owner's (its
 * annotation). The request the stack runs is read once, first; the provisioning stage puts it back
 * asleep, vCluster writes the snapshot back, and the provisioning stage puts the same request back
 * awake, whether the restore worked or not. So a restore never brings up anything but what ran
 * before it: a spec patched while it runs is a newer generation, which meets the gates at the next
 * reconcile like any change.
 */
import { ownerOf } from "../../../tenants/requestCheck";
import type { TenantResource } from "../../tenantResourcePort";
import { isOwnSnapshot, isSnapshotName } from "../../snapshots/snapshotAsks";
import type { ProvisioningStage } from "./provisioningStage";
import { vclusterOf } from "./snapshotStage";
import { errorMessage, type ReconcileOptions, type StageContext } from "./stageContext";
import type { TenantStatusWrites } from "./tenantStatusWrites";

/** Restores the tenant from `snapshot`, one of its owner's. */
export async function restore(
  context: StageContext,
  statuses: TenantStatusWrites,
  provisioning: ProvisioningStage,
  tenant: TenantResource,
  snapshot: string,
  options: ReconcileOptions,
): Promise<void> {
  const { name } = tenant.metadata;
  const { service, resources, config } = context;
  const refuse = async (why: string) => {
    await statuses.update(name, { restoredFrom: snapshot });
    // The annotation is anyone's text that may write the Tenant: a name that is none is not quoted.
    const what = isSnapshotName(snapshot) ? `from ${snapshot}` : "from the snapshot the annotation names";
    await config.events?.record(tenant, "RestoreFailed", `not restored ${what}: ${why}`);
  };
  const { snapshots } = config;
  if (!snapshots) return refuse("the server has no snapshot store (its configuration's `snapshots`)");
  if (!isSnapshotName(snapshot)) return refuse("that is not a snapshot's name (its status lists them)");
  // Looked up under this tenant's owner only: another owner's snapshot is not found, whatever its name.
  const object = snapshots.store.objectOf(ownerOf(tenant.spec) ?? "", snapshot);
  const found = await snapshots.store.exists(object).catch((error: unknown) => error as Error);
  if (found !== true) return refuse(found ? errorMessage(found) : "the tenant's owner has no snapshot of that name");
  const running = await service.runningRequest(name, config.actor).catch(() => undefined);
  if (!running) return refuse("its stack has no recorded request to bring back after the restore");
  await config.events?.record(tenant, "Restoring", `restoring snapshot ${snapshot}: the control plane goes down first`);
  if ((await provisioning.putBack(tenant, running, options, true)).retry) return;
  const failure = await snapshots.vcluster
    .restore(vclusterOf(tenant), object, !isOwnSnapshot(tenant, snapshot), options.signal)
    .then(
      () => undefined,
      (error: unknown) => errorMessage(error),
    );
  const asleep = await resources.get(name);
  // Brought back awake even when the reconcile was stopped: a tenant is never left down by a restore it can finish.
  if (asleep && !asleep.metadata.deletionTimestamp) await provisioning.putBack(asleep, running, options);
  await statuses.update(name, { restoredFrom: snapshot });
  if (failure) await config.events?.record(tenant, "RestoreFailed", `restoring ${snapshot} failed: ${failure}`);
  else await config.events?.record(tenant, "Restored", `restored from snapshot ${snapshot}`);
}
