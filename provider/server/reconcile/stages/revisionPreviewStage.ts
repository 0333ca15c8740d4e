/**
 * The revision preview stage: a tenant's request is previewed on the platform revision it has not
 * been previewed on yet, if any, and what it would change (or why it fails) is recorded in the
 * revision's status. It changes nothing of the tenant; a write that fails is noted and tried at
 * the tenant's next reconcile, a failed preview at its next resync.
 */
import type { TenantResource } from "../../tenantResourcePort";
import { revisionTenantOf, type PreviewResult } from "../../revisions/fleetPreview";
import { errorMessage, noteOf, type ReconcileOptions, type StageContext } from "./stageContext";

/** Previews the tenant on the revision on the table, when it has not been yet. */
export async function previewOnRevision(
  context: StageContext,
  tenant: TenantResource,
  options: ReconcileOptions,
): Promise<void> {
  const { name, generation } = tenant.metadata;
  const { service, config, now } = context;
  const pending = config.fleet?.pendingFor(name, generation, options.resync, tenant.status?.platformRevision);
  if (!pending || options.signal?.aborted) return;
  const result: PreviewResult = await service
    .preview(name, tenant.spec, config.actor, {
      signal: options.signal,
      onNote: noteOf(context, name),
      policy: pending.policy,
    })
    .then(
      (steps) => ({ steps }),
      (error: unknown) => ({ failure: errorMessage(error) }),
    );
  if (options.signal?.aborted) return;
  try {
    await config.fleet!.record(pending.revision, revisionTenantOf(name, generation, result, now()));
  } catch (error) {
    noteOf(
      context,
      name,
    )(`its preview on platform revision ${pending.revision} was not recorded: ${errorMessage(error)}`);
  }
}
