/**
 * The self-service guard on vCluster `valuesOverrides`: a tenant may tune its own control plane and
 * what it syncs, but not what fences it in or what it is handed back (RBAC on the host, images,
 * security contexts, the exported kubeconfig, the chart's own exposure, plugins).
 */
import { z } from "zod";
import { isPlainObject } from "../util/plainObject";
import { toProblem } from "./inputProblems";
import { quantity, wholeCount } from "./schemaParts";
import type { InputProblem } from "./validationError";

/** Where people read the allowlist: the reference's section, whose list is generated from it. */
export const SAFE_OVERRIDES_DOC = "docs/reference.md#self-service-overrides";

/** A chart values path a team may set through `valuesOverrides`, and why that is safe. */
export interface SafeOverridePath {
  /** Dotted path of the pinned vCluster chart's values; everything below it is allowed too. */
  readonly path: string;
  /** Why a team may set it: what bounds it. */
  readonly why: string;
  /**
   * What a value here must be, when the quota check reads it (see vclusterFootprint.ts): the
   * chart's schema allows what the footprint cannot count (a negative number of replicas, a
   * volume of size zero, a limit that is no quantity). Checked under `allowUnsafeOverrides` too.
   * @default any value the chart's schema accepts
   */
  readonly value?: z.ZodType;
}

// CPU, memory and ephemeral storage of a container, as the quota counts them; other resource names pass.
const containerQuantities = z.looseObject({
  cpu: quantity("CPU.").optional(),
  memory: quantity("Memory.").optional(),
  "ephemeral-storage": quantity("Ephemeral storage.").optional(),
});

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
  {
    path: "controlPlane.statefulSet.highAvailability.replicas",
    why: "more replicas of the tenant's own control plane, each counted against the quota",
    value: wholeCount(),
  },
  {
    path: "controlPlane.statefulSet.persistence.volumeClaim.enabled",
    why: "whether the control plane keeps its data on a volume; volumes count against the storage quota",
  },
  {
    path: "controlPlane.statefulSet.persistence.volumeClaim.size",
    why: "the data volume's size, counted against the storage quota (checked at preview)",
    value: quantity("Size of the data volume."),
  },
  {
    path: "controlPlane.statefulSet.persistence.volumeClaim.storageClass",
    why: "which of the host's storage classes the data volume uses",
  },
  { path: "controlPlane.statefulSet.labels", why: "labels on the StatefulSet object itself, not on its pods" },
  {
    path: "controlPlane.statefulSet.annotations",
    why: "annotations on the StatefulSet object itself, not on its pods",
  },
  { path: "controlPlane.coredns.enabled", why: "the virtual cluster's own DNS, running inside the tenant namespace" },
  {
    path: "controlPlane.coredns.deployment.replicas",
    why: "replicas of the tenant's DNS, counted against the quota",
    value: wholeCount(),
  },
  {
    path: "controlPlane.coredns.deployment.resources",
    why: "the tenant's DNS resources, counted against the quota (checked at preview)",
    value: z.looseObject({ limits: containerQuantities.optional(), requests: containerQuantities.optional() }),
  },
  {
    path: "sync.toHost.persistentVolumeClaims.enabled",
    why: "volume claims land in the tenant namespace, under the storage quota",
  },
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
export function unsafeOverridePaths(
  overrides: Record<string, unknown>,
  allowed: readonly string[] = SAFE_OVERRIDE_PATHS,
): string[] {
  const covered = (path: string) => allowed.some((safe) => path === safe || path.startsWith(`${safe}.`));
  return leafPaths(overrides)
    .filter((path) => path !== "" && !covered(path))
    .sort();
}

/** The value at dotted `path` of `values`, or undefined when a step is missing or not a map. */
export function valueAt(values: unknown, path: string): unknown {
  // Own keys only: a path step such as "constructor" must not read Object.prototype.
  return path
    .split(".")
    .reduce<unknown>((node, key) => (isPlainObject(node) && Object.hasOwn(node, key) ? node[key] : undefined), values);
}

/**
 * The allowlisted values of `overrides` that break their path's rule, each as a problem of its
 * field, `vcluster.valuesOverrides.<path>`.
 */
export function overrideValueProblems(overrides: Record<string, unknown>): InputProblem[] {
  const prefix = ["vcluster", "valuesOverrides"];
  return SAFE_OVERRIDES.flatMap(({ path, value }) => {
    const given = valueAt(overrides, path);
    if (value === undefined || given === undefined) return [];
    const parsed = value.safeParse(given, { reportInput: true });
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) =>
          withNullHint(toProblem(issue, [...prefix, ...path.split(".")]), issue.input),
        );
  });
}

/** `null` removes a key in Helm's merge, which a team may mean here; say why it cannot. */
function withNullHint(problem: InputProblem, input: unknown): InputProblem {
  if (input !== null) return problem;
  return {
    ...problem,
    message: `${problem.message} (null would remove the chart's value, which the quota check counts; leave the key out to keep the chart's default)`,
  };
}
