/** ObjectStream over a real API server, with @kubernetes/client-node. */
import { AppsV1Api, CoreV1Api, Watch, type KubeConfig } from "@kubernetes/client-node";
import type { ObjectRef, ObjectStream, ObservedObject, WatchEventType } from "./objectStream";

/** Counts the API requests a stream made (lists and watch connections). */
export interface RequestCounter {
  /** Requests made so far. */
  requests: number;
}

const COLLECTION_PATHS: Record<ObjectRef["kind"], (namespace: string) => string> = {
  StatefulSet: (namespace) => `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
  Deployment: (namespace) => `/apis/apps/v1/namespaces/${namespace}/deployments`,
  Secret: (namespace) => `/api/v1/namespaces/${namespace}/secrets`,
  ConfigMap: (namespace) => `/api/v1/namespaces/${namespace}/configmaps`,
  Pod: (namespace) => `/api/v1/namespaces/${namespace}/pods`,
};

/** An ObjectStream that lists and watches through `kubeConfig`. */
export function kubeObjectStream(kubeConfig: KubeConfig, counter: RequestCounter = { requests: 0 }): ObjectStream {
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const watcher = new Watch(kubeConfig);
  const byName = (ref: ObjectRef) => `metadata.name=${ref.name}`;
  type Request = { namespace: string; fieldSelector: string };
  type List = { items: unknown[]; metadata?: { resourceVersion?: string } };
  const LISTS: Record<ObjectRef["kind"], (request: Request) => Promise<List>> = {
    StatefulSet: (request) => apps.listNamespacedStatefulSet(request),
    Deployment: (request) => apps.listNamespacedDeployment(request),
    Secret: (request) => core.listNamespacedSecret(request),
    ConfigMap: (request) => core.listNamespacedConfigMap(request),
    Pod: (request) => core.listNamespacedPod(request),
  };

  return {
    async list(ref) {
      counter.requests++;
      const request = { namespace: ref.namespace, fieldSelector: byName(ref) };
      const list = await LISTS[ref.kind](request);
      return {
        object: list.items[0] as ObservedObject | undefined,
        resourceVersion: list.metadata?.resourceVersion ?? "",
      };
    },

    async watch(ref, resourceVersion, onEvent, onClosed) {
      counter.requests++;
      let stopped = false;
      const query = { fieldSelector: byName(ref), resourceVersion, allowWatchBookmarks: false };
      const controller = await watcher.watch(
        COLLECTION_PATHS[ref.kind](ref.namespace),
        query,
        (type, object) => {
          if (type === "ERROR")
            return onClosed(new Error(`watch of ${ref.kind} ${ref.name}: ${object?.message ?? "error event"}`));
          if (type === "ADDED" || type === "MODIFIED" || type === "DELETED") onEvent(type as WatchEventType, object);
        },
        (error) => {
          if (!stopped) onClosed(error ?? undefined);
        },
      );
      return {
        stop() {
          stopped = true;
          controller.abort();
        },
      };
    },
  };
}
