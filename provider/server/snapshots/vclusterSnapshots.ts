/**
 * What the server asks of a tenant's vCluster to snapshot and restore it, as a port (the Kubernetes
 * adapter is kubeVclusterSnapshots.ts; unit tests plug in a stand-in): vCluster's own snapshot
 * (a request its running control plane serves) and its own restore (`/vcluster restore`, run in a
 * pod beside its stopped control plane, as `vcluster restore` runs it).
 */
import type { SnapshotObject } from "./snapshotStore";

/** A tenant's vCluster on the host. */
export interface VclusterTarget {
  /** The tenant's name. */
  readonly tenant: string;
  /** The host namespace of its release. */
  readonly namespace: string;
  /** The Helm release name of its vCluster. */
  readonly release: string;
}

/** vCluster's snapshot and restore of one tenant. */
export interface VclusterSnapshots {
  /**
   * Asks the tenant's running control plane for snapshot `snapshot`, written to `object`; resolves
   * once vCluster says it is complete, rejects with vCluster's error when it failed.
   */
  take(target: VclusterTarget, snapshot: string, object: SnapshotObject, signal?: AbortSignal): Promise<void>;
  /**
   * Restores `object` into the tenant's vCluster, whose control plane is scaled to zero: into its
   * own data when `fresh` is false, as into a new vCluster (its name mappings left out) when true.
   * Resolves once the restore exited successfully.
   */
  restore(target: VclusterTarget, object: SnapshotObject, fresh: boolean, signal?: AbortSignal): Promise<void>;
}
