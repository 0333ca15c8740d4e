/**
 * How a person reaches a tenant's API server, from its status: through the platform's gateway when
 * the tenant is exposed (its status then has an apps domain, and its API server URL is the
 * gateway's host), or, when it is not, only from inside the host cluster, at its Service. Then a
 * port-forward to that Service carries it to this machine, and the kubeconfig is used through the
 * forwarded port while TLS still checks the Service's name. The portal's tenant page and the
 * command's `tenant get` say it in these words.
 */
import { inClusterApiHost, inClusterApiUrl, releaseName, VCLUSTER_SERVICE_PORT } from "../model/names";

/** What a tenant's status says of how it is reached. */
export interface ReachStatus {
  /** Its API server URL, once it was provisioned. */
  readonly apiServerUrl?: string;
  /** The domain of its apps, when it is exposed. */
  readonly appsDomain?: string;
  /** Its host namespace, once it was provisioned. */
  readonly namespace?: string;
}

/** How a tenant is reached: not known yet, through the gateway, or from inside the host cluster only. */
export type ReachKind = "unknown" | "exposed" | "inCluster";

/**
 * How `status`'s tenant is reached. An API server URL without an apps domain is an unexposed
 * tenant's in-cluster URL: exposure gives a tenant both (render/tenantOutputs.ts). The portal's
 * script applies the same rule to the live status (static/portal.js, `reachOf`).
 */
export function reachKind(status: ReachStatus): ReachKind {
  if (!status.apiServerUrl) return "unknown";
  return status.appsDomain ? "exposed" : "inCluster";
}

/** The local port the port-forward carries the tenant's API server to. */
export const FORWARDED_PORT = 8443;

/** The kubeconfig's server through the port-forward. */
export const FORWARDED_SERVER = `https://127.0.0.1:${FORWARDED_PORT}`;

/** What reaching an unexposed tenant `name` in host namespace `namespace` takes: each a command or name to use as is. */
export interface InClusterReach {
  /** Where its API server answers inside the host cluster. */
  readonly apiServerUrl: string;
  /** The port-forward to its Service, run by someone with access to its host namespace. */
  readonly portForward: string;
  /** The name TLS checks through the forwarded port: the Service's. */
  readonly tlsServerName: string;
  /** kubectl with a downloaded kubeconfig (`file`) through the forwarded port. */
  readonly kubectl: (file: string) => string;
  /** The command that merges the kubeconfig to go through the forwarded port. */
  readonly merge: string;
}

/** How to reach unexposed tenant `name` whose host namespace is `namespace`. */
export function inClusterReach(name: string, namespace: string): InClusterReach {
  const service = releaseName(name);
  const tlsServerName = inClusterApiHost(service, namespace);
  return {
    apiServerUrl: inClusterApiUrl(service, namespace),
    portForward: `kubectl port-forward -n ${namespace} svc/${service} ${FORWARDED_PORT}:${VCLUSTER_SERVICE_PORT}`,
    tlsServerName,
    kubectl: (file) =>
      `kubectl --kubeconfig ${file} --server ${FORWARDED_SERVER} --tls-server-name ${tlsServerName} get namespaces`,
    merge: `kubespaces tenant kubeconfig ${name} --merge --server ${FORWARDED_SERVER}`,
  };
}

/** What an unexposed tenant is, for people. */
export const NOT_EXPOSED =
  "is not exposed outside the host cluster: its API server answers only inside it, at the URL its kubeconfig names";

/**
 * For the command: how to reach `name` when it is Ready and not exposed, as lines for stderr;
 * nothing otherwise. On the local test bed (`onTestbed`) the command forwards the port itself.
 */
export function reachHint(name: string, status: ReachStatus & { readonly phase: string }, onTestbed: boolean): string {
  if (status.phase !== "Ready" || reachKind(status) !== "inCluster" || !status.namespace) return "";
  if (onTestbed)
    return `tenant ${name} ${NOT_EXPOSED}; on the local test bed, kubespaces tenant kubeconfig ${name} --merge reaches it through the test bed's port for it\n`;
  const reach = inClusterReach(name, status.namespace);
  return (
    `tenant ${name} ${NOT_EXPOSED}. To reach it from this machine, forward a port to its Service (this needs access to its host namespace):\n` +
    `  ${reach.portForward}\n` +
    `then, while it runs, use the kubeconfig through that port (TLS still checks ${reach.tlsServerName}):\n` +
    `  ${reach.merge}\n`
  );
}
