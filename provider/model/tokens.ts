/**
 * The package's Pulumi type tokens, written once: schema.json, the component, the provider plugin,
 * the dynamic resources and error messages all read them from here.
 */

/** The Pulumi package name. */
export const PACKAGE_NAME = "kubespaces";

/** The token of a type in the package's index module. */
export const indexToken = (name: string): string => `${PACKAGE_NAME}:index:${name}`;

/** Name of the Tenant component; its nested input types are named after it. */
export const TENANT_NAME = "Tenant";
/** Type token of the Tenant component. */
export const TENANT_TOKEN = indexToken(TENANT_NAME);
/** Name of the readiness resource (a dynamic resource in TypeScript, a plugin custom resource elsewhere). */
export const TENANT_READINESS_NAME = "TenantReadiness";
/** Name of the cleanup resource, likewise. */
export const TENANT_CLEANUP_NAME = "TenantCleanup";
/** Name of the host check resource, likewise. */
export const TENANT_HOST_CHECK_NAME = "TenantHostCheck";
/** Name of the access check resource, likewise. */
export const TENANT_ACCESS_CHECK_NAME = "TenantAccessCheck";
/** Type token of the access check custom resource the provider plugin serves. */
export const TENANT_ACCESS_CHECK_TOKEN = indexToken(TENANT_ACCESS_CHECK_NAME);
/** Type token of the host check custom resource the provider plugin serves. */
export const TENANT_HOST_CHECK_TOKEN = indexToken(TENANT_HOST_CHECK_NAME);
/** Type token of the readiness custom resource the provider plugin serves. */
export const TENANT_READINESS_TOKEN = indexToken(TENANT_READINESS_NAME);
/** Type token of the cleanup custom resource the provider plugin serves. */
export const TENANT_CLEANUP_TOKEN = indexToken(TENANT_CLEANUP_NAME);
