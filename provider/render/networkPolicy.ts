/**
 * The NetworkPolicy that fences the tenant namespace, both ways.
 *
 * Ingress: only from the tenant's own namespaces (by label) and, when exposed, the gateway namespace.
 * Egress: cluster DNS, the tenant's own namespaces, the host API server (the vCluster syncer needs
 * it) and the internet minus the cluster, private and link-local ranges, so that other tenants, node
 * ports (kubelet) and cloud metadata endpoints stay out of reach.
 */
import { TENANT_LABEL } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import { tenantMetadata, type Manifest, type TypeMeta } from "./manifest";

/** Name of the tenant's NetworkPolicy. */
export const NETWORK_POLICY_NAME = "kubespaces-isolation";

/** The kind of the tenant's isolation policy. */
export const NETWORK_POLICY_TYPE: TypeMeta = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy" };

const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** Where cluster DNS runs: the `kube-dns`-labelled pods (CoreDNS) in `kube-system`. */
export const CLUSTER_DNS = { namespace: "kube-system", podLabels: { "k8s-app": "kube-dns" } } as const;

/**
 * Where the host API server's endpoints may be. A NetworkPolicy cannot select the `kubernetes`
 * Service: CNIs evaluate egress after the Service's DNAT, against the endpoint address, which is a
 * node or control-plane IP (kubeadm, kind, k3s: a node IP on 6443; EKS, GKE private endpoints, AKS
 * VNet integration: a VPC address on 443). The package cannot know that address, so the default
 * admits the private ranges, on the API server ports only; a platform that knows its control-plane
 * CIDR should narrow it. A public API server endpoint is already covered by the internet rule.
 * Cilium matches node addresses with ipBlock only with `policy-cidr-match-mode: nodes`.
 */
export const DEFAULT_API_SERVER_CIDRS: readonly string[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];

/** Ports the API server listens on: 443 (managed clusters) and 6443 (kubeadm, kind, k3s). */
export const DEFAULT_API_SERVER_PORTS: readonly number[] = [443, 6443];

/**
 * What "the internet" excludes, IPv4 and IPv6 in one list: the private ranges pods, Services and
 * nodes live in (other tenants, kubelets, node ports), CGNAT (some pod networks and Alibaba's
 * metadata at 100.100.100.200), link-local (cloud metadata at 169.254.169.254, NodeLocal DNS), and
 * Azure's host endpoint 168.63.129.16. For IPv6: unique-local (AWS metadata fd00:ec2::254) and
 * link-local.
 */
export const DEFAULT_INTERNET_EXCEPT_CIDRS: readonly string[] = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "168.63.129.16/32",
  "fc00::/7",
  "fe80::/10",
];

const isIpv6 = (cidr: string) => cidr.includes(":");

/** Renders the NetworkPolicy (rendered only when `isolation.networkPolicy` is on). */
export function renderNetworkPolicy(spec: TenantSpec): Manifest {
  // The tenant's own namespaces: the host namespace and any other labelled for the tenant.
  const ownNamespaces = { namespaceSelector: { matchLabels: { [TENANT_LABEL]: spec.name } } };

  const from: Record<string, unknown>[] = [ownNamespaces];
  // The gateway forwards the tenant's API (passthrough) and apps to pods in this namespace.
  if (spec.exposure) {
    from.push({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: spec.exposure.gateway.namespace } } });
  }

  const egress: Record<string, unknown>[] = [
    // Name resolution: the vCluster's CoreDNS (in the tenant namespace) forwards to cluster DNS.
    {
      to: [
        {
          namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: CLUSTER_DNS.namespace } },
          podSelector: { matchLabels: { ...CLUSTER_DNS.podLabels } },
        },
      ],
      ports: [
        { protocol: "UDP", port: 53 },
        { protocol: "TCP", port: 53 },
      ],
    },
    // The tenant's own pods talk to each other (vCluster control plane, synced workloads).
    { to: [ownNamespaces] },
    // The vCluster syncer reconciles the tenant's objects on the host through the API server.
    {
      to: DEFAULT_API_SERVER_CIDRS.map((cidr) => ({ ipBlock: { cidr } })),
      ports: DEFAULT_API_SERVER_PORTS.map((port) => ({ protocol: "TCP", port })),
    },
    // The internet, on any port, without the cluster, private and link-local ranges.
    {
      to: [
        { ipBlock: { cidr: "0.0.0.0/0", except: DEFAULT_INTERNET_EXCEPT_CIDRS.filter((cidr) => !isIpv6(cidr)) } },
        { ipBlock: { cidr: "::/0", except: DEFAULT_INTERNET_EXCEPT_CIDRS.filter(isIpv6) } },
      ],
    },
  ];

  return {
    ...NETWORK_POLICY_TYPE,
    metadata: tenantMetadata(spec, NETWORK_POLICY_NAME),
    spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"], ingress: [{ from }], egress },
  };
}
