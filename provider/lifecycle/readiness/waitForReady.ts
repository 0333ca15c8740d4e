/**
 * The readiness wait: follows the vCluster workload (StatefulSet or Deployment) and its kubeconfig
 * Secret with watches and finishes as soon as both are ready, or fails at the deadline naming what
 * is still missing.
 */
import { kubeconfigSecretName, KUBECONFIG_SECRET_KEY } from "../../model/names";
import type { ObjectStream, ObservedObject, WatchedKind } from "./objectStream";
import { DEFAULT_BACKOFF, ObjectTracker, type Backoff } from "./objectTracker";
import {
  kubeconfigFromSecret,
  missingParts,
  type ReadinessGoal,
  type ReadinessNames,
  type ReadinessObservation,
} from "./readinessState";

/** Which virtual cluster to wait for. */
export interface ReadinessTarget {
  /** Namespace of the release. */
  readonly namespace: string;
  /** Helm release name of the vCluster. */
  readonly releaseName: string;
}

/** How to wait. */
export interface WaitOptions {
  /** Give up after this many ms. */
  readonly timeoutMs: number;
  /** Told what the wait is waiting for whenever that changes, and every `heartbeatMs`. */
  readonly onProgress?: (message: string) => void;
  /** Interval of "still waiting" progress messages. @default 30000 */
  readonly heartbeatMs?: number;
  /** Reconnect delays after a failed list or watch. */
  readonly backoff?: Backoff;
  /** What to wait for: a running control plane, or one scaled to zero for a sleeping tenant. @default "ready" */
  readonly goal?: ReadinessGoal;
}

/** A ready virtual cluster. */
export interface ReadyCluster {
  /** The kubeconfig the vCluster wrote, as it wrote it. */
  readonly kubeconfig: string;
  /** ms from the start of the wait until both objects were ready. */
  readonly elapsedMs: number;
}

/** The wait ran out of time; `missing` says what was not ready. */
export class ReadinessTimeoutError extends Error {
  constructor(
    /** What was still missing at the deadline. */
    readonly missing: readonly string[],
    timeoutMs: number,
    /** The latest API error that still stood at the deadline (see StandingTroubles), if any. */
    lastTrouble: Error | undefined,
  ) {
    const trouble = lastTrouble ? ` (last API error: ${lastTrouble.message})` : "";
    super(`virtual cluster not ready after ${Math.round(timeoutMs / 1000)}s: ${missing.join("; ")}${trouble}`);
    this.name = "ReadinessTimeoutError";
  }
}

/** Waits until the vCluster of `target` is ready (or asleep, as `options.goal` says); rejects with ReadinessTimeoutError at the deadline. */
export function waitForReady(
  stream: ObjectStream,
  target: ReadinessTarget,
  options: WaitOptions,
): Promise<ReadyCluster> {
  const names: ReadinessNames = {
    workload: target.releaseName,
    secret: kubeconfigSecretName(target.releaseName),
    secretKey: KUBECONFIG_SECRET_KEY,
  };
  const started = Date.now();
  const observed: { -readonly [K in keyof ReadinessObservation]: ReadinessObservation[K] } = {
    statefulSet: undefined,
    deployment: undefined,
    secret: undefined,
  };
  const snapshot = (): ReadinessObservation => ({ ...observed });
  const missing = () => missingParts(snapshot(), names, options.goal);

  return new Promise<ReadyCluster>((resolve, reject) => {
    let lastMessage = "";
    const troubles = new StandingTroubles();
    const report = (force: boolean) => {
      const message = `waiting for ${missing().join("; ")}`;
      if (force || message !== lastMessage) options.onProgress?.(message);
      lastMessage = message;
    };
    const finish = (outcome: () => void) => {
      clearTimeout(deadline);
      clearInterval(heartbeat);
      trackers.forEach((tracker) => tracker.stop());
      outcome();
    };
    const allRead = () => Object.values(observed).every((object) => object !== undefined);
    const onChange = () => {
      // Until every object has been listed once, "not read yet" is no news worth reporting.
      if (missing().length > 0) return allRead() ? report(false) : undefined;
      const kubeconfig = kubeconfigFromSecret(observed.secret as ObservedObject, names.secretKey) as string;
      finish(() => resolve({ kubeconfig, elapsedMs: Date.now() - started }));
    };
    const follow = (kind: WatchedKind, name: string, field: keyof typeof observed) =>
      new ObjectTracker(
        stream,
        { kind, namespace: target.namespace, name },
        (object) => {
          troubles.answered(field);
          observed[field] = object;
          onChange();
        },
        (error) => troubles.failed(field, error),
        options.backoff ?? DEFAULT_BACKOFF,
      );

    const trackers = [
      follow("StatefulSet", names.workload, "statefulSet"),
      follow("Deployment", names.workload, "deployment"),
      follow("Secret", names.secret, "secret"),
    ];
    const deadline = setTimeout(
      () => finish(() => reject(new ReadinessTimeoutError(missing(), options.timeoutMs, troubles.latest()))),
      options.timeoutMs,
    );
    const heartbeat = setInterval(() => report(true), options.heartbeatMs ?? 30_000);
    trackers.forEach((tracker) => tracker.start());
  });
}

/**
 * The API errors that still stand, one per followed object: an object's error is forgotten once
 * the API server answers for it again, so that a timeout long after a restart does not quote the
 * restart, while an error that persists for one object (a Secret the wait may not read) is kept
 * although the others are answered.
 */
class StandingTroubles {
  private readonly byObject = new Map<string, Error>();

  /** The API server failed a list or watch of `object`. */
  failed(object: string, error: Error): void {
    // Re-inserted, so that the map's order is the order of the latest failures.
    this.byObject.delete(object);
    this.byObject.set(object, error);
  }

  /** The API server answered for `object`: a list, or a change on its watch. */
  answered(object: string): void {
    this.byObject.delete(object);
  }

  /** The most recent error that still stands, if any. */
  latest(): Error | undefined {
    return [...this.byObject.values()].at(-1);
  }
}
