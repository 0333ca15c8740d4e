/**
 * vCluster's snapshot and restore of a tenant, over the host's API server (vCluster v0.36.1):
 * - a snapshot is a request vCluster's running control plane serves: a Secret with the storage
 *   options (`snapshotOptions`) and a ConfigMap of the same name with the request
 *   (`snapshotRequest`), both labelled `vcluster.loft.sh/snapshot-request`, in the tenant's
 *   namespace; vCluster writes the phase (Completed or Failed with the error) into the request;
 * - a restore is `/vcluster restore` in a pod made from the control plane's pod template (its
 *   volumes, the data claim `data-<release>-0`, its service account), as `vcluster restore` runs it,
 *   while the control plane is scaled to zero; the storage options reach it from a Secret.
 * Everything made here carries the tenant's label and is deleted when the step ends.
 */
import {
  AppsV1Api,
  CoreV1Api,
  type KubeConfig,
  type V1Container,
  type V1PersistentVolumeClaim,
  type V1Pod,
} from "@kubernetes/client-node";
import { TENANT_LABEL } from "../../model/names";
import { kubeObjectStream } from "../../lifecycle/readiness/kubeObjectStream";
import type { ObjectRef, ObservedObject } from "../../lifecycle/readiness/objectStream";
import { ObjectTracker } from "../../lifecycle/readiness/objectTracker";
import type { SnapshotObject } from "../snapshots/snapshotStore";
import type { VclusterSnapshots, VclusterTarget } from "../snapshots/vclusterSnapshots";

/** The label vCluster's snapshot controller serves requests by. */
const SNAPSHOT_REQUEST_LABEL = "vcluster.loft.sh/snapshot-request";
/** The phases that end a snapshot request badly (vCluster's api/snapshot/request.go). */
const FAILED_PHASES = ["Failed", "PartiallyFailed", "Canceled", "Canceling"];

/** The snapshot request's JSON, as vCluster reads and writes it. */
interface SnapshotRequest {
  readonly status?: { readonly phase?: string; readonly error?: { readonly message?: string } };
}

