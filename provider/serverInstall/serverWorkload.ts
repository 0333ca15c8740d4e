/**
 * The server's Deployment and PodDisruptionBudget. The pods meet Pod Security `restricted`: no
 * root, no privilege escalation, no capabilities, the runtime's seccomp profile, and a read-only
 * root file system with two emptyDirs for what the server and the Pulumi engine write. They run as
 * the installation's ServiceAccount, whose token the kubelet mounts and rotates: the server reads
 * that file (provider/hosts/inClusterHost.ts), never a copy.
 */
import { createHash } from "node:crypto";
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { API_ROUTES } from "../contracts/tenantsApi";
import type { KubeObject } from "../tenantResource/kubeObject";
import type { ServerInstallOptions } from "./serverInstallOptions";
import {
  CONFIG_DIGEST_ANNOTATION,
  SERVER_SECRET_KEYS,
  SERVER_CONFIG_MAP_NAME,
  SERVER_LABELS,
  SERVER_SELECTOR,
  SERVER_WORKLOAD_NAME,
} from "./serverObjectNames";
import {
  CONFIG_DIR,
  CONFIG_FILE,
  KUBESPACES_HOME,
  PASSPHRASE_DIR,
  PULUMI_HOME,
  SERVER_UID,
  SIGN_IN_SECRETS_DIR,
  WORK_DIR,
} from "./serverPodLayout";

/**
 * The readiness route: it fails until the replica meets SERVER_READINESS_CONDITIONS
 * (provider/server/readiness.ts). Liveness is API_ROUTES.health.
 */
export const READINESS_PATH = "/readyz";

/** The container port's name, which the probes and the Service target. */
export const HTTP_PORT = "http";

/** The metrics' container port's name, which the Service's metrics port targets. */
export const METRICS_PORT_NAME = "metrics";

/** Owner and group may read the Secret's files: the pod's fsGroup is the server's group. */
const SECRET_FILE_MODE = 0o440;

const RUNTIME_DEFAULT_SECCOMP = { type: "RuntimeDefault" } as const;

/** Every container's security context: what Pod Security `restricted` asks, and a read-only root. */
export const CONTAINER_SECURITY_CONTEXT = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ["ALL"] },
  seccompProfile: RUNTIME_DEFAULT_SECCOMP,
} as const;

/** The pod's security context: the image's user, which owns what it writes in the emptyDirs. */
export const POD_SECURITY_CONTEXT = {
  runAsNonRoot: true,
  runAsUser: SERVER_UID,
  runAsGroup: SERVER_UID,
  fsGroup: SERVER_UID,
  seccompProfile: RUNTIME_DEFAULT_SECCOMP,
} as const;

const VOLUMES = { config: "config", signIn: "sign-in", passphrase: "state-passphrase", work: "work", tmp: "tmp" };

/**
 * The emptyDirs' size limits: past one, the kubelet evicts the pod rather than let it fill the
 * node's disk. The work folder holds each tenant's workspace (a few KiB each; measured: 2.4 MiB
 * for a server that kept its stacks there too) and Helm's caches (a chart repository's index, a
 * few MiB); /tmp the engine's temporary files. Together within the container's default limit.
 */
const WORK_SIZE_LIMIT = "1Gi";
const TMP_SIZE_LIMIT = "512Mi";

/** The init container copies one small file: it needs next to nothing. */
const HOME_CONTAINER_RESOURCES = {
  requests: { cpu: "10m", memory: "16Mi", "ephemeral-storage": "1Mi" },
  limits: { memory: "64Mi", "ephemeral-storage": "16Mi" },
};

/**
 * The home's init container: the stacks' passphrase copied from the Secret into `$KUBESPACES_HOME`,
 * owned by the server's user with mode 0400, as the home's trust check requires (a Secret's files
 * belong to root). Every replica gets the same passphrase, so each can read every stack's secrets.
 * Kubernetes runs init containers again over the same emptyDir when it recreates a pod's sandbox,
 * and a second `cp` cannot open the read-only copy the first left: the copy goes to a fresh file,
 * renamed over the old one (a rename needs the folder's write permission, not the file's).
 */
const HOME_SCRIPT = [
  "umask 077",
  'mkdir -p "$KUBESPACES_HOME"',
  'rm -f "$KUBESPACES_HOME/passphrase.new"',
  `cp ${PASSPHRASE_DIR}/${SERVER_SECRET_KEYS.statePassphrase} "$KUBESPACES_HOME/passphrase.new"`,
  'chmod 0400 "$KUBESPACES_HOME/passphrase.new"',
  'mv -f "$KUBESPACES_HOME/passphrase.new" "$KUBESPACES_HOME/passphrase"',
].join(" && ");

/** The SHA-256 of the configuration file, in hex. */
export const configDigest = (configText: string): string => createHash("sha256").update(configText).digest("hex");

/** The Deployment of `options`, started with the configuration file `configText` (its digest rolls the pods). */
export function serverDeployment(options: ServerInstallOptions, configText: string): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: SERVER_WORKLOAD_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    spec: {
      replicas: options.replicas,
      selector: { matchLabels: SERVER_SELECTOR },
      template: {
        metadata: { labels: SERVER_LABELS, annotations: { [CONFIG_DIGEST_ANNOTATION]: configDigest(configText) } },
        spec: podSpec(options),
      },
    },
  };
}

