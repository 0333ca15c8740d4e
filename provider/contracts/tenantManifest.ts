/**
 * The type of kubespaces' own Kubernetes-style documents: a Tenant file, the request a
 * self-service door stores, and the tenant objects the doors print (a list of them is a
 * `TenantList` of the same apiVersion).
 */
import { TENANT_API_VERSION, TENANT_KIND } from "./tenantResourceNames";
import type { TypeMeta } from "./typeMeta";

/** The apiVersion and kind of a Tenant manifest. */
export const TENANT_MANIFEST = { apiVersion: TENANT_API_VERSION, kind: TENANT_KIND } as const satisfies TypeMeta;
