/**
 * The teardown stage: a Tenant being deleted has its stack torn down, and the service releases its
 * finalizer (through the request store) only once nothing is left; a teardown that fails keeps the
 * finalizer and is retried.
 */
import { TENANT_FINALIZER } from "../../../contracts/tenantResourceNames";
import { TenantNotFoundError } from "../../../tenants/tenantsErrors";
import type { TenantResource } from "../../tenantResourcePort";
import {
  DONE,
  errorMessage,
  noteOf,
  type ReconcileOptions,
  type ReconcileResult,
  type StageContext,
} from "./stageContext";
import type { TenantStatusWrites } from "./tenantStatusWrites";

/** Tears a deleted Tenant down. */
export async function tearDown(
  context: StageContext,
  statuses: TenantStatusWrites,
  tenant: TenantResource,
  options: ReconcileOptions,
): Promise<ReconcileResult> {
  const { name } = tenant.metadata;
  const { service, resources, config } = context;
  if (!tenant.metadata.finalizers?.includes(TENANT_FINALIZER)) return DONE;
  await statuses.write(tenant, "Deleting", "Deleting", "tearing the tenant down");
  await config.events?.record(tenant, "Deleting");
  try {
    await service.delete(name, config.actor, { signal: options.signal, onNote: noteOf(context, name) });
    // The Tenant is gone now (the service released the finalizer); its Event names it by its UID still.
    await config.events?.record(tenant, "Deleted");
    return DONE;
  } catch (error) {
    if (error instanceof TenantNotFoundError) {
      await config.events?.record(tenant, "Deleted");
      await resources.removeFinalizer(name, TENANT_FINALIZER);
      return DONE;
    }
    const message = `the teardown failed and is tried again: ${errorMessage(error)}`;
    await statuses.write(tenant, "Deleting", "Deleting", message);
    await config.events?.record(tenant, "DeleteFailed", message);
    return { retry: true };
  }
}
