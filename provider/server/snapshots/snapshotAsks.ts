/**
 * What a Tenant asks of its snapshots through its annotations, and what its status records of them:
 * pure, so that the reconciler, the doors and the tests read them alike.
 */
import { RESTORE_ANNOTATION, SNAPSHOT_ANNOTATION } from "../../contracts/tenantResourceNames";
import type { TenantResource, TenantResourceStatus } from "../tenantResourcePort";

/** A snapshot as the status lists it. */
export type SnapshotEntry = NonNullable<TenantResourceStatus["snapshots"]>[number];

/** The snapshot the Tenant asks to be restored from, when it was not served yet. */
export function pendingRestore(tenant: TenantResource): string | undefined {
  const asked = tenant.metadata.annotations?.[RESTORE_ANNOTATION];
  return asked && asked !== tenant.status?.restoredFrom ? asked : undefined;
}

/** The snapshot ask (the annotation's value) the Tenant makes, when it was not served yet. */
export function pendingSnapshot(tenant: TenantResource): string | undefined {
  const asked = tenant.metadata.annotations?.[SNAPSHOT_ANNOTATION];
  return asked && asked !== tenant.status?.snapshotRequest ? asked : undefined;
}

/** What a snapshot's name may be: a DNS label's characters, at most 80 (a tenant's name and the time). */
const SNAPSHOT_NAME = /^[a-z0-9]([-a-z0-9]{0,78}[a-z0-9])?$/;

/** Whether `name` can be a snapshot's: what the API and the reconciler check before it reaches the store. */
export const isSnapshotName = (name: string): boolean => SNAPSHOT_NAME.test(name);

/** A snapshot's name: the tenant's and the time, to the second (UTC), e.g. `team-atlas-20261205t063012z`. */
export const snapshotName = (tenant: string, at: Date): string =>
  `${tenant}-${at
    .toISOString()
    .replace(/[-:]|\.\d+/g, "")
    .toLowerCase()}`;

/** Whether `snapshot` was taken of this very tenant (its status lists it), not of one deleted before it. */
export const isOwnSnapshot = (tenant: TenantResource, snapshot: string): boolean =>
  (tenant.status?.snapshots ?? []).some((entry) => entry.name === snapshot);
