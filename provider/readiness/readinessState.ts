/**
 * When is a tenant's virtual cluster ready, and what is still missing: pure functions over the
 * two observed objects, so the wait, its messages and its tests share one definition.
 */
import type { ObservedObject } from "./objectStream";

/** What the wait knows about the two objects. `undefined` means not seen yet. */
export interface ReadinessObservation {
  /** StatefulSet `<release>`, or null when it does not exist. */
  readonly statefulSet: ObservedObject | null | undefined;
  /** Secret `vc-<release>`, or null when it does not exist. */
  readonly secret: ObservedObject | null | undefined;
}

/** Names of the two objects, for messages. */
export interface ReadinessNames {
  /** StatefulSet name (the release name). */
  readonly statefulSet: string;
  /** Kubeconfig Secret name. */
  readonly secret: string;
  /** Key of the kubeconfig in the Secret. */
  readonly secretKey: string;
}

/** True when the StatefulSet runs all replicas of its current generation and revision. */
export function statefulSetReady(statefulSet: ObservedObject): boolean {
  const wanted = statefulSet.spec?.replicas ?? 1;
  const status = statefulSet.status ?? {};
  const generationSeen = (status.observedGeneration ?? 0) >= (statefulSet.metadata?.generation ?? 1);
  const rolledOut = !status.updateRevision || status.updateRevision === status.currentRevision;
  return generationSeen && rolledOut && (status.readyReplicas ?? 0) >= wanted;
}

/** The kubeconfig text in the Secret, or undefined when the key is absent or empty. */
export function kubeconfigFromSecret(secret: ObservedObject, key: string): string | undefined {
  const encoded = secret.data?.[key];
  return encoded ? Buffer.from(encoded, "base64").toString("utf8") : undefined;
}

/** What is still missing, one phrase per object; empty when ready. */
export function missingParts(observation: ReadinessObservation, names: ReadinessNames): string[] {
  return [statefulSetGap(observation.statefulSet, names), secretGap(observation.secret, names)].filter(
    (gap): gap is string => gap !== undefined,
  );
}

function statefulSetGap(statefulSet: ObservedObject | null | undefined, names: ReadinessNames): string | undefined {
  if (statefulSet === undefined) return `StatefulSet ${names.statefulSet} not read yet`;
  if (statefulSet === null) return `StatefulSet ${names.statefulSet} not found`;
  if (statefulSetReady(statefulSet)) return undefined;
  const status = statefulSet.status ?? {};
  const wanted = statefulSet.spec?.replicas ?? 1;
  const stale = (status.observedGeneration ?? 0) < (statefulSet.metadata?.generation ?? 1) ? ", generation not yet observed" : "";
  const rolling = status.updateRevision && status.updateRevision !== status.currentRevision ? ", rolling update in progress" : "";
  return `StatefulSet ${names.statefulSet} ${status.readyReplicas ?? 0}/${wanted} ready${stale}${rolling}`;
}

function secretGap(secret: ObservedObject | null | undefined, names: ReadinessNames): string | undefined {
  if (secret === undefined) return `Secret ${names.secret} not read yet`;
  if (secret === null) return `Secret ${names.secret} not found`;
  return kubeconfigFromSecret(secret, names.secretKey) ? undefined : `Secret ${names.secret} has no key "${names.secretKey}"`;
}
