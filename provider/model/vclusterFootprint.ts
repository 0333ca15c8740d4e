/**
 * What the vCluster itself takes in the tenant namespace, from the chart values a tenant can
 * change, so that a quota too small for it is refused at preview instead of leaving the release
 * pending. Defaults are the pinned vCluster chart's `values.yaml` (vclusterChart.ts).
 */
import { valueAt } from "./overridesGuard";
import { quantityValue } from "./quantity";
import type { TenantSpec } from "./tenantSpec";
import type { InputProblem } from "./validationError";

/** Chart defaults the footprint depends on (chart/values.yaml of the pinned vCluster chart). */
export const CHART_DEFAULTS = {
  controlPlaneReplicas: 1,
  dataVolumeSize: "5Gi",
  corednsEnabled: true,
  corednsReplicas: 1,
  corednsLimits: { cpu: "1000m", memory: "170Mi" },
  /** The control-plane container's `ephemeral-storage` limit (`controlPlane.statefulSet.resources`, not on the allowlist). */
  controlPlaneEphemeralStorageLimit: "10Gi",
} as const;

/** Revisions of the release Helm keeps, each a Secret in the namespace. */
export const HELM_MAX_HISTORY = 3;

/** CPU and memory in cores and bytes, ephemeral storage in bytes. */
export interface FootprintLimits {
  readonly cpu: number;
  readonly memory: number;
  readonly ephemeralStorage: number;
}

/**
 * What the vCluster's own pods and objects take at most: its pods as they run, and for a moment
 * beside them the pods a rolling update starts before it stops the old ones, which the quota must
 * admit too or the release's upgrade waits until it times out.
 */
export interface VclusterFootprint {
  /** Pods: control-plane replicas and CoreDNS replicas, with the rolling update's new ones. */
  readonly pods: number;
  /** Services: the API Service, its headless Service, and the synced DNS Service. */
  readonly services: number;
  /** Data volumes, one per control-plane replica when persistence is on. */
  readonly persistentVolumeClaims: number;
  /** Storage the data volumes request. */
  readonly storageBytes: number;
  /** Secrets: the chart's config, the kubeconfig, the certificates and Helm's release history. */
  readonly secrets: number;
  /** ConfigMaps: kube-root-ca.crt (every namespace has it) and CoreDNS's configuration. */
  readonly configMaps: number;
  /**
   * The sum of the limits of its pods, the rolling update's new ones included. Ephemeral storage
   * counts the containers that declare none (CoreDNS, the control plane's init container) at the
   * LimitRange's default limit, as the host gives them; a pod's limit is the larger of its
   * containers' sum and its largest init container.
   */
  readonly limits: FootprintLimits;
}

/**
 * The pods a Deployment of `replicas` starts before it stops old ones: the default maxSurge, 25%
 * rounded up (the chart sets no strategy). A StatefulSet replaces its pods one at a time and adds none.
 */
const surgeOf = (replicas: number): number => Math.ceil(replicas * 0.25);

