/**
 * The defaults of the platform's network policy (`platform.network`): the ranges the tenant's
 * egress fence lets through or keeps out. A platform that knows its own ranges narrows them.
 */

/**
 * Where the host API server's endpoints may be. A NetworkPolicy cannot select the `kubernetes`
 * Service: CNIs evaluate egress after the Service's DNAT, against the endpoint address, which is a
 * node or control-plane IP (kubeadm, kind, k3s: a node IP on 6443; EKS, GKE private endpoints, AKS
 * VNet integration: a VPC address on 443). The package cannot know that address before it reads the
 * cluster, and the policy is rendered before, so the default admits the private ranges, on the API
 * server ports only, and for the vCluster control plane only (render/networkPolicy.ts); a platform
 * that knows its endpoints names them. A public API server endpoint is already covered by the
 * internet rule. Cilium matches node addresses with ipBlock only with
 * `policy-cidr-match-mode: nodes`.
 */
export const DEFAULT_API_SERVER_CIDRS: string[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];

/** Ports the API server listens on: 443 (managed clusters) and 6443 (kubeadm, kind, k3s). */
export const DEFAULT_API_SERVER_PORTS: number[] = [443, 6443];

/**
 * What "the internet" excludes, IPv4 and IPv6 in one list: the private ranges pods, Services and
 * nodes live in (other tenants, kubelets, node ports), CGNAT (some pod networks and Alibaba's
 * metadata at 100.100.100.200), link-local (cloud metadata at 169.254.169.254, NodeLocal DNS), and
 * Azure's host endpoint 168.63.129.16. For IPv6: unique-local (AWS metadata fd00:ec2::254) and
 * link-local.
 */
export const DEFAULT_INTERNET_EXCEPT_CIDRS: string[] = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "169.254.0.0/16",
  "168.63.129.16/32",
  "fc00::/7",
  "fe80::/10",
];
