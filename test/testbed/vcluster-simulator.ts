/**
 * vCluster STAND-IN simulator for the kubespaces test bed.
 *
 * The real loft-sh/vcluster 0.36.1 control plane cannot run in the test bed
 * (KWOK fakes pods; nothing executes containers). The stand-in chart
 * (test/fixtures/vcluster-stand-in) renders the same workload; this process
 * plays the part of the running vCluster: once the workload labelled
 * `app=vcluster` is ready for its current generation, it waits
 * KUBESPACES_SIMULATOR_DELAY_MS (default 1000) and writes the kubeconfig
 * Secret `vc-<release>` the way vCluster does (labels app=vcluster,
 * vcluster-name=<release>; keys config, certificate-authority,
 * client-certificate, client-key, token).
 *
 * The kubeconfig's `server` is exactly what the chart values asked for
 * (exportKubeConfig.server, else https://localhost:8443 like the real
 * chart); its context name is exportKubeConfig.context (else my-vcluster).
 * Its credentials are the test bed's admin (CA, client cert/key, token), so
 * they work against the test bed's API server: tests point the same
 * kubeconfig at the URL in the Secret's annotation
 * `kubespaces.io/stand-in-testbed-server` (also $KUBESPACES_TESTBED_SERVER).
 *
 * No Secret is written while the workload has the annotation, or its
 * namespace the label, `kubespaces.io/stand-in-withhold-secret=true` (tests
 * use it to make readiness never come).
 *
 * Uses list+watch (no polling) on StatefulSets, Deployments (the real chart
 * renders a Deployment when persistence is off) and Namespaces; re-lists and
 * re-watches after errors such as an API server restart.
 *
 * Run: KUBECONFIG=<testbed>/kubeconfig npx tsx test/testbed/vcluster-simulator.ts
 * (testbed.sh up starts it; down stops it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as k8s from "@kubernetes/client-node";
import { stringify } from "yaml";

const TAG = "[vcluster stand-in simulator]";
const WITHHOLD = "kubespaces.io/stand-in-withhold-secret";
const SERVER_ANNOTATION = "kubespaces.io/stand-in-export-server";
const CONTEXT_ANNOTATION = "kubespaces.io/stand-in-export-context";
const INSECURE_ANNOTATION = "kubespaces.io/stand-in-export-insecure";
const TESTBED_SERVER_ANNOTATION = "kubespaces.io/stand-in-testbed-server";
const DEFAULT_SERVER = "https://localhost:8443";
const DEFAULT_CONTEXT = "my-vcluster";
const DELAY_MS = Number(process.env.KUBESPACES_SIMULATOR_DELAY_MS ?? "1000");
const WATCH_TIMEOUT_SECONDS = 300;

function log(msg: string): void {
  console.log(`${new Date().toISOString()} ${TAG} ${msg}`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const core = kc.makeApiClient(k8s.CoreV1Api);
const apps = kc.makeApiClient(k8s.AppsV1Api);
const watcher = new k8s.Watch(kc);

/** The test bed admin credentials that the written kubeconfigs carry. */
interface Credentials {
  server: string;
  ca: string;
  cert: string;
  key: string;
  token: string;
}

function b64(s: string): string {
  return Buffer.from(s).toString("base64");
}

function readCredentials(): Credentials {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  if (!cluster || !user) throw new Error("kubeconfig has no current cluster/user");
  const fromData = (data?: string, file?: string) =>
    data ? Buffer.from(data, "base64").toString() : file ? fs.readFileSync(file, "utf8") : "";
  const dir = process.env.KUBESPACES_TESTBED_DIR;
  const tokenFile = dir ? path.join(dir, "pki", "admin.token") : "";
  return {
    server: cluster.server,
    ca: fromData(cluster.caData, cluster.caFile),
    cert: fromData(user.certData, user.certFile),
    key: fromData(user.keyData, user.keyFile),
    token: tokenFile && fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, "utf8").trim() : (user.token ?? ""),
  };
}

const creds = readCredentials();

type Workload = k8s.V1StatefulSet | k8s.V1Deployment;

/** Latest seen workloads (kind/namespace/name) and namespace labels. */
const workloads = new Map<string, { kind: string; obj: Workload }>();
const nsLabels = new Map<string, Record<string, string>>();
const timers = new Map<string, NodeJS.Timeout>();

const keyOf = (kind: string, o: Workload) => `${kind}/${o.metadata?.namespace}/${o.metadata?.name}`;
const releaseOf = (o: Workload) => o.metadata?.labels?.release ?? o.metadata?.name ?? "";

