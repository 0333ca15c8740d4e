/**
 * The test bed's vCluster runner: the parts of a node that KWOK does not fake, for vCluster pods.
 *
 * 1. Kubelet part: when KWOK reports a vCluster control-plane pod Running (a pod with a `syncer`
 *    container and a `vcluster-config` volume, as chart/templates/statefulset.yaml renders it),
 *    run that pod's real control plane as local processes (`testbed.sh run-vcluster-pod NS POD`,
 *    lib/vclusterPod.sh), restart it with a back-off when it exits while its pod lives, and stop it
 *    (TERM to its process group) when the pod is deleted or goes.
 * 2. Test-bed static provisioner: nothing provisions volumes here, so a PersistentVolumeClaim left
 *    Pending without a volume gets a hostPath PersistentVolume of its size under the run dir,
 *    pre-bound to it (claimRef), labelled `kubespaces.io/testbed-provisioned=true`. When the claim
 *    is deleted and its volume is Released, the volume and its directory are deleted, as a
 *    dynamic provisioner's `Delete` reclaim policy would.
 *
 * The `snapshot` container of vCluster's restore pod (pkg/snapshot/pod/pod.go: the control plane's
 * volumes, `/vcluster restore`) runs the same way, once: when it exits, its pod's phase becomes
 * Succeeded or Failed with the exit code, as a kubelet reports a pod whose restartPolicy is Never.
 *
 * Test-bed hook (not vCluster): while the pod's workload (the Deployment or StatefulSet named after
 * its `release` label) carries the annotation `kubespaces.io/testbed-hold-control-plane: "true"`,
 * its control plane is not started, as on a node that cannot start the container; it starts when
 * the annotation goes. End-to-end tests use it to make a virtual cluster late.
 *
 * List+watch, no polling; re-lists after errors (e.g. an API server restart).
 * Run by `testbed.sh up` (KUBECONFIG and KUBESPACES_TESTBED_DIR set); stopped by `testbed.sh down`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as k8s from "@kubernetes/client-node";

const RUN_DIR = process.env.KUBESPACES_TESTBED_DIR ?? path.resolve(__dirname, "../../.testbed");
const TESTBED = path.join(__dirname, "testbed.sh");
const VOLUMES_DIR = path.join(RUN_DIR, "volumes");
const PROVISIONED = "kubespaces.io/testbed-provisioned";
const HOLD = "kubespaces.io/testbed-hold-control-plane";
const MAX_BACKOFF_MS = 60_000;

const log = (msg: string) => console.log(`${new Date().toISOString()} [vcluster-runner] ${msg}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const watcher = new k8s.Watch(kc);

// ---------------------------------------------------------------------------------------------
// Kubelet part
// ---------------------------------------------------------------------------------------------

interface ControlPlane {
  readonly namespace: string;
  readonly pod: string;
  child?: ChildProcess;
  stopping: boolean;
  restarts: number;
  restartTimer?: NodeJS.Timeout;
  /** A restore pod's container: run once, its exit reported as the pod's phase. */
  readonly once: boolean;
}

/** Running (or restarting) control planes by pod UID. */
const controlPlanes = new Map<string, ControlPlane>();
/** Pods whose control plane is held by their workload's annotation, by pod UID. */
const heldPods = new Map<string, k8s.V1Pod>();
/** Annotations of the vCluster workloads, by "<kind>/<namespace>/<name>". */
const workloadAnnotations = new Map<string, Record<string, string>>();

function held(pod: k8s.V1Pod): boolean {
  const release = pod.metadata?.labels?.release ?? "";
  return ["StatefulSet", "Deployment"].some(
    (kind) => workloadAnnotations.get(`${kind}/${pod.metadata?.namespace}/${release}`)?.[HOLD] === "true",
  );
}

const hasConfig = (pod: k8s.V1Pod) => (pod.spec?.volumes ?? []).some((v) => v.name === "vcluster-config" && v.secret);
const isControlPlanePod = (pod: k8s.V1Pod) =>
  (pod.spec?.containers ?? []).some((c) => c.name === "syncer") && hasConfig(pod);
/** vCluster's restore pod: its one container `snapshot`, with the control plane's volumes. */
const isRestorePod = (pod: k8s.V1Pod) =>
  (pod.spec?.containers ?? []).some((c) => c.name === "snapshot") && hasConfig(pod);

