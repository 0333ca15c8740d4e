/**
 * The reconciler: one reconcile of a Tenant walks the stages in stages/ in this order, each a file
 * of its own. The work queue (reconcileQueue.ts) decides when; the order is:
 * 1. teardown, when the Tenant is being deleted (and nothing else);
 * 2. the finalizer;
 * 3. expiry: a Tenant whose expiry in force (the running generation's) has come is deleted;
 * 4. provisioning, which alone asks the gates and alone brings a stack up (a generation that passes
 *    them with its own expiry past is deleted instead);
 * 5. the preview on a platform revision on the table;
 * 6. the rollout of a revision that reached the tenant (through provisioning);
 * 7. a restore or a snapshot the Tenant asks for (a restore through provisioning);
 * 8. the expiry's warning, and when to come back for it.
 * Stages 6 and 7 run only when provisioning asked for no retry.
 */
import type { TenantsService } from "../../tenants/tenantsService";
import type { TenantResources } from "../tenantResourcePort";
import { pendingRestore, pendingSnapshot } from "../snapshots/snapshotAsks";
import { ExpiryStage } from "./stages/expiryStage";
import { holdWithFinalizer } from "./stages/finalizerStage";
import { ProvisioningStage } from "./stages/provisioningStage";
import { restore } from "./stages/restoreStage";
import { previewOnRevision } from "./stages/revisionPreviewStage";
import { rollOut } from "./stages/rolloutStage";
import { takeSnapshot } from "./stages/snapshotStage";
import {
  DONE,
  isGoneOrStopped,
  isProvisioned,
  type ReconcileOptions,
  type ReconcileResult,
  type ReconcilerConfig,
  type StageContext,
} from "./stages/stageContext";
import { tearDown } from "./stages/teardownStage";
import { TenantStatusWrites } from "./stages/tenantStatusWrites";

export type { ReconcileOptions, ReconcileResult, ReconcilerConfig, ResyncOutcome } from "./stages/stageContext";
export { gatePlanOf, kubeconfigSecretRef, KUBECONFIG_KEY } from "./stages/provisioningStage";

/** Reconciles Tenant resources. */
export class TenantReconciler {
  private readonly context: StageContext;
  private readonly statuses: TenantStatusWrites;
  private readonly provisioning: ProvisioningStage;
  private readonly expiry: ExpiryStage;

  constructor(service: TenantsService, resources: TenantResources, config: ReconcilerConfig, now = () => new Date()) {
    this.context = { service, resources, config, now };
    this.statuses = new TenantStatusWrites(this.context);
    this.provisioning = new ProvisioningStage(this.context, this.statuses, service);
    this.expiry = new ExpiryStage(this.context);
  }

  /** Reconciles Tenant `name` once. */
  async reconcile(name: string, options: ReconcileOptions = {}): Promise<ReconcileResult> {
    const tenant = await this.context.resources.get(name);
    if (!tenant) return DONE;
    if (tenant.metadata.deletionTimestamp) return tearDown(this.context, this.statuses, tenant, options);
    await holdWithFinalizer(this.context, tenant);
    if (await this.expiry.expireIfDue(tenant)) return DONE;
    const result = await this.provisioning.bringToSpec(tenant, options);
    // The spec changed under the run (nothing ran): the new one starts again, at the gates.
    if (result === "changed") return this.reconcile(name, options);
    // The gates let through a generation whose own expiry has passed: it is not brought up.
    if (result === "expired") return this.expiry.expire(tenant, tenant.spec.expiresAt!).then(() => DONE);
    // After the tenant's own work, which a platform revision on the table must not hold up.
    await previewOnRevision(this.context, tenant, options);
    if (!result.retry) await rollOut(this.context, this.provisioning, tenant, options);
    if (!result.retry) await this.serveSnapshotAsks(name, options);
    return { ...result, revisitAt: await this.expiry.warn(name) };
  }

  /** Serves a running tenant's ask for a restore, else for a snapshot. */
  private async serveSnapshotAsks(name: string, options: ReconcileOptions): Promise<void> {
    const tenant = await this.context.resources.get(name);
    if (isGoneOrStopped(tenant, options) || !isProvisioned(tenant!)) return;
    const from = pendingRestore(tenant!);
    if (from) return restore(this.context, this.statuses, this.provisioning, tenant!, from, options);
    const ask = pendingSnapshot(tenant!);
    if (ask) await takeSnapshot(this.context, this.statuses, tenant!, ask, options);
  }

  /**
   * Marks a Tenant that has no status yet Pending, so that one waiting for its turn (the queue
   * reconciles a few at a time) shows it was seen. Called before its first reconcile is queued.
   */
  async acknowledge(name: string): Promise<void> {
    const tenant = await this.context.resources.get(name);
    if (!tenant || tenant.status || tenant.metadata.deletionTimestamp) return;
    await this.statuses.write(tenant, "Pending", "Pending", "accepted; waiting for its turn");
    await this.context.config.events?.record(tenant, "Accepted");
  }
}
