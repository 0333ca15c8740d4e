/**
 * The NetworkPolicies that fence the tenant namespace, both ways.
 *
 * The namespace's policy, for every pod in it: ingress only from the tenant's own namespaces (by
 * label) and, when exposed, the gateway namespace; egress to cluster DNS, the tenant's own
 * namespaces and the internet minus the cluster, private and link-local ranges, so that other
 * tenants, node ports (kubelet) and cloud metadata endpoints stay out of reach.
 *
 * The control plane's policy adds, for the vCluster control plane's pods only, egress to the host
 * API server, which its syncer needs; the tenant's workloads talk to their virtual API server in the
 * namespace instead. The ranges and the gateway's pods come from the platform's policy
 * (`platform.network`, defaults in model/networkDefaults.ts).
 */
import { TENANT_LABEL } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** Name of the tenant namespace's NetworkPolicy. */
export const NETWORK_POLICY_NAME = "kubespaces-isolation";

/** Name of the NetworkPolicy that lets the vCluster control plane reach the host API server. */
export const CONTROL_PLANE_NETWORK_POLICY_NAME = "kubespaces-control-plane";

/** The kind of the tenant's isolation policy. */
export const NETWORK_POLICY_TYPE: TypeMeta = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy" };

const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** Where cluster DNS runs: the `kube-dns`-labelled pods (CoreDNS) in `kube-system`. */
export const CLUSTER_DNS = { namespace: "kube-system", podLabels: { "k8s-app": "kube-dns" } } as const;

const isIpv6 = (cidr: string) => cidr.includes(":");

/** Renders the namespace's NetworkPolicy (rendered only when `isolation.networkPolicy` is on). */
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

/**
 * The chart's labels on the vCluster control plane's pods. vCluster rewrites the `release` label
 * of every pod it syncs from the virtual cluster, so no tenant workload carries this pair.
 */
export const controlPlanePodLabels = (spec: TenantSpec): Record<string, string> => ({
  app: "vcluster",
  release: spec.releaseName,
});

/**
 * Renders the NetworkPolicy that lets the vCluster control plane, and only it, reach the host API
 * server (rendered with the namespace's policy); it reconciles the tenant's objects on the host.
 */
export function renderControlPlaneNetworkPolicy(spec: TenantSpec): Manifest {
  return {
    ...NETWORK_POLICY_TYPE,
    metadata: tenantMetadata(spec, CONTROL_PLANE_NETWORK_POLICY_NAME),
    spec: {
      podSelector: { matchLabels: controlPlanePodLabels(spec) },
      policyTypes: ["Egress"],
      egress: [
        {
          to: spec.network.apiServerCidrs.map((cidr) => ({ ipBlock: { cidr } })),
          ports: spec.network.apiServerPorts.map((port) => ({ protocol: "TCP", port })),
        },
      ],
    },
  };
}
