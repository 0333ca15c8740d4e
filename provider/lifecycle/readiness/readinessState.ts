/**
 * When is a tenant's virtual cluster ready, and what is still missing: pure functions over the
 * observed objects, so the wait, its messages and its tests share one definition.
 */
import type { ObservedObject } from "./objectStream";

/** What the wait knows. `undefined` means not read yet, `null` that the object does not exist. */
export interface ReadinessObservation {
  /** StatefulSet `<release>` (the chart's control plane with persistence). */
  readonly statefulSet: ObservedObject | null | undefined;
  /** Deployment `<release>` (the chart's control plane without persistence). */
  readonly deployment: ObservedObject | null | undefined;
  /** Secret `vc-<release>`. */
  readonly secret: ObservedObject | null | undefined;
}

/** Names of the objects, for messages. */
export interface ReadinessNames {
  /** Workload name (the release name). */
  readonly workload: string;
  /** Kubeconfig Secret name. */
  readonly secret: string;
  /** Key of the kubeconfig in the Secret. */
  readonly secretKey: string;
}

/**
 * What the wait waits for: a running control plane (`ready`), or a sleeping tenant's control plane
 * scaled to zero with no pod left (`asleep`). The kubeconfig Secret is wanted either way.
 */
export type ReadinessGoal = "ready" | "asleep";

/** True when a workload scaled to zero has no pod left at its current generation. */
export function workloadStopped(workload: ObservedObject): boolean {
  return generationObserved(workload) && wantedReplicas(workload) === 0 && (workload.status?.replicas ?? 0) === 0;
}

/** True when a StatefulSet runs all replicas of its current generation and revision. */
export function statefulSetReady(statefulSet: ObservedObject): boolean {
  const status = statefulSet.status ?? {};
  const rolledOut = !status.updateRevision || status.updateRevision === status.currentRevision;
  return generationObserved(statefulSet) && rolledOut && (status.readyReplicas ?? 0) >= wantedReplicas(statefulSet);
}

/** True when a Deployment runs all replicas of its current generation, and only those. */
export function deploymentReady(deployment: ObservedObject): boolean {
  const status = deployment.status ?? {};
  const wanted = wantedReplicas(deployment);
  const rolledOut = (status.updatedReplicas ?? 0) >= wanted && (status.replicas ?? 0) <= (status.updatedReplicas ?? 0);
  return generationObserved(deployment) && rolledOut && (status.readyReplicas ?? 0) >= wanted;
}

/** The kubeconfig text in the Secret, or undefined when the key is absent or empty. */
export function kubeconfigFromSecret(secret: ObservedObject, key: string): string | undefined {
  const encoded = secret.data?.[key];
  return encoded ? Buffer.from(encoded, "base64").toString("utf8") : undefined;
}

/** What is still missing, one phrase per object; empty when ready. */
export function missingParts(
  observation: ReadinessObservation,
  names: ReadinessNames,
  goal: ReadinessGoal = "ready",
): string[] {
  const workload = goal === "asleep" ? stoppedGap(observation, names) : workloadGap(observation, names);
  return [workload, secretGap(observation.secret, names)].filter((gap): gap is string => gap !== undefined);
}

function wantedReplicas(workload: ObservedObject): number {
  return workload.spec?.replicas ?? 1;
}

function generationObserved(workload: ObservedObject): boolean {
  return (workload.status?.observedGeneration ?? 0) >= (workload.metadata?.generation ?? 1);
}

function workloadGap(observation: ReadinessObservation, names: ReadinessNames): string | undefined {
  const { statefulSet, deployment } = observation;
  if (statefulSet)
    return statefulSetReady(statefulSet) ? undefined : progressOf("StatefulSet", statefulSet, names.workload);
  if (deployment) return deploymentReady(deployment) ? undefined : progressOf("Deployment", deployment, names.workload);
  if (statefulSet === undefined || deployment === undefined) return `StatefulSet ${names.workload} not read yet`;
  return `StatefulSet (or Deployment) ${names.workload} not found`;
}

function stoppedGap(observation: ReadinessObservation, names: ReadinessNames): string | undefined {
  const workload = observation.statefulSet ?? observation.deployment;
  if (workload) {
    const kind = observation.statefulSet ? "StatefulSet" : "Deployment";
    return workloadStopped(workload)
      ? undefined
      : `${kind} ${names.workload} scaled to zero (${workload.status?.replicas ?? 0} pod(s) left)`;
  }
  if (observation.statefulSet === undefined || observation.deployment === undefined)
    return `StatefulSet ${names.workload} not read yet`;
  return `StatefulSet (or Deployment) ${names.workload} not found`;
}

function progressOf(kind: string, workload: ObservedObject, name: string): string {
  const status = workload.status ?? {};
  const stale = generationObserved(workload) ? "" : ", generation not yet observed";
  const rollingSet = status.updateRevision && status.updateRevision !== status.currentRevision;
  const rollingDeployment = kind === "Deployment" && (status.replicas ?? 0) > (status.updatedReplicas ?? 0);
  const rolling = rollingSet || rollingDeployment ? ", rolling update in progress" : "";
  return `${kind} ${name} ${status.readyReplicas ?? 0}/${wantedReplicas(workload)} ready${stale}${rolling}`;
}

function secretGap(secret: ObservedObject | null | undefined, names: ReadinessNames): string | undefined {
  if (secret === undefined) return `Secret ${names.secret} not read yet`;
  if (secret === null) return `Secret ${names.secret} not found`;
  return kubeconfigFromSecret(secret, names.secretKey)
    ? undefined
    : `Secret ${names.secret} has no key "${names.secretKey}"`;
}
