/**
 * The self-service guard on vCluster `valuesOverrides`: a tenant may tune its own control plane and
 * what it syncs, but not what fences it in or what it is handed back (RBAC on the host, images,
 * security contexts, the exported kubeconfig, the chart's own exposure, plugins).
 */
import { isPlainObject } from "../util/plainObject";

/** A chart values path a team may set through `valuesOverrides`, and why that is safe. */
export interface SafeOverridePath {
  /** Dotted path of the vCluster chart 0.36.1 values; everything below it is allowed too. */
  readonly path: string;
  /** Why a team may set it: what bounds it. */
  readonly why: string;
}

/**
 * The self-service allowlist of `valuesOverrides`. Each path is checked against the chart's
 * values.schema.json by a unit test. Left out on purpose: the backing store (images, volumes,
 * security contexts, a system priority class), the API server's and controllers' `extraArgs`
 * (free-form flags), the control plane's resources (set through `controlPlaneResources`, which is
 * checked against the quota), pod labels and annotations (they can match other policies' selectors),
 * and the sync of Ingresses (hostname hijack), ServiceAccounts (cloud identity annotations),
 * NetworkPolicies (an allow rule would undo the tenant's egress fence) and PodDisruptionBudgets
 * (they can block the host's node drains).
 */
export const SAFE_OVERRIDES: readonly SafeOverridePath[] = [
  { path: "controlPlane.statefulSet.highAvailability.replicas", why: "more replicas of the tenant's own control plane, each counted against the quota" },
  { path: "controlPlane.statefulSet.persistence.volumeClaim.enabled", why: "whether the control plane keeps its data on a volume; volumes count against the storage quota" },
  { path: "controlPlane.statefulSet.persistence.volumeClaim.size", why: "the data volume's size, counted against the storage quota (checked at preview)" },
  { path: "controlPlane.statefulSet.persistence.volumeClaim.storageClass", why: "which of the host's storage classes the data volume uses" },
  { path: "controlPlane.statefulSet.labels", why: "labels on the StatefulSet object itself, not on its pods" },
  { path: "controlPlane.statefulSet.annotations", why: "annotations on the StatefulSet object itself, not on its pods" },
  { path: "controlPlane.coredns.enabled", why: "the virtual cluster's own DNS, running inside the tenant namespace" },
  { path: "controlPlane.coredns.deployment.replicas", why: "replicas of the tenant's DNS, counted against the quota" },
  { path: "controlPlane.coredns.deployment.resources", why: "the tenant's DNS resources, counted against the quota (checked at preview)" },
  { path: "sync.toHost.persistentVolumeClaims.enabled", why: "volume claims land in the tenant namespace, under the storage quota" },
  { path: "sync.fromHost.ingressClasses.enabled", why: "a read-only view of the host's IngressClasses" },
  { path: "sync.fromHost.storageClasses.enabled", why: "a read-only view of the host's StorageClasses" },
  { path: "telemetry.enabled", why: "whether the vCluster sends anonymous usage data" },
];

/** The allowlisted paths alone. */
export const SAFE_OVERRIDE_PATHS: readonly string[] = SAFE_OVERRIDES.map((entry) => entry.path);

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
