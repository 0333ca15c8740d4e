/**
 * `@kubespaces/pulumi/validation`: tenant validation without Pulumi loaded, for tools that check a
 * request before any program runs (a CLI, a server, a CI check of Tenant files).
 */
export { TenantValidationError, type ExceededBound, type InputProblem } from "./model/validationError";
export { validateRequest, validateTenant, type ValidationContext } from "./model/validateTenant";
export { tenantRequestSchema, type TenantRequestInput } from "./model/tenantRequestSchema";
export type { TenantPlatformInput } from "./model/tenantPlatformSchema";
export type { TenantSpec } from "./model/tenantSpec";
export { SAFE_OVERRIDE_PATHS } from "./model/overridesGuard";
export {
  readTenantFiles,
  parseTenantDocuments,
  TenantFilesError,
  type TenantDocument,
} from "./tenantFiles/tenantDocuments";
