/**
 * The facts of the `TenantCeilings` custom resource, written once: the ceilings a new tenant is held
 * to, as the server publishes them for the ceiling admission policy (its parameters). One object,
 * `new-tenants`, which only the server writes. The CRD, the policy, the server's RBAC and its
 * writes read them from here.
 */
import { TENANT_GROUP, TENANT_VERSION } from "./tenantResourceNames";

/** Its kind. */
export const TENANT_CEILINGS_KIND = "TenantCeilings";
/** Its plural: the resource name in URLs, RBAC rules and `kubectl get tenantceilings`. */
export const TENANT_CEILINGS_PLURAL = "tenantceilings";
/** Its singular. */
export const TENANT_CEILINGS_SINGULAR = "tenantceiling";
/** The CRD's name: `<plural>.<group>` (the Tenant's group and version). */
export const TENANT_CEILINGS_CRD_NAME = `${TENANT_CEILINGS_PLURAL}.${TENANT_GROUP}`;
/** `apiVersion` of a TenantCeilings object. */
export const TENANT_CEILINGS_API_VERSION = `${TENANT_GROUP}/${TENANT_VERSION}` as const;
/** The one object the server publishes and the policy reads. */
export const NEW_TENANT_CEILINGS = "new-tenants";
