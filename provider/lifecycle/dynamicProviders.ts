/**
 * The providers behind the TypeScript dynamic resources TenantHostCheck, TenantAccessCheck,
 * TenantReadiness and TenantCleanup. The engine runs dynamic providers in a separate process from
 * serialized code; to keep that code small and free of captured modules, the resources' providers
 * only `require` this module by its package name (`@kubespaces/pulumi/dynamic-providers`) and
 * forward each call here.
 */
import { progressLine } from "../contracts/progressLine";
import {
  accessCheckOperations,
  cleanupOperations,
  hostCheckOperations,
  readinessOperations,
  type ProgressSink,
} from "./resourceOperations";

// Dynamic providers run outside the engine's logging: progress goes to stderr, which the CLI
// shows as diagnostics.
const toStderr: ProgressSink = (tenant) => (message) => console.error(progressLine(tenant, message));

/** The dynamic TenantReadiness provider. */
export const readinessProvider = readinessOperations(toStderr);

/** The dynamic TenantCleanup provider. */
export const cleanupProvider = cleanupOperations(toStderr);

/** The dynamic TenantHostCheck provider. */
export const hostCheckProvider = hostCheckOperations();

/** The dynamic TenantAccessCheck provider. */
export const accessCheckProvider = accessCheckOperations(toStderr);