function podDir(namespace: string, pod: string): string {
  return path.join(RUN_DIR, "vclusters", namespace, pod);
}

function start(uid: string, cp: ControlPlane): void {
  const dir = podDir(cp.namespace, cp.pod);
  fs.mkdirSync(dir, { recursive: true });
  // The log outlives the pod's directory (an emptyDir goes with its pod), for post-mortems.
  const logFile = path.join(RUN_DIR, "logs", `vcluster-${cp.namespace}-${cp.pod}.log`);
  const out = fs.openSync(logFile, "a");
  // Its own process group, so that TERM reaches the forwarders and the control plane's namespace.
  const child = spawn("bash", [TESTBED, "run-vcluster-pod", cp.namespace, cp.pod], {
    detached: true,
    stdio: ["ignore", out, out],
  });
  fs.closeSync(out);
  cp.child = child;
  fs.writeFileSync(path.join(dir, "pid"), String(child.pid));
  log(`started control plane of ${cp.namespace}/${cp.pod} (pid ${child.pid}, log ${logFile})`);
  child.on("exit", (code, signal) => {
    fs.rmSync(path.join(dir, "pid"), { force: true });
    cp.child = undefined;
    if (cp.once && !cp.stopping && controlPlanes.has(uid)) {
      log(`restore pod ${cp.namespace}/${cp.pod} exited (${signal ?? code})`);
      void reportExit(cp, code ?? 1);
      return;
    }
    if (cp.stopping || !controlPlanes.has(uid)) {
      log(`control plane of ${cp.namespace}/${cp.pod} stopped`);
      fs.rmSync(dir, { recursive: true, force: true });
      controlPlanes.delete(uid);
      return;
    }
    // As a kubelet restarts a crashed container: with a growing back-off.
    const delay = Math.min(1000 * 2 ** cp.restarts, MAX_BACKOFF_MS);
    cp.restarts++;
    log(`control plane of ${cp.namespace}/${cp.pod} exited (${signal ?? code}); restarting in ${delay} ms`);
    cp.restartTimer = setTimeout(() => start(uid, cp), delay);
  });
}

/** Reports a one-shot container's exit as its pod's phase, as a kubelet does for restartPolicy Never. */
async function reportExit(cp: ControlPlane, exitCode: number): Promise<void> {
  const pod = await core.readNamespacedPod({ namespace: cp.namespace, name: cp.pod });
  const finishedAt = new Date();
  const status: k8s.V1PodStatus = {
    ...pod.status,
    phase: exitCode === 0 ? "Succeeded" : "Failed",
    conditions: (pod.status?.conditions ?? []).map((c) =>
      c.type === "Ready" || c.type === "ContainersReady" ? { ...c, status: "False", reason: "PodCompleted" } : c,
    ),
    containerStatuses: (pod.status?.containerStatuses ?? []).map((s) => ({
      ...s,
      ready: false,
      started: false,
      state: { terminated: { exitCode, reason: exitCode === 0 ? "Completed" : "Error", finishedAt } },
    })),
  };
  try {
    await core.replaceNamespacedPodStatus({ namespace: cp.namespace, name: cp.pod, body: { ...pod, status } });
  } catch (e) {
    log(`could not report the exit of ${cp.namespace}/${cp.pod}: ${(e as Error).message}`);
  }
}

