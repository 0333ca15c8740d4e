/**
 * The NetworkPolicy that fences the tenant namespace, both ways.
 *
 * Ingress: only from the tenant's own namespaces (by label) and, when exposed, the gateway namespace.
 * Egress: cluster DNS, the tenant's own namespaces, the host API server (the vCluster syncer needs
 * it) and the internet minus the cluster, private and link-local ranges, so that other tenants, node
 * ports (kubelet) and cloud metadata endpoints stay out of reach. The ranges and the gateway's
 * pods come from the platform's policy (`platform.network`, defaults in model/networkDefaults.ts).
 */
import { TENANT_LABEL } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** Name of the tenant's NetworkPolicy. */
export const NETWORK_POLICY_NAME = "kubespaces-isolation";

/** The kind of the tenant's isolation policy. */
export const NETWORK_POLICY_TYPE: TypeMeta = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy" };

const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** Where cluster DNS runs: the `kube-dns`-labelled pods (CoreDNS) in `kube-system`. */
export const CLUSTER_DNS = { namespace: "kube-system", podLabels: { "k8s-app": "kube-dns" } } as const;

const isIpv6 = (cidr: string) => cidr.includes(":");

/** Renders the NetworkPolicy (rendered only when `isolation.networkPolicy` is on). */
export function renderNetworkPolicy(spec: TenantSpec): Manifest {
  // The tenant's own namespaces: the host namespace and any other labelled for the tenant.
  const ownNamespaces = { namespaceSelector: { matchLabels: { [TENANT_LABEL]: spec.name } } };

  const from: Record<string, unknown>[] = [ownNamespaces];
  // The gateway forwards the tenant's API (passthrough) and apps to pods in this namespace.
  if (spec.exposure) {
    const gatewayPods = spec.network.gatewayPodLabels;
    from.push({
      namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: spec.exposure.gateway.namespace } },
      ...(gatewayPods && { podSelector: { matchLabels: gatewayPods } }),
    });
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
      to: spec.network.apiServerCidrs.map((cidr) => ({ ipBlock: { cidr } })),
      ports: spec.network.apiServerPorts.map((port) => ({ protocol: "TCP", port })),
    },
    // The internet, on any port, without the cluster, private and link-local ranges.
    {
      to: [
        { ipBlock: { cidr: "0.0.0.0/0", except: spec.network.internetExceptCidrs.filter((cidr) => !isIpv6(cidr)) } },
        { ipBlock: { cidr: "::/0", except: spec.network.internetExceptCidrs.filter(isIpv6) } },
      ],
    },
  ];

  return {
    ...NETWORK_POLICY_TYPE,
    metadata: tenantMetadata(spec, NETWORK_POLICY_NAME),
    spec: { podSelector: {}, policyTypes: ["Ingress", "Egress"], ingress: [{ from }], egress },
  };
}
