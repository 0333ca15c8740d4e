/**
 * The label the running vCluster puts on host objects it syncs outside its namespace (e.g.
 * PriorityClasses): `vcluster.loft.sh/managed-by=<namespace>-x-<release>`, shortened with a hash
 * past 63 characters the way vCluster's `translate.SafeConcatName` does.
 */
import { createHash } from "node:crypto";

/** Label key of objects a vCluster synced to the host. */
export const VCLUSTER_MARKER_LABEL = "vcluster.loft.sh/managed-by";

/** Label value vCluster gives objects synced from release `release` in `namespace`. */
export function vclusterMarker(namespace: string, release: string): string {
  const full = [namespace, "x", release].join("-");
  if (full.length <= 63) return full;
  const digest = createHash("sha256").update(full).digest("hex").slice(0, 10);
  return `${full.slice(0, 52)}-${digest}`.replaceAll(".-", "-");
}
