/**
 * The tenant API endpoint: a TLSRoute on the shared Gateway's passthrough listener to the vCluster
 * Service, and the ReferenceGrant in the tenant namespace that lets TLSRoutes from the gateway
 * namespace reach exactly that Service. (A ReferenceGrant cannot name the route itself; it names
 * the kind and namespace it comes from.)
 */
import { gatewayObjectName, VCLUSTER_SERVICE_PORT } from "../model/names";
import type { TlsRouteVersion } from "../model/tenantStructure";
import type { ExposedTenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** API group of Gateway API. */
export const GATEWAY_GROUP = "gateway.networking.k8s.io";

/** A Gateway as a route's or ListenerSet's parent: its listener `sectionName` only when one is named. */
export const gatewayParentRef = (parent: { name: string; namespace: string; sectionName?: string }) => ({
  group: GATEWAY_GROUP,
  kind: "Gateway",
  name: parent.name,
  namespace: parent.namespace,
  ...(parent.sectionName && { sectionName: parent.sectionName }),
});

/** The kind of the API route, at the TLSRoute version the host serves. */
export const apiRouteType = (version: TlsRouteVersion): TypeMeta => ({
  apiVersion: `${GATEWAY_GROUP}/${version}`,
  kind: "TLSRoute",
});

/** The kind of the grant that admits the route's backend. */
export const API_REFERENCE_GRANT_TYPE: TypeMeta = { apiVersion: `${GATEWAY_GROUP}/v1`, kind: "ReferenceGrant" };

/** Renders the TLSRoute that publishes the tenant's API server. */
export function renderApiRoute(spec: ExposedTenantSpec): Manifest {
  const { gateway, tlsRouteVersion } = spec.exposure;
  return {
    ...apiRouteType(tlsRouteVersion),
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "api"), gateway.namespace),
    spec: {
      parentRefs: [gatewayParentRef(gateway)],
      hostnames: [spec.endpoints.apiHostname],
      rules: [
        {
          backendRefs: [
            {
              group: "",
              kind: "Service",
              name: spec.releaseName,
              namespace: spec.namespace,
              port: VCLUSTER_SERVICE_PORT,
            },
          ],
        },
      ],
    },
  };
}

/** Renders the ReferenceGrant that admits the TLSRoute's cross-namespace backend. */
export function renderApiReferenceGrant(spec: ExposedTenantSpec): Manifest {
  return {
    ...API_REFERENCE_GRANT_TYPE,
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "api")),
    spec: {
      from: [{ group: GATEWAY_GROUP, kind: "TLSRoute", namespace: spec.exposure.gateway.namespace }],
      to: [{ group: "", kind: "Service", name: spec.releaseName }],
    },
  };
}
