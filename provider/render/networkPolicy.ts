/**
 * The NetworkPolicy that fences the tenant namespace: ingress only from the tenant's own
 * namespaces (by label), the gateway namespace when exposed, and cluster DNS. Egress stays open:
 * the vCluster syncer must reach the host API server.
 */
import { TENANT_LABEL } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import { tenantMetadata, type Manifest, type TypeMeta } from "./manifest";

/** Name of the tenant's NetworkPolicy. */
export const NETWORK_POLICY_NAME = "kubespaces-isolation";

/** The kind of the tenant's isolation policy. */
export const NETWORK_POLICY_TYPE: TypeMeta = { apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy" };

const NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name";

/** Renders the NetworkPolicy (rendered only when `isolation.networkPolicy` is on). */
export function renderNetworkPolicy(spec: TenantSpec): Manifest {
  const peers: Record<string, unknown>[] = [{ namespaceSelector: { matchLabels: { [TENANT_LABEL]: spec.name } } }];
  if (spec.exposure) {
    peers.push({ namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: spec.exposure.gateway.namespace } } });
  }
  peers.push({
    namespaceSelector: { matchLabels: { [NAMESPACE_NAME_LABEL]: "kube-system" } },
    podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
  });
  return {
    ...NETWORK_POLICY_TYPE,
    metadata: tenantMetadata(spec, NETWORK_POLICY_NAME),
    spec: { podSelector: {}, policyTypes: ["Ingress"], ingress: [{ from: peers }] },
  };
}
