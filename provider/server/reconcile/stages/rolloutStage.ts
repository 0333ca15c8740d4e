/**
 * The rollout stage: a tenant running at its generation is brought up on the platform revision
 * whose rollout is due to reach it, through the provisioning stage (which asks the gates), and the
 * outcome is recorded in the revision's status: a failure halts the rollout, and the tenant is
 * brought back to the revision it ran at its next try.
 */
import type { TenantResource } from "../../tenantResourcePort";
import type { ProvisioningStage } from "./provisioningStage";
import { isGoneOrStopped, isProvisioned, type ReconcileOptions, type StageContext } from "./stageContext";

/** Brings the tenant up on the revision due to reach it, if any. */
export async function rollOut(
  context: StageContext,
  provisioning: ProvisioningStage,
  read: TenantResource,
  options: ReconcileOptions,
): Promise<void> {
  const { fleet } = context.config;
  const due = (tenant: TenantResource) =>
    fleet?.dueFor(tenant.metadata.name, tenant.metadata.generation, tenant.status?.platformRevision);
  // Asked first of the tenant as read (no request), then of it as it stands after this reconcile's work.
  if (options.signal?.aborted || !due(read)) return;
  const tenant = await context.resources.get(read.metadata.name);
  if (isGoneOrStopped(tenant, options) || !isProvisioned(tenant!)) return;
  const revision = due(tenant!);
  if (revision) await provisioning.bringUpOnRevision(tenant!, options, revision);
}
