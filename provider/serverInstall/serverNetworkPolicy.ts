/**
 * The server's own NetworkPolicy: the product fences every tenant with one, and the server's pods
 * get theirs. In: the API and portal's port from the Gateway the route attaches to (or from the
 * cluster's pods, without a route: an Ingress controller or a Gateway of the platform's), and the
 * metrics' port from the cluster's pods (a Prometheus), each narrowed by the platform's options.
 * Out: DNS, and by port only what the server dials (the API server, the state backend, the
 * issuer, the snapshot store, the vCluster chart's repository): their addresses are the platform's
 * and often outside the cluster, so the policy names their ports, not their hosts.
 */
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import type { KubeObject } from "../tenantResource/kubeObject";
import type { ServerInstallOptions } from "./serverInstallOptions";
import { SERVER_LABELS, SERVER_SELECTOR, SERVER_WORKLOAD_NAME } from "./serverObjectNames";

/** A NetworkPolicy peer, as Kubernetes takes it. */
export type NetworkPeer = Readonly<Record<string, unknown>>;

/** Every pod of every namespace: what a peer list defaults to where the platform's pods are not known. */
export const ANY_POD_IN_CLUSTER: NetworkPeer = { namespaceSelector: {} };

/**
 * The ports the server dials whatever its configuration: HTTPS (the API server's Service, the
 * issuer, https:// backends, chart repositories) and 6443, the port API servers commonly listen on
 * behind the `kubernetes` Service, which a policy sees after the Service's address is translated.
 */
export const BASE_EGRESS_PORTS = [443, 6443] as const;

/** The default port of each URL scheme the server dials (a URL's own port wins). */
const SCHEME_PORTS: Readonly<Record<string, number>> = {
  "postgres:": 5432,
  "postgresql:": 5432,
  "https:": 443,
  "http:": 80,
};

/** The NetworkPolicy of `options`, or undefined when the platform turned it off. */
export function serverNetworkPolicy(options: ServerInstallOptions): KubeObject | undefined {
  const { networkPolicy } = options;
  if (!networkPolicy.enabled) return undefined;
  const tcp = (port: number | string) => ({ protocol: "TCP", port });
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: SERVER_WORKLOAD_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    spec: {
      podSelector: { matchLabels: SERVER_SELECTOR },
      policyTypes: ["Ingress", "Egress"],
      ingress: [
        { from: networkPolicy.httpFrom ?? defaultHttpFrom(options), ports: [tcp(options.port)] },
        { from: networkPolicy.metricsFrom ?? [ANY_POD_IN_CLUSTER], ports: [tcp(METRICS_PORT)] },
      ],
      egress: [{ ports: [{ protocol: "UDP", port: 53 }, tcp(53)] }, { ports: egressPorts(options).map(tcp) }],
    },
  };
}

/** Through the route's Gateway when there is one; else any pod of the cluster (the platform's own way in). */
function defaultHttpFrom(options: ServerInstallOptions): NetworkPeer[] {
  if (!options.route) return [ANY_POD_IN_CLUSTER];
  return [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": options.route.gateway.namespace } } }];
}

/** The TCP ports the server dials: the base ones, those of the URLs it is configured with, and the platform's. */
export function egressPorts(options: ServerInstallOptions): number[] {
  const config = options.config as {
    signIn?: { issuer?: unknown };
    snapshots?: { s3?: { url?: unknown } };
  };
  const urls = [options.stateBackend.url, config.signIn?.issuer, config.snapshots?.s3?.url];
  const fromUrls = urls.flatMap((url) => (typeof url === "string" ? [portOf(url)] : []));
  const ports = [...BASE_EGRESS_PORTS, ...fromUrls, ...options.networkPolicy.egressPorts];
  return [...new Set(ports.filter((port): port is number => port !== undefined))].sort((a, b) => a - b);
}

/** The port a URL dials: its own, or its scheme's; undefined for a scheme whose client picks (s3://, gs://, azblob://: HTTPS). */
function portOf(url: string): number | undefined {
  try {
    const parsed = new URL(url);
    return parsed.port ? Number(parsed.port) : SCHEME_PORTS[parsed.protocol];
  } catch {
    return undefined;
  }
}
