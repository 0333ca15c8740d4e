/**
 * @kubespaces/pulumi: KubeSpaces tenants as a Pulumi component. Each Tenant gets a virtual cluster
 * (vCluster) in its own host namespace, fenced by quota, LimitRange, network isolation and pod
 * security, optionally exposed through Gateway API, and handed back as a kubeconfig.
 */
export { Tenant, TENANT_TYPE } from "./component/tenant";
export type * from "./generated/tenantTypes";
export { TenantValidationError, type InputProblem } from "./spec/validationError";
export { validateTenant } from "./spec/validateTenant";
export type { TenantSpec } from "./spec/tenantSpec";
export { SAFE_OVERRIDE_PATHS } from "./spec/overridesGuard";
export { renderTenant, type RenderedTenant, type RenderedExposure } from "./render/renderTenant";
export type { Manifest } from "./render/manifest";
export { TenantReadiness } from "./readiness/tenantReadiness";
export { TenantCleanup } from "./teardown/tenantCleanup";
