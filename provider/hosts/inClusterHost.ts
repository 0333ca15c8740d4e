/**
 * The cluster the server's pod runs in, as its host, reached as the pod's ServiceAccount. client-node's
 * `loadFromCluster` finds the API server (`KUBERNETES_SERVICE_HOST` and `_PORT`), its CA and the
 * token file the kubelet mounts; the kubeconfig handed on names that token FILE (`tokenFile`), not
 * its contents, so that every reader follows the kubelet's rotation: the Kubernetes provider
 * (client-go reads a token file again every minute) and client-node in the server and the
 * lifecycle operations (loadHostKubeConfig gives it the file authenticator, likewise once a
 * minute). No token is copied, and none lands in a stack's state.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { stringify } from "yaml";
import type { HostPort, HostTarget } from "../tenants/ports";

/** Where the kubelet mounts a pod's ServiceAccount token, CA and namespace. */
export const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

/**
 * Whether this process runs in a pod with a ServiceAccount token: the API server's address in its
 * environment (client-node reads it there) and the token file mounted under `root`.
 */
export function runsInPod(root = ""): boolean {
  return Boolean(process.env.KUBERNETES_SERVICE_HOST) && existsSync(path.join(root, SERVICE_ACCOUNT_DIR, "token"));
}

/**
 * The cluster this pod runs in as a host; undefined outside a pod. `root` is where the file system
 * the kubelet mounts into begins (a test passes a folder of fake ServiceAccount files).
 */
export function inClusterHost(root = ""): HostPort | undefined {
  if (!runsInPod(root)) return undefined;
  return {
    async resolve(progress) {
      const { kubeconfig, namespace } = inClusterKubeconfig(root);
      progress(`reaching the cluster this pod runs in as its ServiceAccount (namespace ${namespace})`);
      return { description: "the cluster this pod runs in", kubeconfig, engineEnv: {} } satisfies HostTarget;
    },
    // The engine's pulumi, plugins and PULUMI_HOME come from the pod's own environment (the image).
    engineEnvForReads: () => ({}),
  };
}

/** The pod's host kubeconfig (client-go's form, its user a `tokenFile`), and the pod's namespace. */
export function inClusterKubeconfig(root = ""): { readonly kubeconfig: string; readonly namespace: string } {
  const inCluster = new KubeConfig();
  inCluster.loadFromCluster(root);
  const cluster = inCluster.getCurrentCluster();
  const tokenFile: unknown = inCluster.getCurrentUser()?.authProvider?.config?.tokenFile;
  if (!cluster || typeof tokenFile !== "string")
    throw new Error("kubespaces: client-node's in-cluster configuration has no cluster or token file");
  const namespace = inCluster.getContextObject(inCluster.getCurrentContext())?.namespace?.trim() || "default";
  const kubeconfig = stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "in-cluster", cluster: { server: cluster.server, "certificate-authority": cluster.caFile } }],
    users: [{ name: "service-account", user: { tokenFile } }],
    contexts: [{ name: "in-cluster", context: { cluster: "in-cluster", user: "service-account", namespace } }],
    "current-context": "in-cluster",
  });
  return { kubeconfig, namespace };
}