function isReady(o: Workload): boolean {
  const want = o.spec?.replicas ?? 1;
  const st = o.status;
  if (!st || want < 1) return false;
  if ((st.observedGeneration ?? 0) < (o.metadata?.generation ?? 0)) return false;
  return (st.readyReplicas ?? 0) >= want && (st.replicas ?? 0) === want && (st.updatedReplicas ?? want) >= want;
}

function withheld(o: Workload): boolean {
  if (o.metadata?.annotations?.[WITHHOLD] === "true") return true;
  return nsLabels.get(o.metadata?.namespace ?? "")?.[WITHHOLD] === "true";
}

function kubeconfigFor(o: Workload): { config: string; server: string; context: string } {
  const a = o.metadata?.annotations ?? {};
  const server = a[SERVER_ANNOTATION] || DEFAULT_SERVER;
  const context = a[CONTEXT_ANNOTATION] || DEFAULT_CONTEXT;
  const insecure = a[INSECURE_ANNOTATION] === "true";
  const cluster: Record<string, unknown> = { server };
  if (insecure) cluster["insecure-skip-tls-verify"] = true;
  else cluster["certificate-authority-data"] = b64(creds.ca);
  const config = stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: context, cluster }],
    contexts: [{ name: context, context: { cluster: context, user: context } }],
    "current-context": context,
    preferences: {},
    users: [
      {
        name: context,
        user: { "client-certificate-data": b64(creds.cert), "client-key-data": b64(creds.key) },
      },
    ],
  });
  return { config, server, context };
}

function isNotFound(e: unknown): boolean {
  const err = e as { code?: number; statusCode?: number; body?: unknown };
  return err?.code === 404 || err?.statusCode === 404;
}

async function writeSecret(kind: string, o: Workload): Promise<void> {
  const namespace = o.metadata!.namespace!;
  const release = releaseOf(o);
  const name = `vc-${release}`;
  const { config, server, context } = kubeconfigFor(o);
  const data: Record<string, string> = {
    config: b64(config),
    "certificate-authority": b64(creds.ca),
    "client-certificate": b64(creds.cert),
    "client-key": b64(creds.key),
    token: b64(creds.token),
  };
  const body: k8s.V1Secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: {
      name,
      namespace,
      labels: { app: "vcluster", "vcluster-name": release },
      annotations: {
        "kubespaces.io/stand-in": "written by the vCluster stand-in simulator (kubespaces test bed), not by vCluster",
        [TESTBED_SERVER_ANNOTATION]: creds.server,
      },
    },
    type: "Opaque",
    data,
  };
  let existing: k8s.V1Secret | undefined;
  try {
    existing = await core.readNamespacedSecret({ name, namespace });
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  if (!existing) {
    await core.createNamespacedSecret({ namespace, body });
    log(`wrote Secret ${namespace}/${name} for ${kind} ${namespace}/${o.metadata?.name} (server ${server}, context ${context})`);
    return;
  }
  const same = Object.keys(data).every((k) => existing!.data?.[k] === data[k]);
  if (same) return;
  body.metadata!.resourceVersion = existing.metadata?.resourceVersion;
  await core.replaceNamespacedSecret({ name, namespace, body });
  log(`updated Secret ${namespace}/${name} for ${kind} ${namespace}/${o.metadata?.name} (server ${server}, context ${context})`);
}

/** Re-evaluate one workload: schedule the Secret write once it is ready. */
function evaluate(key: string): void {
  const entry = workloads.get(key);
  const pending = timers.get(key);
  if (!entry || !isReady(entry.obj) || withheld(entry.obj)) {
    if (pending) {
      clearTimeout(pending);
      timers.delete(key);
    }
    if (entry && isReady(entry.obj) && withheld(entry.obj)) log(`withholding Secret for ${key} (${WITHHOLD}=true)`);
    return;
  }
  if (pending) return;
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key);
      const latest = workloads.get(key);
      // Check again: the workload may have changed during the delay.
      if (!latest || !isReady(latest.obj) || withheld(latest.obj)) return;
      writeSecret(latest.kind, latest.obj).catch((e) => {
        log(`failed to write Secret for ${key}: ${String((e as Error)?.message ?? e)}; retrying in 2s`);
        setTimeout(() => evaluate(key), 2000);
      });
    }, DELAY_MS),
  );
}

interface Listed<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

/**
 * List then watch `watchPath` forever. On a closed watch, re-watch from the
 * last resourceVersion; on an error (API server down, 410 Gone) wait and
 * re-list.
 */
