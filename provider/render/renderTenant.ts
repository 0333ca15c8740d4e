/**
 * The whole host-side expansion of one tenant as plain data: no Pulumi, no cluster. Every value the
 * component registers is derived here: the Kubernetes objects (apiVersion and kind included), the
 * Helm release, the host check, readiness and cleanup arguments and the outputs.
 */
import { structureOfSpec, type TenantStructure } from "../model/tenantStructure";
import type { ExposedTenantSpec, TenantSpec } from "../model/tenantSpec";
import { apiRouteType, API_REFERENCE_GRANT_TYPE, renderApiReferenceGrant, renderApiRoute } from "./apiRoute";
import { APPS_CERTIFICATE_TYPE } from "../contracts/typeMeta";
import { APPS_LISTENER_SET_TYPE, renderAppsCertificate, renderAppsListenerSet } from "./appsListener";
import { renderHelmRelease, type RenderedHelmRelease } from "./helmRelease";
import {
  renderAccessCheck,
  renderCleanup,
  renderHostCheck,
  renderReadiness,
  type RenderedAccessCheck,
  type RenderedCleanup,
  type RenderedHostCheck,
  type RenderedReadiness,
} from "./lifecycleArgs";
import { LIMIT_RANGE_TYPE, renderLimitRange } from "./limitRange";
import type { ChildRole, ObjectRole } from "../contracts/childRoles";
import type { TypeMeta } from "../contracts/typeMeta";
import type { Manifest } from "./manifest";
import { NAMESPACE_TYPE, renderNamespace } from "./namespace";
import { renderNamespaceAccess, ROLE_BINDING_TYPE } from "./namespaceAccess";
import { NETWORK_POLICY_TYPE, renderControlPlaneNetworkPolicy, renderNetworkPolicy } from "./networkPolicy";
import { renderResourceQuota, RESOURCE_QUOTA_TYPE } from "./resourceQuota";
import { renderOutputs, type RenderedOutputs } from "./tenantOutputs";

/** A child that is a Kubernetes object, before rendering: what it is and whether a CRD serves its kind. */
export interface ObjectSlot extends TypeMeta {
  /** The object's role. */
  readonly role: ObjectRole;
  /** True when its kind comes from a CRD (Gateway API, cert-manager) that the host may lack. */
  readonly fromCrd: boolean;
}

/** A rendered Kubernetes object with its role. */
export interface RenderedObject {
  /** The object's role. */
  readonly role: ObjectRole;
  /** The object. */
  readonly manifest: Manifest;
}

/** Everything the component registers for one tenant. */
export interface RenderedTenant {
  /** The Kubernetes objects, in creation order. */
  readonly objects: readonly RenderedObject[];
  /** The vCluster release. */
  readonly helmRelease: RenderedHelmRelease;
  /** What the host check looks at. */
  readonly hostCheck: RenderedHostCheck;
  /** Whose access the access check waits for (used only when the access binding exists). */
  readonly accessCheck: RenderedAccessCheck;
  /** What the readiness wait follows. */
  readonly readiness: RenderedReadiness;
  /** Where the teardown cleanup looks. */
  readonly cleanup: RenderedCleanup;
  /** The outputs known before the wait. */
  readonly outputs: RenderedOutputs;
}

interface ObjectKind {
  readonly role: ObjectRole;
  readonly present: (structure: TenantStructure) => boolean;
  readonly type: (structure: TenantStructure) => TypeMeta;
  readonly fromCrd: boolean;
  readonly render: (spec: TenantSpec) => Manifest;
}

const always = () => true;
const exposed = (structure: TenantStructure) => structure.tlsRouteVersion !== undefined;
const whenExposed = (render: (spec: ExposedTenantSpec) => Manifest) => (spec: TenantSpec) =>
  render(spec as ExposedTenantSpec);

/** Every kind of object a tenant can have, in creation order. */
const OBJECT_KINDS: readonly ObjectKind[] = [
  { role: "namespace", present: always, type: () => NAMESPACE_TYPE, fromCrd: false, render: renderNamespace },
  {
    role: "namespace-access",
    present: (s) => s.namespaceAccess === true,
    type: () => ROLE_BINDING_TYPE,
    fromCrd: false,
    render: renderNamespaceAccess,
  },
  { role: "quota", present: always, type: () => RESOURCE_QUOTA_TYPE, fromCrd: false, render: renderResourceQuota },
  { role: "limit-range", present: always, type: () => LIMIT_RANGE_TYPE, fromCrd: false, render: renderLimitRange },
  {
    role: "network-policy",
    present: (s) => s.networkPolicy,
    type: () => NETWORK_POLICY_TYPE,
    fromCrd: false,
    render: renderNetworkPolicy,
  },
  {
    role: "control-plane-network-policy",
    present: (s) => s.networkPolicy,
    type: () => NETWORK_POLICY_TYPE,
    fromCrd: false,
    render: renderControlPlaneNetworkPolicy,
  },
  {
    role: "api-reference-grant",
    present: exposed,
    type: () => API_REFERENCE_GRANT_TYPE,
    fromCrd: true,
    render: whenExposed(renderApiReferenceGrant),
  },
  {
    role: "api-route",
    present: exposed,
    type: (s) => apiRouteType(s.tlsRouteVersion!),
    fromCrd: true,
    render: whenExposed(renderApiRoute),
  },
  {
    role: "apps-certificate",
    present: exposed,
    type: () => APPS_CERTIFICATE_TYPE,
    fromCrd: true,
    render: whenExposed(renderAppsCertificate),
  },
  {
    role: "apps-listener-set",
    present: exposed,
    type: () => APPS_LISTENER_SET_TYPE,
    fromCrd: true,
    render: whenExposed(renderAppsListenerSet),
  },
];

/** The Kubernetes objects a tenant of this structure has, with their kinds, before any value is known. */
export function objectSlots(structure: TenantStructure): ObjectSlot[] {
  return OBJECT_KINDS.filter((kind) => kind.present(structure)).map((kind) => ({
    role: kind.role,
    fromCrd: kind.fromCrd,
    ...kind.type(structure),
  }));
}

/** Every child role of a tenant of this structure, in creation order. */
export function childRoles(structure: TenantStructure): ChildRole[] {
  // The access check follows the access binding it waits for.
  const objects = objectSlots(structure).flatMap((slot): ChildRole[] =>
    slot.role === "namespace-access" ? [slot.role, "access-check"] : [slot.role],
  );
  return ["host-check", ...objects, "cleanup", "vcluster", "readiness"];
}

/** Renders every object and value of the tenant described by `spec`. */
export function renderTenant(spec: TenantSpec): RenderedTenant {
  const structure = structureOfSpec(spec);
  return {
    objects: OBJECT_KINDS.filter((kind) => kind.present(structure)).map((kind) => ({
      role: kind.role,
      manifest: kind.render(spec),
    })),
    helmRelease: renderHelmRelease(spec),
    hostCheck: renderHostCheck(spec),
    accessCheck: renderAccessCheck(spec),
    readiness: renderReadiness(spec),
    cleanup: renderCleanup(spec),
    outputs: renderOutputs(spec),
  };
}
