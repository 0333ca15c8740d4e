/**
 * The tenant's apps endpoint: a ListenerSet attached to the shared Gateway with one HTTPS listener
 * for `*.<name>.apps.<baseDomain>`, and the cert-manager Certificate it terminates TLS with. Both
 * live in the gateway namespace, out of the tenant's reach; the listener admits routes only from
 * namespaces labelled for the tenant.
 */
import { appsCertificateSecretName, gatewayObjectName, TENANT_LABEL } from "../model/names";
import type { ExposedTenantSpec } from "../model/tenantSpec";
import { GATEWAY_GROUP, gatewayParentRef } from "./apiRoute";
import { APPS_CERTIFICATE_TYPE, type TypeMeta } from "../contracts/typeMeta";
import { tenantLabels, tenantMetadata, type Manifest } from "./manifest";

/** The kind of the apps listener. */
export const APPS_LISTENER_SET_TYPE: TypeMeta = { apiVersion: `${GATEWAY_GROUP}/v1`, kind: "ListenerSet" };

/** The kind of the apps certificate (cert-manager). */

/** Renders the ListenerSet that adds the tenant's apps listener to the shared Gateway. */
export function renderAppsListenerSet(spec: ExposedTenantSpec): Manifest {
  const { gateway } = spec.exposure;
  return {
    ...APPS_LISTENER_SET_TYPE,
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "apps"), gateway.namespace),
    spec: {
      // The ListenerSet adds its own listener: it names the Gateway, not one of its listeners.
      parentRef: gatewayParentRef({ name: gateway.name, namespace: gateway.namespace }),
      listeners: [
        {
          name: "apps",
          hostname: `*.${spec.endpoints.appsDomain}`,
          protocol: "HTTPS",
          port: 443,
          tls: {
            mode: "Terminate",
            certificateRefs: [{ group: "", kind: "Secret", name: appsCertificateSecretName(spec.name) }],
          },
          allowedRoutes: { namespaces: { from: "Selector", selector: { matchLabels: { [TENANT_LABEL]: spec.name } } } },
        },
      ],
    },
  };
}

/** Renders the Certificate for the apps wildcard; its Secret carries the tenant label too. */
export function renderAppsCertificate(spec: ExposedTenantSpec): Manifest {
  const { gateway, issuerRef } = spec.exposure;
  return {
    ...APPS_CERTIFICATE_TYPE,
    metadata: tenantMetadata(spec, gatewayObjectName(spec.name, "apps"), gateway.namespace),
    spec: {
      secretName: appsCertificateSecretName(spec.name),
      secretTemplate: { labels: tenantLabels(spec) },
      dnsNames: [`*.${spec.endpoints.appsDomain}`],
      issuerRef: { name: issuerRef.name, kind: issuerRef.kind, group: issuerRef.group },
    },
  };
}