/** vCluster's snapshot and restore over `kubeConfig` (the server's credentials). */
export class KubeVclusterSnapshots implements VclusterSnapshots {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly timeoutMs = 600_000,
  ) {
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
  }

  async take(target: VclusterTarget, snapshot: string, object: SnapshotObject, signal?: AbortSignal): Promise<void> {
    const { namespace } = target;
    const metadata = {
      name: `kubespaces-snapshot-${snapshot}`,
      namespace,
      labels: { [SNAPSHOT_REQUEST_LABEL]: "", [TENANT_LABEL]: target.tenant },
    };
    // vCluster reads the Secret by the request's name: it goes first.
    await this.core.createNamespacedSecret({
      namespace,
      body: { metadata, stringData: { snapshotOptions: object.options } },
    });
    try {
      const request = {
        metadata: { name: metadata.name, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, "Z") },
        spec: { url: object.url },
        status: { phase: "", error: { message: "" } },
      };
      await this.core.createNamespacedConfigMap({
        namespace,
        body: { metadata, data: { snapshotRequest: JSON.stringify(request) } },
      });
      await this.until({ kind: "ConfigMap", namespace, name: metadata.name }, signal, (configMap) => {
        const status = configMap && (JSON.parse(configMap.data?.snapshotRequest ?? "{}") as SnapshotRequest).status;
        if (status?.phase === "Completed") return true;
        if (status?.phase && FAILED_PHASES.includes(status.phase))
          throw new Error(`vCluster's snapshot ${status.phase}: ${status.error?.message || "no reason given"}`);
        return false;
      });
    } finally {
      await this.gone(() => this.core.deleteNamespacedConfigMap({ namespace, name: metadata.name }));
      await this.gone(() => this.core.deleteNamespacedSecret({ namespace, name: metadata.name }));
    }
  }

  async restore(target: VclusterTarget, object: SnapshotObject, fresh: boolean, signal?: AbortSignal): Promise<void> {
    const { namespace, release } = target;
    const statefulSet = await this.apps.readNamespacedStatefulSet({ namespace, name: release });
    if ((statefulSet.spec?.replicas ?? 1) !== 0 || (statefulSet.status?.replicas ?? 0) !== 0)
      throw new Error(`the control plane of tenant ${target.tenant} still runs: a restore needs it scaled to zero`);
    const claimName = await this.dataClaim(target, statefulSet.spec?.volumeClaimTemplates?.[0]);
    const name = `${release}-restore`;
    const labels = { app: "vcluster-snapshot", [TENANT_LABEL]: target.tenant };
    // What a restore that stopped half way left behind.
    await this.gone(() => this.core.deleteNamespacedPod({ namespace, name }));
    await this.gone(() => this.core.deleteNamespacedSecret({ namespace, name }));
    await this.core.createNamespacedSecret({
      namespace,
      body: {
        metadata: { name, namespace, labels },
        stringData: { options: Buffer.from(object.options).toString("base64") },
      },
    });
    try {
      const template = statefulSet.spec!.template;
      const pod: V1Pod = {
        metadata: { name, namespace, labels },
        spec: {
          ...template.spec!,
          restartPolicy: "Never",
          volumes: [...(template.spec?.volumes ?? []), { name: "data", persistentVolumeClaim: { claimName } }],
          containers: [restoreContainer(template.spec!.containers, release, name, fresh)],
        },
      };
      await this.core.createNamespacedPod({ namespace, body: pod });
      await this.until({ kind: "Pod", namespace, name }, signal, (found) => {
        const phase = found?.status?.phase;
        if (phase === "Succeeded") return true;
        if (phase !== "Failed") return false;
        const terminated = found?.status?.containerStatuses?.[0]?.state?.terminated;
        throw new Error(
          `vCluster's restore failed (exit code ${terminated?.exitCode ?? "unknown"}${terminated?.message ? `: ${terminated.message}` : ""})`,
        );
      });
    } finally {
      await this.gone(() => this.core.deleteNamespacedPod({ namespace, name }));
      await this.gone(() => this.core.deleteNamespacedSecret({ namespace, name }));
    }
  }

  /** The control plane's data claim, made from the StatefulSet's template when it has none yet (a control plane never started). */
  private async dataClaim(target: VclusterTarget, template: V1PersistentVolumeClaim | undefined): Promise<string> {
    const claimName = `data-${target.release}-0`;
    const existing = await this.core
      .readNamespacedPersistentVolumeClaim({ namespace: target.namespace, name: claimName })
      .catch((error: unknown) => {
        if ((error as { code?: number }).code === 404) return undefined;
        throw error;
      });
    if (existing) return claimName;
    if (!template)
      throw new Error(`the control plane of tenant ${target.tenant} keeps no data volume: nothing to restore into`);
    await this.core.createNamespacedPersistentVolumeClaim({
      namespace: target.namespace,
      body: {
        metadata: {
          name: claimName,
          namespace: target.namespace,
          labels: { app: "vcluster", release: target.release },
        },
        spec: template.spec,
      },
    });
    return claimName;
  }

  /** Follows `ref` until `done` says so (or throws), for at most the timeout. */
  private until(
    ref: ObjectRef,
    signal: AbortSignal | undefined,
    done: (object: ObservedObject | null) => boolean,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(deadline);
        signal?.removeEventListener("abort", aborted);
        tracker.stop();
        outcome();
      };
      const aborted = () => finish(() => reject(new Error(`stopped waiting for ${ref.kind} ${ref.name}`)));
      const tracker = new ObjectTracker(
        kubeObjectStream(this.kubeConfig),
        ref,
        (object) => {
          try {
            if (done(object)) finish(resolve);
          } catch (error) {
            finish(() => reject(error));
          }
        },
        () => undefined,
      );
      const deadline = setTimeout(
        () =>
          finish(() => reject(new Error(`${ref.kind} ${ref.name} did not finish within ${this.timeoutMs / 1000}s`))),
        this.timeoutMs,
      );
      signal?.addEventListener("abort", aborted, { once: true });
      tracker.start();
    });
  }

  /** Runs a delete, taking "not found" for done. */
  private async gone(remove: () => Promise<unknown>): Promise<void> {
    await remove().catch((error: unknown) => {
      if ((error as { code?: number }).code !== 404) throw error;
    });
  }
}

/**
 * The restore pod's one container: the control plane's `syncer` container (its image, mounts, env
 * and security context) running `/vcluster restore` instead, with the storage options from Secret
 * `secret`, as vCluster's restore pod is made (pkg/snapshot/pod/pod.go).
 */
function restoreContainer(
  containers: readonly V1Container[],
  release: string,
  secret: string,
  fresh: boolean,
): V1Container {
  const syncer = containers.find((c) => c.name === "syncer");
  if (!syncer) throw new Error(`the control plane's pod template of ${release} has no syncer container`);
  const env = (syncer.env ?? []).filter((e) => e.name !== "POD_NAME" && e.name !== "VCLUSTER_STORAGE_OPTIONS");
  return {
    name: "snapshot",
    image: syncer.image,
    imagePullPolicy: syncer.imagePullPolicy,
    command: ["/vcluster", "restore", ...(fresh ? ["--new-vcluster"] : [])],
    args: [],
    env: [
      ...env,
      { name: "POD_NAME", value: `${release}-0` },
      { name: "VCLUSTER_STORAGE_OPTIONS", valueFrom: { secretKeyRef: { name: secret, key: "options" } } },
    ],
    volumeMounts: syncer.volumeMounts,
    securityContext: syncer.securityContext,
    resources: syncer.resources,
  };
}
