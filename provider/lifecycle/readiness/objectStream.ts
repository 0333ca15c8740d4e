/**
 * What the readiness wait needs from a cluster: list one named object, then watch it from the
 * list's resourceVersion. The real implementation is `kubeObjectStream`; tests use an in-process
 * fake with the same contract.
 */

/**
 * The kinds of object readiness looks at. The vCluster chart renders its control plane as a
 * StatefulSet, or as a Deployment when persistence is off; the kubeconfig is a Secret. A snapshot
 * request is a ConfigMap, and a restore runs in a Pod (server/kube/kubeVclusterSnapshots.ts).
 */
export type WatchedKind = "StatefulSet" | "Deployment" | "Secret" | "ConfigMap" | "Pod";

/** One named object in a namespace. */
export interface ObjectRef {
  /** Kind of the object. */
  readonly kind: WatchedKind;
  /** Namespace of the object. */
  readonly namespace: string;
  /** Name of the object. */
  readonly name: string;
}

/** A Kubernetes object as the API returns it, reduced to what readiness reads. */
export interface ObservedObject {
  /** Standard metadata. */
  readonly metadata?: { readonly name?: string; readonly generation?: number; readonly resourceVersion?: string };
  /** Workload spec. */
  readonly spec?: { readonly replicas?: number };
  /** Workload status (StatefulSet or Deployment). */
  readonly status?: {
    readonly observedGeneration?: number;
    readonly replicas?: number;
    readonly readyReplicas?: number;
    readonly updatedReplicas?: number;
    readonly currentRevision?: string;
    readonly updateRevision?: string;
    /** A pod's phase. */
    readonly phase?: string;
    /** A pod's containers' states. */
    readonly containerStatuses?: readonly {
      readonly state?: { readonly terminated?: { readonly exitCode?: number; readonly message?: string } };
    }[];
  };
  /** Secret data, base64-encoded. */
  readonly data?: Record<string, string>;
}

/** The state of the object when listed, and the version to watch from. */
export interface ListResult {
  /** The object, or undefined when it does not exist. */
  readonly object: ObservedObject | undefined;
  /** resourceVersion of the list. */
  readonly resourceVersion: string;
}

/** A watch event: the object was added, changed or deleted. */
export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

/** An open watch. */
export interface OpenWatch {
  /** Stops the watch; `onClosed` is then not called. */
  stop(): void;
}

/** Lists and watches single objects. */
export interface ObjectStream {
  /** Reads the object and the resourceVersion to watch from. */
  list(ref: ObjectRef): Promise<ListResult>;
  /**
   * Watches the object from `resourceVersion`. `onEvent` gets each change; `onClosed` is called
   * once when the server ends the watch or it fails (an error says why), after which the caller
   * lists again.
   */
  watch(
    ref: ObjectRef,
    resourceVersion: string,
    onEvent: (type: WatchEventType, object: ObservedObject) => void,
    onClosed: (error?: Error) => void,
  ): Promise<OpenWatch>;
}
