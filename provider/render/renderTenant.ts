/** The whole host-side expansion of one tenant as plain data: no Pulumi, no cluster. */
import { isExposed, type TenantSpec } from "../spec/tenantSpec";
import { renderApiReferenceGrant, renderApiRoute } from "./apiRoute";
import { renderAppsCertificate, renderAppsListenerSet } from "./appsListener";
import { renderHelmRelease, type RenderedHelmRelease } from "./helmRelease";
import { renderLimitRange } from "./limitRange";
import type { Manifest } from "./manifest";
import { renderNamespace } from "./namespace";
import { renderNetworkPolicy } from "./networkPolicy";
import { renderResourceQuota } from "./resourceQuota";

/** The objects published through the shared Gateway. */
export interface RenderedExposure {
  /** TLSRoute for the API server, in the gateway namespace. */
  readonly apiRoute: Manifest;
  /** ReferenceGrant in the tenant namespace admitting the route's backend. */
  readonly apiReferenceGrant: Manifest;
  /** ListenerSet with the apps listener, in the gateway namespace. */
  readonly appsListenerSet: Manifest;
  /** Certificate for the apps wildcard, in the gateway namespace. */
  readonly appsCertificate: Manifest;
}

/** Every object of a tenant, in creation order. */
export interface RenderedTenant {
  /** The tenant namespace. */
  readonly namespace: Manifest;
  /** The quota on the namespace. */
  readonly resourceQuota: Manifest;
  /** Container defaults in the namespace. */
  readonly limitRange: Manifest;
  /** Ingress isolation, unless turned off. */
  readonly networkPolicy?: Manifest;
  /** Gateway objects, when exposed. */
  readonly exposure?: RenderedExposure;
  /** The vCluster release. */
  readonly helmRelease: RenderedHelmRelease;
}

/** Renders every object of the tenant described by `spec`. */
export function renderTenant(spec: TenantSpec): RenderedTenant {
  const networkPolicy = renderNetworkPolicy(spec);
  const exposure = isExposed(spec)
    ? {
        apiRoute: renderApiRoute(spec),
        apiReferenceGrant: renderApiReferenceGrant(spec),
        appsListenerSet: renderAppsListenerSet(spec),
        appsCertificate: renderAppsCertificate(spec),
      }
    : undefined;
  return {
    namespace: renderNamespace(spec),
    resourceQuota: renderResourceQuota(spec),
    limitRange: renderLimitRange(spec),
    ...(networkPolicy && { networkPolicy }),
    ...(exposure && { exposure }),
    helmRelease: renderHelmRelease(spec),
  };
}
