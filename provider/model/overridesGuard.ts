/**
 * The self-service guard on vCluster `valuesOverrides`: a tenant may tune its own control plane and
 * what it syncs, but not what fences it in or what it is handed back (RBAC on the host, images,
 * security contexts, the exported kubeconfig, the chart's own exposure, plugins).
 */
import { isPlainObject } from "../util/plainObject";

/**
 * Value paths (and everything below them) that `valuesOverrides` may set without
 * `allowUnsafeOverrides`. Each is a path of the vCluster chart 0.36.1 values; a test checks them
 * against the chart's values.schema.json.
 */
export const SAFE_OVERRIDE_PATHS: readonly string[] = [
  // The control plane's own size, storage and metadata: bounded by the quota anyway.
  "controlPlane.statefulSet.resources",
  "controlPlane.statefulSet.highAvailability.replicas",
  "controlPlane.statefulSet.persistence.volumeClaim.enabled",
  "controlPlane.statefulSet.persistence.volumeClaim.size",
  "controlPlane.statefulSet.persistence.volumeClaim.storageClass",
  "controlPlane.statefulSet.labels",
  "controlPlane.statefulSet.annotations",
  "controlPlane.statefulSet.pods.labels",
  "controlPlane.statefulSet.pods.annotations",
  "controlPlane.backingStore",
  // The virtual cluster's own components: they run inside the tenant's fence.
  "controlPlane.coredns.enabled",
  "controlPlane.coredns.deployment.replicas",
  "controlPlane.coredns.deployment.resources",
  "controlPlane.distro.k8s.apiServer.extraArgs",
  "controlPlane.distro.k8s.controllerManager.extraArgs",
  "controlPlane.distro.k8s.scheduler.extraArgs",
  // Namespaced objects synced into the tenant namespace, where quota and pod security apply.
  "sync.toHost.ingresses.enabled",
  "sync.toHost.persistentVolumeClaims.enabled",
  "sync.toHost.serviceAccounts.enabled",
  "sync.toHost.networkPolicies.enabled",
  "sync.toHost.podDisruptionBudgets.enabled",
  // Read-only views of host classes.
  "sync.fromHost.ingressClasses.enabled",
  "sync.fromHost.storageClasses.enabled",
  "telemetry.enabled",
];

/** The dotted paths of every leaf an overrides object sets: maps recurse, anything else is a leaf. */
export function leafPaths(values: unknown, prefix = ""): string[] {
  if (!isPlainObject(values) || (Object.keys(values).length === 0 && prefix !== "")) return [prefix];
  return Object.entries(values).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key));
}

/** The leaf paths of `overrides` that no allowlisted path covers, sorted. */
export function unsafeOverridePaths(overrides: Record<string, unknown>, allowed: readonly string[] = SAFE_OVERRIDE_PATHS): string[] {
  const covered = (path: string) => allowed.some((safe) => path === safe || path.startsWith(`${safe}.`));
  return leafPaths(overrides)
    .filter((path) => path !== "" && !covered(path))
    .sort();
}