function podSpec(options: ServerInstallOptions): Record<string, unknown> {
  return {
    serviceAccountName: serviceAccountOf(options),
    // The server reaches its host with this token (the kubelet rotates it).
    automountServiceAccountToken: true,
    enableServiceLinks: false,
    terminationGracePeriodSeconds: options.terminationGracePeriodSeconds,
    securityContext: POD_SECURITY_CONTEXT,
    // A preference, not a rule: a cluster with fewer schedulable nodes than replicas still runs them all.
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: "kubernetes.io/hostname",
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: SERVER_SELECTOR },
      },
    ],
    initContainers: [homeContainer(options)],
    containers: [serverContainer(options)],
    volumes: [
      { name: VOLUMES.config, configMap: { name: SERVER_CONFIG_MAP_NAME } },
      secretVolume(VOLUMES.signIn, options.secretName, [
        SERVER_SECRET_KEYS.portalClientSecret,
        SERVER_SECRET_KEYS.sessionKey,
      ]),
      secretVolume(VOLUMES.passphrase, options.secretName, [SERVER_SECRET_KEYS.statePassphrase]),
      { name: VOLUMES.work, emptyDir: { sizeLimit: WORK_SIZE_LIMIT } },
      { name: VOLUMES.tmp, emptyDir: { sizeLimit: TMP_SIZE_LIMIT } },
    ],
  };
}

/** The ServiceAccount the RBAC binds (installOptions refuses a user identity for a pod). */
function serviceAccountOf(options: ServerInstallOptions): string {
  const { server } = options.installation;
  if (!("serviceAccount" in server)) throw new Error("kubespaces: the server's pods need a ServiceAccount");
  return server.serviceAccount;
}

function homeContainer(options: ServerInstallOptions): Record<string, unknown> {
  return {
    name: "home",
    image: options.image,
    imagePullPolicy: options.imagePullPolicy,
    command: ["sh", "-c", HOME_SCRIPT],
    env: [{ name: "KUBESPACES_HOME", value: KUBESPACES_HOME }],
    resources: HOME_CONTAINER_RESOURCES,
    securityContext: CONTAINER_SECURITY_CONTEXT,
    volumeMounts: [
      { name: VOLUMES.passphrase, mountPath: PASSPHRASE_DIR, readOnly: true },
      { name: VOLUMES.work, mountPath: WORK_DIR },
    ],
  };
}

function serverContainer(options: ServerInstallOptions): Record<string, unknown> {
  const probe = (path: string, periodSeconds: number, failureThreshold: number) => ({
    httpGet: { path, port: HTTP_PORT },
    periodSeconds,
    timeoutSeconds: 5,
    failureThreshold,
  });
  const { credentialsSecret, credentialsSecretOptional } = options.stateBackend;
  return {
    name: "server",
    image: options.image,
    imagePullPolicy: options.imagePullPolicy,
    command: ["kubespaces"],
    // $(POD_NAME): each replica's identity among the replicas is its pod's name.
    args: ["server", "--config", CONFIG_FILE, "--backend", options.stateBackend.url, "--id", "$(POD_NAME)"],
    env: [
      { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
      { name: "HOME", value: WORK_DIR },
      { name: "KUBESPACES_HOME", value: KUBESPACES_HOME },
      { name: "PULUMI_HOME", value: PULUMI_HOME },
    ],
    ...(credentialsSecret && {
      envFrom: [{ secretRef: { name: credentialsSecret, ...(credentialsSecretOptional && { optional: true }) } }],
    }),
    ports: [
      { name: HTTP_PORT, containerPort: options.port, protocol: "TCP" },
      { name: METRICS_PORT_NAME, containerPort: METRICS_PORT, protocol: "TCP" },
    ],
    // Liveness waits for the start (the host reached, the HTTP front up): at most 5 minutes.
    startupProbe: probe(API_ROUTES.health, 5, 60),
    livenessProbe: probe(API_ROUTES.health, 10, 3),
    readinessProbe: probe(READINESS_PATH, 5, 3),
    resources: options.resources,
    securityContext: CONTAINER_SECURITY_CONTEXT,
    volumeMounts: [
      { name: VOLUMES.config, mountPath: CONFIG_DIR, readOnly: true },
      { name: VOLUMES.signIn, mountPath: SIGN_IN_SECRETS_DIR, readOnly: true },
      { name: VOLUMES.work, mountPath: WORK_DIR },
      { name: VOLUMES.tmp, mountPath: "/tmp" },
    ],
  };
}

function secretVolume(name: string, secretName: string, keys: readonly string[]): Record<string, unknown> {
  return {
    name,
    secret: { secretName, items: keys.map((key) => ({ key, path: key })), defaultMode: SECRET_FILE_MODE },
  };
}

/** At most one pod of the server away at a time in a voluntary disruption (a drain): the others serve. */
export function serverDisruptionBudget(options: ServerInstallOptions): KubeObject {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: SERVER_WORKLOAD_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    spec: { maxUnavailable: 1, selector: { matchLabels: SERVER_SELECTOR } },
  };
}