async function listWatch<T extends { metadata?: k8s.V1ObjectMeta }>(
  what: string,
  watchPath: string,
  labelSelector: string | undefined,
  list: () => Promise<Listed<T>>,
  onEvent: (type: "ADDED" | "MODIFIED" | "DELETED" | "SYNC", obj: T) => void,
  onRelist: (items: T[]) => void,
): Promise<never> {
  let rv = "";
  let failures = 0;
  for (;;) {
    try {
      if (!rv) {
        const l = await list();
        onRelist(l.items);
        for (const item of l.items) onEvent("SYNC", item);
        rv = l.metadata?.resourceVersion ?? "";
        if (failures > 0) log(`re-listed ${what} after ${failures} failed attempt(s)`);
        failures = 0;
      }
      await new Promise<void>((resolve, reject) => {
        const query: Record<string, string | number | boolean | undefined> = {
          resourceVersion: rv,
          allowWatchBookmarks: true,
          timeoutSeconds: WATCH_TIMEOUT_SECONDS,
        };
        if (labelSelector) query.labelSelector = labelSelector;
        watcher
          .watch(
            watchPath,
            query,
            (type: string, obj: T & { code?: number }) => {
              if (type === "ERROR") {
                if (obj.code === 410) rv = ""; // expired: re-list
                return;
              }
              if (obj.metadata?.resourceVersion) rv = obj.metadata.resourceVersion;
              if (type === "ADDED" || type === "MODIFIED" || type === "DELETED") onEvent(type, obj);
            },
            (err: unknown) => (err ? reject(err) : resolve()),
          )
          .catch(reject);
      });
    } catch (e) {
      failures++;
      const err = e as { code?: number; statusCode?: number; message?: string };
      if (err?.code === 410 || err?.statusCode === 410) rv = "";
      else rv = ""; // after an error, re-list: events may have been missed
      if (failures === 1 || failures % 30 === 0) {
        log(`watch of ${what} failed (${err?.message ?? String(e)}); re-listing (attempt ${failures})`);
      }
      await sleep(Math.min(1000 * failures, 5000));
    }
  }
}

function watchWorkloads(kind: "StatefulSet" | "Deployment"): Promise<never> {
  const resource = kind === "StatefulSet" ? "statefulsets" : "deployments";
  return listWatch<Workload>(
    `${resource} app=vcluster`,
    `/apis/apps/v1/${resource}`,
    "app=vcluster",
    () =>
      kind === "StatefulSet"
        ? apps.listStatefulSetForAllNamespaces({ labelSelector: "app=vcluster" })
        : apps.listDeploymentForAllNamespaces({ labelSelector: "app=vcluster" }),
    (type, obj) => {
      const key = keyOf(kind, obj);
      if (type === "DELETED") {
        workloads.delete(key);
      } else {
        if (type === "ADDED") log(`watching ${kind} ${obj.metadata?.namespace}/${obj.metadata?.name}`);
        workloads.set(key, { kind, obj });
      }
      evaluate(key);
    },
    (items) => {
      // Forget workloads deleted while the watch was down.
      const live = new Set(items.map((o) => keyOf(kind, o)));
      for (const key of [...workloads.keys()]) {
        if (key.startsWith(`${kind}/`) && !live.has(key)) {
          workloads.delete(key);
          evaluate(key);
        }
      }
    },
  );
}

// Workload events wait for the first namespace list, so that a namespace's
// withhold label is known before any Secret could be written.
let namespacesListed!: () => void;
const namespacesSynced = new Promise<void>((resolve) => (namespacesListed = resolve));

function watchNamespaces(): Promise<never> {
  return listWatch<k8s.V1Namespace>(
    "namespaces",
    "/api/v1/namespaces",
    undefined,
    () => core.listNamespace(),
    (type, ns) => {
      const name = ns.metadata?.name ?? "";
      const before = nsLabels.get(name)?.[WITHHOLD];
      if (type === "DELETED") nsLabels.delete(name);
      else nsLabels.set(name, ns.metadata?.labels ?? {});
      if (nsLabels.get(name)?.[WITHHOLD] !== before) {
        for (const key of workloads.keys()) if (key.split("/")[1] === name) evaluate(key);
      }
    },
    () => namespacesListed(),
  );
}

process.on("SIGTERM", () => {
  log("stopping (SIGTERM)");
  process.exit(0);
});
process.on("SIGINT", () => {
  log("stopping (SIGINT)");
  process.exit(0);
});
process.on("unhandledRejection", (e) => log(`unhandled rejection: ${String((e as Error)?.message ?? e)}`));

log(`starting: API ${creds.server}, delay ${DELAY_MS} ms; stand-in for loft-sh/vcluster 0.36.1`);
void watchNamespaces();
void namespacesSynced.then(() => {
  void watchWorkloads("StatefulSet");
  void watchWorkloads("Deployment");
});
