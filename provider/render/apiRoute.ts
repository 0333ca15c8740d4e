/**
 * The tenant API endpoint: a TLSRoute on the shared Gateway's passthrough listener to the vCluster
 * Service, and the ReferenceGrant in the tenant namespace that lets TLSRoutes from the gateway
 * namespace reach exactly that Service. (A ReferenceGrant cannot name the route itself; it names
 * the kind and namespace it comes from.)
 */
import { gatewayObjectName } from "../spec/names";
import type { ExposedTenantSpec } from "../spec/tenantSpec";
import { tenantMetadata, type Manifest } from "./manifest";

const GATEWAY_GROUP = "gateway.networking.k8s.io";

/** Port of the vCluster Service (it forwards to the API server's 8443). */
export const VCLUSTER_SERVICE_PORT = 443;

/** Renders the TLSRoute that publishes the tenant's API server. */
export function renderApiRoute(spec: ExposedTenantSpec): Manifest {
  const { gateway, tlsRouteVersion } = spec.exposure;
  return {
    apiVersion: `${GATEWAY_GROUP}/${tlsRouteVersion}`,
    kind: "TLSRoute",
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "api"), gateway.namespace),
    spec: {
      parentRefs: [{ group: GATEWAY_GROUP, kind: "Gateway", name: gateway.name, namespace: gateway.namespace, sectionName: gateway.sectionName }],
      hostnames: [spec.endpoints.apiHostname],
      rules: [
        {
          backendRefs: [{ group: "", kind: "Service", name: spec.releaseName, namespace: spec.namespace, port: VCLUSTER_SERVICE_PORT }],
        },
      ],
    },
  };
}

/** Renders the ReferenceGrant that admits the TLSRoute's cross-namespace backend. */
export function renderApiReferenceGrant(spec: ExposedTenantSpec): Manifest {
  return {
    apiVersion: `${GATEWAY_GROUP}/v1`,
    kind: "ReferenceGrant",
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "api")),
    spec: {
      from: [{ group: GATEWAY_GROUP, kind: "TLSRoute", namespace: spec.exposure.gateway.namespace }],
      to: [{ group: "", kind: "Service", name: spec.releaseName }],
    },
  };
}
