/**
 * `@kubespaces/pulumi/tenants`: the tenants service, the one core under every self-service door,
 * with its ports and the adapters this package ships (requests and run journals as local files, a
 * Pulumi stack per tenant through the Automation API). Loading it loads neither the Tenant
 * component nor the Automation API; they load when a stack first runs.
 */
export {
  TenantsService,
  DEFAULT_LOCK_TIMEOUT_MS,
  type TenantsPorts,
  type TenantsConfig,
  type OperationOptions,
  type DeleteResult,
} from "./tenantsService";
export type * from "./ports";
export * from "./tenantsErrors";
export {
  TENANT_PHASES,
  type TenantObject,
  type TenantStatus,
  type ReadyCondition,
  type ReadyReason,
  type TenantPhase,
  type TenantEvent,
  type TenantEventPhase,
  type ResourceStep,
} from "./tenantObject";
export { tenantObject, tenantStatus } from "./tenantStatus";
export { FileRequestStore, manifestText } from "./local/fileRequestStore";
export { FileRunJournals } from "./local/fileRunJournals";
export { AutomationStacks, type AutomationStacksConfig } from "./automation/automationStacks";