function stop(uid: string): void {
  const cp = controlPlanes.get(uid);
  if (!cp || cp.stopping) return;
  cp.stopping = true;
  clearTimeout(cp.restartTimer);
  if (!cp.child?.pid) {
    controlPlanes.delete(uid);
    fs.rmSync(podDir(cp.namespace, cp.pod), { recursive: true, force: true });
    return;
  }
  log(`stopping control plane of ${cp.namespace}/${cp.pod}`);
  try {
    process.kill(-cp.child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

function onPod(type: string, pod: k8s.V1Pod): void {
  const uid = pod.metadata?.uid ?? "";
  const once = isRestorePod(pod);
  if (!uid || !(isControlPlanePod(pod) || once)) return;
  const gone = type === "DELETED" || pod.metadata?.deletionTimestamp !== undefined;
  heldPods.delete(uid);
  if (gone) return stop(uid);
  if (controlPlanes.has(uid)) return;
  if (pod.status?.phase !== "Running" || !pod.status.podIP) return;
  // A restore pod that ran already: nothing more to run for it.
  if (once && (pod.status.containerStatuses ?? []).some((s) => s.state?.terminated)) return;
  if (held(pod)) {
    heldPods.set(uid, pod);
    return log(
      `holding control plane of ${pod.metadata?.namespace}/${pod.metadata?.name} (${HOLD}=true on its workload)`,
    );
  }
  const cp: ControlPlane = {
    namespace: pod.metadata!.namespace!,
    pod: pod.metadata!.name!,
    stopping: false,
    restarts: 0,
    once,
  };
  controlPlanes.set(uid, cp);
  start(uid, cp);
}

/** After a re-list: stop what runs for pods that went while the watch was down. */
function onPodRelist(pods: k8s.V1Pod[]): void {
  const live = new Set(pods.map((p) => p.metadata?.uid));
  for (const uid of controlPlanes.keys()) if (!live.has(uid)) stop(uid);
}

function onWorkload(kind: string, type: string, workload: k8s.V1Deployment | k8s.V1StatefulSet): void {
  const key = `${kind}/${workload.metadata?.namespace}/${workload.metadata?.name}`;
  if (type === "DELETED") workloadAnnotations.delete(key);
  else workloadAnnotations.set(key, workload.metadata?.annotations ?? {});
  for (const pod of [...heldPods.values()]) onPod("MODIFIED", pod);
}

// ---------------------------------------------------------------------------------------------
// Test-bed static provisioner
// ---------------------------------------------------------------------------------------------

async function provision(pvc: k8s.V1PersistentVolumeClaim): Promise<void> {
  const uid = pvc.metadata?.uid ?? "";
  if (!uid || pvc.spec?.volumeName || pvc.status?.phase !== "Pending" || pvc.metadata?.deletionTimestamp) return;
  const name = `testbed-pv-${uid}`;
  const dir = path.join(VOLUMES_DIR, uid);
  fs.mkdirSync(dir, { recursive: true });
  const body: k8s.V1PersistentVolume = {
    metadata: { name, labels: { [PROVISIONED]: "true" } },
    spec: {
      capacity: { storage: pvc.spec?.resources?.requests?.storage ?? "1Gi" },
      accessModes: pvc.spec?.accessModes ?? ["ReadWriteOnce"],
      volumeMode: pvc.spec?.volumeMode ?? "Filesystem",
      storageClassName: pvc.spec?.storageClassName ?? "",
      persistentVolumeReclaimPolicy: "Retain",
      hostPath: { path: dir, type: "Directory" },
      claimRef: {
        apiVersion: "v1",
        kind: "PersistentVolumeClaim",
        namespace: pvc.metadata!.namespace,
        name: pvc.metadata!.name,
        uid,
      },
    },
  };
  try {
    await core.createPersistentVolume({ body });
    log(
      `provisioned PersistentVolume ${name} (${body.spec!.capacity!.storage}, ${dir}) for claim ${pvc.metadata!.namespace}/${pvc.metadata!.name}`,
    );
  } catch (e) {
    if ((e as { code?: number }).code !== 409) log(`could not provision ${name}: ${(e as Error).message}`);
  }
}

async function reclaim(pv: k8s.V1PersistentVolume): Promise<void> {
  if (pv.metadata?.labels?.[PROVISIONED] !== "true" || pv.status?.phase !== "Released") return;
  const name = pv.metadata.name!;
  try {
    await core.deletePersistentVolume({ name });
    if (pv.spec?.hostPath?.path?.startsWith(VOLUMES_DIR))
      fs.rmSync(pv.spec.hostPath.path, { recursive: true, force: true });
    log(`deleted Released PersistentVolume ${name} and its directory`);
  } catch (e) {
    if ((e as { code?: number }).code !== 404) log(`could not delete ${name}: ${(e as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// List + watch
// ---------------------------------------------------------------------------------------------

interface Listed<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

/** List, then watch from the list's resourceVersion, forever; re-list after any error. */
async function listWatch<T extends { metadata?: k8s.V1ObjectMeta }>(
  what: string,
  watchPath: string,
  query: Record<string, string>,
  list: () => Promise<Listed<T>>,
  onEvent: (type: string, obj: T) => void,
  onRelist: (items: T[]) => void = () => undefined,
  listed: () => void = () => undefined,
): Promise<never> {
  let failures = 0;
  for (;;) {
    try {
      const page = await list();
      onRelist(page.items);
      for (const item of page.items) onEvent("ADDED", item);
      listed();
      let rv = page.metadata?.resourceVersion ?? "";
      if (failures > 0) log(`re-listed ${what} after ${failures} failed attempt(s)`);
      failures = 0;
      log(`watching ${what}`);
      for (;;) {
        await new Promise<void>((resolve, reject) => {
          watcher
            .watch(
              watchPath,
              { ...query, resourceVersion: rv, allowWatchBookmarks: "true", timeoutSeconds: "300" },
              (type: string, obj: T & { code?: number }) => {
                if (type === "ERROR") return reject(new Error(`watch error ${obj.code}`));
                if (obj.metadata?.resourceVersion) rv = obj.metadata.resourceVersion;
                if (type !== "BOOKMARK") onEvent(type, obj);
              },
              (err: unknown) => (err ? reject(err) : resolve()),
            )
            .catch(reject);
        });
      }
    } catch (e) {
      failures++;
      if (failures === 1 || failures % 30 === 0)
        log(`watch of ${what} failed (${(e as Error)?.message ?? e}); re-listing (attempt ${failures})`);
      await sleep(Math.min(1000 * failures, 5000));
    }
  }
}

function shutdown(signal: string): void {
  log(`stopping (${signal}): ${controlPlanes.size} control plane(s)`);
  for (const uid of [...controlPlanes.keys()]) stop(uid);
  const waitForChildren = () => {
    if ([...controlPlanes.values()].every((cp) => !cp.child)) process.exit(0);
    setTimeout(waitForChildren, 100);
  };
  waitForChildren();
  setTimeout(() => process.exit(0), 15_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("unhandledRejection", (e) => log(`unhandled rejection: ${(e as Error)?.message ?? e}`));

log(`starting: run dir ${RUN_DIR}`);
const byApp = { labelSelector: "app=vcluster" };
/** The control planes' pods, and vCluster's restore pods (pkg/snapshot/pod/pod.go labels them app=vcluster-snapshot). */
const vclusterPods = { labelSelector: "app in (vcluster,vcluster-snapshot)" };
// Pods are evaluated once both workload kinds are listed, so that a hold is known before a start.
let workloadKindsListed = 0;
const watchPods = () => {
  if (++workloadKindsListed !== 2) return;
  void listWatch<k8s.V1Pod>(
    "vCluster pods (app=vcluster) and restore pods (app=vcluster-snapshot)",
    "/api/v1/pods",
    vclusterPods,
    () => core.listPodForAllNamespaces(vclusterPods),
    onPod,
    onPodRelist,
  );
};
// The vCluster's workload is a Deployment or a StatefulSet, as its chart's values choose.
const workloadKinds = [
  { kind: "Deployment", path: "/apis/apps/v1/deployments", list: () => apps.listDeploymentForAllNamespaces(byApp) },
  { kind: "StatefulSet", path: "/apis/apps/v1/statefulsets", list: () => apps.listStatefulSetForAllNamespaces(byApp) },
];
for (const { kind, path, list } of workloadKinds)
  void listWatch<k8s.V1Deployment | k8s.V1StatefulSet>(
    `vCluster ${kind}s`,
    path,
    byApp,
    list,
    (type, w) => onWorkload(kind, type, w),
    undefined,
    watchPods,
  );
void listWatch<k8s.V1PersistentVolumeClaim>(
  "PersistentVolumeClaims",
  "/api/v1/persistentvolumeclaims",
  {},
  () => core.listPersistentVolumeClaimForAllNamespaces(),
  (type, pvc) => {
    if (type !== "DELETED") void provision(pvc);
  },
);
void listWatch<k8s.V1PersistentVolume>(
  "PersistentVolumes",
  "/api/v1/persistentvolumes",
  { labelSelector: `${PROVISIONED}=true` },
  () => core.listPersistentVolume({ labelSelector: `${PROVISIONED}=true` }),
  (type, pv) => {
    if (type !== "DELETED") void reclaim(pv);
  },
);
