/**
 * The finalizer stage: a Tenant gets the server's finalizer before anything is made for it, so that
 * a delete from then on waits for the teardown.
 */
import { TENANT_FINALIZER } from "../../../contracts/tenantResourceNames";
import type { TenantResource } from "../../tenantResourcePort";
import type { StageContext } from "./stageContext";

/** Adds the finalizer when the Tenant lacks it. */
export async function holdWithFinalizer(context: StageContext, tenant: TenantResource): Promise<void> {
  if (tenant.metadata.finalizers?.includes(TENANT_FINALIZER)) return;
  await context.resources.addFinalizer(tenant.metadata.name, TENANT_FINALIZER);
}