/** The footprint of the tenant's vCluster, with its overrides applied; they must keep their rules (overrideValueProblems). */
export function vclusterFootprint(spec: TenantSpec): VclusterFootprint {
  const overrides = spec.vcluster.valuesOverrides;
  const replicas = Number(
    valueAt(overrides, "controlPlane.statefulSet.highAvailability.replicas") ?? CHART_DEFAULTS.controlPlaneReplicas,
  );
  // "auto" (the default) means a volume, since the default backing store is the embedded database.
  const persistent = valueAt(overrides, "controlPlane.statefulSet.persistence.volumeClaim.enabled") !== false;
  const size = String(
    valueAt(overrides, "controlPlane.statefulSet.persistence.volumeClaim.size") ?? CHART_DEFAULTS.dataVolumeSize,
  );
  const coredns = valueAt(overrides, "controlPlane.coredns.enabled") !== false;
  const corednsReplicas = coredns
    ? Number(valueAt(overrides, "controlPlane.coredns.deployment.replicas") ?? CHART_DEFAULTS.corednsReplicas)
    : 0;
  const corednsLimits: Record<string, unknown> = {
    ...CHART_DEFAULTS.corednsLimits,
    ...(valueAt(overrides, "controlPlane.coredns.deployment.resources.limits") as object),
  };
  const controlPlane = spec.vcluster.controlPlaneResources.limits;
  const defaultEphemeralLimit = quantityValue(spec.limitRange.defaultLimit.ephemeralStorage);
  const controlPlaneEphemeral = Math.max(
    quantityValue(CHART_DEFAULTS.controlPlaneEphemeralStorageLimit),
    defaultEphemeralLimit,
  );
  const corednsEphemeral =
    corednsLimits["ephemeral-storage"] === undefined
      ? defaultEphemeralLimit
      : quantityValue(String(corednsLimits["ephemeral-storage"]));
  // The chart renders a Deployment for a control plane without a volume (vcluster.kind).
  const controlPlaneSurge = persistent ? 0 : surgeOf(replicas);
  const corednsSurge = surgeOf(corednsReplicas);
  const limitsOf = (controlPlanePods: number, corednsPods: number): FootprintLimits => ({
    cpu: controlPlanePods * quantityValue(controlPlane.cpu) + corednsPods * quantityValue(String(corednsLimits.cpu)),
    memory:
      controlPlanePods * quantityValue(controlPlane.memory) + corednsPods * quantityValue(String(corednsLimits.memory)),
    ephemeralStorage: controlPlanePods * controlPlaneEphemeral + corednsPods * corednsEphemeral,
  });
  return {
    pods: replicas + controlPlaneSurge + corednsReplicas + corednsSurge,
    services: 2 + (coredns ? 1 : 0),
    persistentVolumeClaims: persistent ? replicas : 0,
    storageBytes: persistent ? replicas * quantityValue(size) : 0,
    secrets: 3 + HELM_MAX_HISTORY,
    configMaps: 1 + (coredns ? 1 : 0),
    limits: limitsOf(replicas + controlPlaneSurge, corednsReplicas + corednsSurge),
  };
}

/** The quota rules the vCluster's footprint breaks: each names the field and what it needs. */
export function footprintProblems(spec: TenantSpec): InputProblem[] {
  const footprint = vclusterFootprint(spec);
  const { resources } = spec;
  const problems: InputProblem[] = [];
  const counts = ["pods", "services", "persistentVolumeClaims", "secrets", "configMaps"] as const;
  for (const field of counts) {
    const quota = resources[field];
    if (quota !== undefined && quota < footprint[field]) {
      problems.push({
        path: `resources.${field}`,
        message: `${quota} is less than the vCluster itself needs (${footprint[field]})`,
      });
    }
  }
  if (quantityValue(resources.storage) < footprint.storageBytes) {
    problems.push({
      path: "resources.storage",
      message: `${resources.storage} is less than the vCluster's data volumes request (${footprint.persistentVolumeClaims} x the volume size)`,
    });
  }
  if (quantityValue(resources.cpu) < footprint.limits.cpu) {
    problems.push({
      path: "resources.cpu",
      message: `${resources.cpu} is less than the limits of the vCluster's own containers (${footprint.limits.cpu} cores: control plane and CoreDNS replicas${SURGE_NOTE})`,
    });
  }
  if (quantityValue(resources.ephemeralStorage) < footprint.limits.ephemeralStorage) {
    problems.push({
      path: "resources.ephemeralStorage",
      message: `${resources.ephemeralStorage} is less than the ephemeral-storage limits of the vCluster's own containers (${gibibytes(footprint.limits.ephemeralStorage)}: control plane and CoreDNS replicas${SURGE_NOTE}, those that declare none at limitRange.defaultLimit.ephemeralStorage)`,
    });
  }
  if (quantityValue(resources.memory) < footprint.limits.memory) {
    problems.push({
      path: "resources.memory",
      message: `${resources.memory} is less than the limits of the vCluster's own containers (${(footprint.limits.memory / 2 ** 20).toFixed(0)}Mi: control plane and CoreDNS replicas${SURGE_NOTE})`,
    });
  }
  return problems;
}

/** How the limits in a message are made up beyond the replicas. */
const SURGE_NOTE = ", with the pods a rolling update adds";

/** Bytes as Gi, rounded up: the unit a quota of ephemeral storage is written in. */
const gibibytes = (bytes: number): string => `${Math.ceil(bytes / 2 ** 30)}Gi`;
