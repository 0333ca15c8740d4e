/**
 * The reconciler: brings one Tenant resource's host objects to what its spec asks, through the
 * tenants service (a stack per tenant), and writes what happened into its status. The work queue
 * (reconcileQueue.ts) decides when; this decides what, for one tenant at a time:
 * - a Tenant being deleted is torn down, and its finalizer released only once nothing is left;
 * - otherwise the finalizer goes on first, then, when the Tenant asks for a preview only
 *   (PREVIEW_ONLY_ANNOTATION) or the platform requires approval and this generation and spec are
 *   not approved, the change is previewed and held with its plan in the status; else the stack is
 *   brought up with the spec read here, never one read again later (see tenantApproval.ts);
 * - then, when a platform revision is on the table that has not seen this tenant's request, the
 *   request is previewed on the revision's policy and the result recorded there (fleetPreview.ts);
 * - last, when the revision's rollout has reached the tenant's wave (fleetRollout.ts), the tenant
 *   is brought up on its policy, and the outcome recorded there too.
 * A tenant's stack always runs with the policy of the revision its status names (the server's own
 * policy before any), so that a resync never undoes a rollout. A tenant whose `spec.expiresAt` has
 * come is deleted (its finalizer tears it down), and one about to expire is warned in its status
 * (tenantExpiry.ts); the queue brings it back at the warning and at the expiry. Last, a provisioned
 * tenant's asks for a restore or a snapshot (its annotations, snapshots/snapshotAsks.ts) are served:
 * a restore brings the stack up asleep, has vCluster write the snapshot back, and brings it up as
 * its spec asks again.
 */
import {
  AWAITING_APPROVAL_PHASE,
  type HeldPhase,
  PREVIEW_ONLY_ANNOTATION,
  PREVIEWED_PHASE,
  TENANT_FINALIZER,
} from "../contracts/tenantResourceNames";
import type { Actor } from "../tenants/ports";
import { apiErrorText } from "../util/kubeClientErrors";
import { isProvisionedPhase, type ResourceStep, type TenantEvent } from "../tenants/tenantObject";
import { RequestChangedError, RequestInvalidError, TenantNotFoundError, TenantsError } from "../tenants/tenantsErrors";
import type { TenantsService } from "../tenants/tenantsService";
import { approvalCommand, isApproved, specSha256 } from "./tenantApproval";
import type {
  SecretKeyRef,
  TenantPlan,
  TenantResource,
  TenantResourceStatus,
  TenantResources,
} from "./tenantResourcePort";
import { failureEventReason, type TenantEvents } from "./tenantEvents";
import { planOf, planSummary } from "../tenants/tenantPlan";
import { revisionTenantOf, type PreviewResult } from "./fleetPreview";
import type { FleetPort, PendingRevision } from "./replicaFleet";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import { releaseName } from "../model/names";
import { ownerOf } from "../tenants/requestCheck";
import type { SnapshotStore } from "./snapshots/snapshotStore";
import type { VclusterSnapshots, VclusterTarget } from "./snapshots/vclusterSnapshots";
import { isOwnSnapshot, pendingRestore, pendingSnapshot, snapshotName } from "./snapshots/snapshotAsks";
import {
  EXPIRING_CONDITION,
  expiryStanding,
  type ExpiryStanding,
  isWarned,
  nextVisit,
  warnHoursOf,
  withExpiryCondition,
} from "./tenantExpiry";

/** How the reconciler works, as the server's configuration sets it. */
export interface ReconcilerConfig {
  /** Who the server acts as in the service: the platform's admin (admission already checked the owner). */
  readonly actor: Actor;
  /** Whether a changed Tenant waits, previewed, until an admin approves its generation and spec. */
  readonly requireApproval: boolean;
  /** Where the Events of `kubectl describe tenant` are recorded (none: no Events). */
  readonly events?: TenantEvents;
  /** The service's notes on a tenant's run (a wait for its stack's lock, a dead update's lock removed). */
  readonly onNote?: (tenant: string, line: string) => void;
  /** Told how each resync of a Ready tenant ended (ResyncOutcome). */
  readonly onResync?: (outcome: ResyncOutcome) => void;
  /** The fleet: the platform revision a tenant runs with, is to be previewed on, or brought up on (replicaFleet.ts). */
  readonly fleet?: FleetPort;
  /** The server's own policy, for what a tenant's run does not read (how long before its expiry it is warned). */
  readonly policy?: TenantPlatformInput;
  /** Where snapshots are kept, and vCluster's snapshot and restore; none: the asks are answered with a refusal. */
  readonly snapshots?: {
    readonly store: Pick<SnapshotStore, "objectOf" | "exists">;
    readonly vcluster: VclusterSnapshots;
  };
}

/**
 * How a resync of a Ready tenant ended: its preview after a refresh planned nothing (clean: no
 * update ran), planned a change (drifted), or failed (unknown: the update ran to tell).
 */
export type ResyncOutcome = "clean" | "drifted" | "unknown";

/** What one reconcile asks of the queue. */
export interface ReconcileResult {
  /** Whether to try again later (with backoff): a failure that may pass. */
  readonly retry: boolean;
  /** When to reconcile the tenant again whatever happens before (epoch ms): its expiry's warning, or the expiry. */
  readonly revisitAt?: number;
}

/** How one reconcile runs. */
export interface ReconcileOptions {
  /**
   * A resync (the periodic one, or a change the drift watch saw): a tenant Ready at its generation
   * is previewed after a refresh of the host's objects, and brought up (after a refresh) only when
   * that plans a change. A tenant with nothing to put back costs no update.
   */
  readonly resync?: boolean;
  /** Stops the reconcile (the server is stopping or lost the lead). */
  readonly signal?: AbortSignal;
}

/** What a progress status says when its event says nothing. */
const PROGRESS = { Pending: "a create is about to provision it", Provisioning: "provisioning" } as const;

/** The key of the Secret that holds a tenant's kubeconfig. */
export const KUBECONFIG_KEY = "config";

/** Where a tenant's kubeconfig Secret lives: in its own host namespace, which its teardown removes. */
export const kubeconfigSecretRef = (tenant: string, namespace: string): SecretKeyRef => ({
  name: `${tenant}-kubeconfig`,
  namespace,
  key: KUBECONFIG_KEY,
});

/** Reconciles Tenant resources. */
export class TenantReconciler {
  constructor(
    private readonly service: TenantsService,
    private readonly resources: TenantResources,
    private readonly config: ReconcilerConfig,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Reconciles Tenant `name` once. */
  async reconcile(name: string, options: ReconcileOptions = {}): Promise<ReconcileResult> {
    const tenant = await this.resources.get(name);
    if (!tenant) return { retry: false };
    if (tenant.metadata.deletionTimestamp) return this.tearDown(tenant, options);
    const expiry = this.expiryOf(tenant);
    if (expiry.state === "expired") return this.expire(tenant);
    const result = await this.bringToSpec(tenant, options);
    // After the tenant's own work, which a platform revision on the table must not hold up.
    await this.previewRevision(tenant, options);
    if (!result.retry) await this.rollOut(tenant, options);
    if (!result.retry) await this.serveSnapshotAsks(name, options);
    await this.warnOfExpiry(name, expiry);
    return { ...result, revisitAt: nextVisit(expiry) };
  }

  /** Serves a provisioned tenant's ask for a restore, else for a snapshot. */
  private async serveSnapshotAsks(name: string, options: ReconcileOptions): Promise<void> {
    const tenant = await this.resources.get(name);
    if (!tenant || tenant.metadata.deletionTimestamp || !isProvisioned(tenant) || options.signal?.aborted) return;
    const restore = pendingRestore(tenant);
    if (restore) return this.restore(tenant, restore, options);
    const ask = pendingSnapshot(tenant);
    if (ask) await this.snapshot(tenant, ask, options);
  }

  /** Takes a snapshot of the running tenant, and lists it in the status; a failure is an Event, not retried. */
  private async snapshot(tenant: TenantResource, ask: string, options: ReconcileOptions): Promise<void> {
    const { name } = tenant.metadata;
    const { snapshots } = this.config;
    const refusal = !snapshots
      ? "the server has no snapshot store (its configuration's `snapshots`)"
      : tenant.status?.phase === "Sleeping"
        ? "a sleeping tenant's control plane is down: wake it first"
        : undefined;
    if (refusal || !snapshots) {
      await this.updateStatus(name, { snapshotRequest: ask });
      return this.config.events?.record(tenant, "SnapshotFailed", `no snapshot taken: ${refusal}`);
    }
    const snapshot = snapshotName(name, this.now());
    const object = snapshots.store.objectOf(ownerOf(tenant.spec) ?? "", snapshot);
    try {
      await snapshots.vcluster.take(this.targetOf(tenant), snapshot, object, options.signal);
      const entry = { name: snapshot, takenAt: this.now().toISOString(), url: object.url };
      const latest = (await this.resources.get(name))?.status?.snapshots ?? [];
      await this.updateStatus(name, { snapshotRequest: ask, snapshots: [...latest, entry] });
      // The URL is in the status: an Event's scrubber would take its owner digest for a credential.
      await this.config.events?.record(tenant, "SnapshotTaken", `snapshot ${snapshot} is kept in the snapshot store`);
    } catch (error) {
      await this.updateStatus(name, { snapshotRequest: ask });
      await this.config.events?.record(tenant, "SnapshotFailed", `snapshot ${snapshot} failed: ${errorMessage(error)}`);
    }
  }

  /**
   * Restores the tenant from `snapshot`, one of its owner's: the stack brought up asleep, vCluster's
   * restore, and the stack brought up as its spec asks again, whether the restore worked or not.
   */
  private async restore(tenant: TenantResource, snapshot: string, options: ReconcileOptions): Promise<void> {
    const { name } = tenant.metadata;
    const { snapshots } = this.config;
    const refuse = async (why: string) => {
      await this.updateStatus(name, { restoredFrom: snapshot });
      await this.config.events?.record(tenant, "RestoreFailed", `not restored from ${snapshot}: ${why}`);
    };
    if (!snapshots) return refuse("the server has no snapshot store (its configuration's `snapshots`)");
    // Looked up under this tenant's owner only: another owner's snapshot is not found, whatever its name.
    const object = snapshots.store.objectOf(ownerOf(tenant.spec) ?? "", snapshot);
    const found = await snapshots.store.exists(object).catch((error: unknown) => error as Error);
    if (found !== true) return refuse(found ? errorMessage(found) : "the tenant's owner has no snapshot of that name");
    await this.config.events?.record(
      tenant,
      "Restoring",
      `restoring snapshot ${snapshot}: the control plane goes down first`,
    );
    const revision = this.config.fleet?.runningPolicy(tenant.status?.platformRevision);
    if ((await this.provision(tenant, options, { revision, asleep: true })).retry) return;
    const failure = await snapshots.vcluster
      .restore(this.targetOf(tenant), object, !isOwnSnapshot(tenant, snapshot), options.signal)
      .then(
        () => undefined,
        (error: unknown) => errorMessage(error),
      );
    const asleep = await this.resources.get(name);
    if (asleep && !asleep.metadata.deletionTimestamp) await this.provision(asleep, options, { revision });
    await this.updateStatus(name, { restoredFrom: snapshot });
    if (failure) await this.config.events?.record(tenant, "RestoreFailed", `restoring ${snapshot} failed: ${failure}`);
    else await this.config.events?.record(tenant, "Restored", `restored from snapshot ${snapshot}`);
  }

  /** The tenant's vCluster on the host. */
  private targetOf(tenant: TenantResource): VclusterTarget {
    const { name } = tenant.metadata;
    return { tenant: name, namespace: tenant.status!.namespace!, release: releaseName(name) };
  }

  /** Writes `fields` over the tenant's status as it stands now. */
  private async updateStatus(name: string, fields: Partial<TenantResourceStatus>): Promise<void> {
    const status = (await this.resources.get(name))?.status;
    if (status) await this.resources.writeStatus(name, { ...status, ...fields });
  }

  /** Where the tenant stands against its expiry now, warned as its running policy says. */
  private expiryOf(tenant: TenantResource): ExpiryStanding {
    const running = this.config.fleet?.runningPolicy(tenant.status?.platformRevision)?.policy;
    return expiryStanding(tenant.spec.expiresAt, this.now(), warnHoursOf(running ?? this.config.policy));
  }

  /** Deletes a Tenant whose expiry has come: the deletion's reconcile tears it down like any other. */
  private async expire(tenant: TenantResource): Promise<ReconcileResult> {
    await this.config.events?.record(tenant, "Expired", `it expired at ${tenant.spec.expiresAt}; deleting it`);
    await this.resources.delete(tenant.metadata.name);
    return { retry: false };
  }

  /** Sets or clears the status's Expiring condition as `expiry` says, with an Event when the warning starts. */
  private async warnOfExpiry(name: string, expiry: ExpiryStanding): Promise<void> {
    const tenant = await this.resources.get(name);
    if (!tenant?.status || tenant.metadata.deletionTimestamp) return;
    const warned = expiry.state === "warned";
    if (warned === isWarned(tenant.status)) return;
    const conditions = withExpiryCondition(tenant.status.conditions, expiry, this.now(), tenant.metadata.generation);
    await this.resources.writeStatus(name, { ...tenant.status, conditions });
    if (warned) await this.config.events?.record(tenant, "ExpiringSoon", conditions.at(-1)!.message);
  }

  /**
   * Brings a Ready tenant up on the platform revision whose rollout is due to reach it, and
   * records the outcome in the revision's status: a failure halts the rollout, and the tenant is
   * brought back to the revision it ran at its next try.
   */
  private async rollOut(read: TenantResource, options: ReconcileOptions): Promise<void> {
    const { fleet } = this.config;
    const due = (tenant: TenantResource) =>
      fleet?.dueFor(tenant.metadata.name, tenant.metadata.generation, tenant.status?.platformRevision);
    // Asked first of the tenant as read (no request), then of it as it stands after this reconcile's work.
    if (options.signal?.aborted || !due(read)) return;
    const tenant = await this.resources.get(read.metadata.name);
    if (!tenant || tenant.metadata.deletionTimestamp || !isProvisioned(tenant)) return;
    const revision = due(tenant);
    if (revision) await this.provision(tenant, options, { revision, applying: true });
  }

  /** Brings a Tenant that is not being deleted to its spec, or holds its change at a gate. */
  private async bringToSpec(tenant: TenantResource, options: ReconcileOptions): Promise<ReconcileResult> {
    const { name } = tenant.metadata;
    if (!tenant.metadata.finalizers?.includes(TENANT_FINALIZER)) {
      // First, so that a delete from now on waits for the teardown.
      await this.resources.addFinalizer(name, TENANT_FINALIZER);
    }
    if (isProvisioned(tenant) && !options.resync) return { retry: false };
    const revision = this.config.fleet?.runningPolicy(tenant.status?.platformRevision);
    // A preview-only Tenant's change is held first, whatever the approval: its writer asked for no change yet.
    if (isPreviewOnly(tenant) && !isProvisioned(tenant)) return this.hold(tenant, PREVIEW_ONLY_GATE, options, revision);
    if (this.config.requireApproval && !isApproved(tenant) && !isProvisioned(tenant))
      return this.hold(tenant, APPROVAL_GATE, options, revision);
    if (isProvisioned(tenant) && !(await this.drifted(tenant, options, revision))) return { retry: false };
    return this.provision(tenant, options, { revision });
  }

  /**
   * Previews the tenant's request on the platform revision it has not been previewed on yet, if
   * any, and records what it would change (or why it fails) in the revision's status. It changes
   * nothing of the tenant; a write that fails is noted and tried at the tenant's next reconcile, a
   * failed preview at its next resync.
   */
  private async previewRevision(tenant: TenantResource, options: ReconcileOptions): Promise<void> {
    const { name, generation } = tenant.metadata;
    const pending = this.config.fleet?.pendingFor(name, generation, options.resync, tenant.status?.platformRevision);
    if (!pending || options.signal?.aborted) return;
    const result: PreviewResult = await this.service
      .preview(name, tenant.spec, this.config.actor, {
        signal: options.signal,
        onNote: this.noteOf(name),
        policy: pending.policy,
      })
      .then(
        (steps) => ({ steps }),
        (error: unknown) => ({ failure: errorMessage(error) }),
      );
    if (options.signal?.aborted) return;
    try {
      await this.config.fleet!.record(pending.revision, revisionTenantOf(name, generation, result, this.now()));
    } catch (error) {
      this.noteOf(name)(
        `its preview on platform revision ${pending.revision} was not recorded: ${errorMessage(error)}`,
      );
    }
  }

  /** Where the service's notes on tenant `name`'s run go. */
  private noteOf(name: string): (line: string) => void {
    return (line) => this.config.onNote?.(name, line);
  }

  /**
   * Whether the host drifted from a Ready tenant's stack: a preview after a refresh plans a change.
   * A preview that fails says nothing either way, so the update runs (and reports what failed).
   */
  private async drifted(
    tenant: TenantResource,
    options: ReconcileOptions,
    revision: PendingRevision | undefined,
  ): Promise<boolean> {
    const { name } = tenant.metadata;
    const outcome: ResyncOutcome = await this.service
      .preview(name, tenant.spec, this.config.actor, {
        signal: options.signal,
        refresh: true,
        onNote: this.noteOf(name),
        policy: revision?.policy,
      })
      .then(
        (steps) => (planOf(steps).steps.length > 0 ? "drifted" : "clean"),
        () => "unknown" as const,
      );
    this.config.onResync?.(outcome);
    return outcome !== "clean";
  }

  /**
   * Marks a Tenant that has no status yet Pending, so that one waiting for its turn (the queue
   * reconciles a few at a time) shows it was seen. Called before its first reconcile is queued.
   */
  async acknowledge(name: string): Promise<void> {
    const tenant = await this.resources.get(name);
    if (!tenant || tenant.status || tenant.metadata.deletionTimestamp) return;
    await this.resources.writeStatus(
      name,
      this.statusOf(tenant, "Pending", "Pending", "accepted; waiting for its turn"),
    );
    await this.config.events?.record(tenant, "Accepted");
  }

  /**
   * Brings the tenant's stack up with the spec read here (the one the approval gate checked) and
   * the policy of `run.revision` (none: the server's own), writing each phase as it moves, and its
   * kubeconfig once Ready.
   */
  private async provision(tenant: TenantResource, options: ReconcileOptions, run: PolicyRun): Promise<ReconcileResult> {
    const { name, generation } = tenant.metadata;
    // A resync of a Ready tenant keeps showing Ready while it runs: only its end is written. A
    // rollout's update is never quiet, even in a resync: what it changes is no drift put back.
    const quiet = options.resync && isProvisioned(tenant) && !run.applying;
    const changes = stepCounter();
    const progress = quiet ? changes : this.progressWriter(tenant);
    await this.recordStart(tenant, quiet, run);
    let deployedKubeconfig: string | undefined;
    try {
      await this.service.create(name, tenant.spec, this.config.actor, {
        onNote: this.noteOf(name),
        onEvent: progress.onEvent,
        signal: options.signal,
        refresh: options.resync,
        checkedGeneration: generation,
        policy: run.revision?.policy,
        platformRevision: run.revision?.revision,
        asleep: run.asleep,
        onKubeconfig: (kubeconfig) => (deployedKubeconfig = kubeconfig),
      });
      await progress.settled();
      const status = await this.serviceStatus(tenant);
      const ref = kubeconfigSecretRef(name, status.namespace!);
      const kubeconfig = await this.resources.writeKubeconfig(
        name,
        ref,
        deployedKubeconfig ?? (await this.service.kubeconfig(name, this.config.actor)),
      );
      // A chart upgrade or a rollout keeps the kubeconfig; when it must change, the status says when.
      const changedAt = kubeconfig === "changed" ? this.now().toISOString() : status.kubeconfigChangedAt;
      await this.resources.writeStatus(name, {
        ...status,
        kubeconfigSecretRef: ref,
        platformRevision: run.revision?.revision,
        kubeconfigChangedAt: changedAt,
      });
      if (kubeconfig === "changed") await this.config.events?.record(tenant, "KubeconfigChanged");
      if (run.revision) await this.recordApplied(name, generation, run.revision.revision);
      if (!quiet && status.phase === "Sleeping")
        await this.config.events?.record(tenant, "Sleeping", `generation ${generation} is asleep`);
      else if (!quiet) await this.config.events?.record(tenant, "Ready", `generation ${generation} is ready`);
      else if (changes.count() > 0)
        await this.config.events?.record(
          tenant,
          "DriftRepaired",
          `the resync changed ${changes.count()} resource(s) back`,
        );
      return { retry: false };
    } catch (error) {
      await progress.settled();
      // The spec changed after it was read here (nothing ran): the new one is reconciled from the
      // start, so it is held when it is not approved. Each round needs another change of the spec.
      if (error instanceof RequestChangedError) return this.reconcile(name, options);
      if (run.applying && run.revision)
        await this.config.fleet
          ?.recordApplyFailure(run.revision.revision, name, generation, errorMessage(error))
          .catch((recordError: unknown) =>
            this.noteOf(name)(`its failure was not recorded: ${errorMessage(recordError)}`),
          );
      return this.failed(tenant, error);
    }
  }

  /** Records in the revision that the tenant runs it; a write that fails is noted, and made at its next run. */
  private async recordApplied(name: string, generation: number, revision: string): Promise<void> {
    try {
      await this.config.fleet?.recordApplied(revision, name, generation);
    } catch (error) {
      this.noteOf(name)(`that it runs platform revision ${revision} was not recorded: ${errorMessage(error)}`);
    }
  }

  /** Records a provisioning's start: approved first when it leaves the approval gate; nothing for a quiet resync. */
  private async recordStart(tenant: TenantResource, quiet: boolean | undefined, run: PolicyRun): Promise<void> {
    if (quiet) return;
    const { generation } = tenant.metadata;
    if (tenant.status?.phase === "AwaitingApproval" && isApproved(tenant))
      await this.config.events?.record(tenant, "Approved", `an admin approved generation ${generation}`);
    await this.config.events?.record(
      tenant,
      "Provisioning",
      run.applying
        ? `bringing generation ${generation} up on platform revision ${run.revision!.revision}`
        : `provisioning generation ${generation}`,
    );
  }

  /** Previews the change (with `revision`'s policy) and holds it, its plan in the status, until `gate` lets it go. */
  private async hold(
    tenant: TenantResource,
    gate: HoldingGate,
    options: ReconcileOptions,
    revision: PendingRevision | undefined,
  ): Promise<ReconcileResult> {
    const { name, generation } = tenant.metadata;
    const sha256 = specSha256(tenant.spec);
    const held = tenant.status?.plan;
    if (tenant.status?.phase === gate.phase && held?.generation === generation && held.specSha256 === sha256)
      return { retry: false };
    try {
      const steps = await this.service.preview(name, tenant.spec, this.config.actor, {
        signal: options.signal,
        onNote: this.noteOf(name),
        policy: revision?.policy,
      });
      const plan = gatePlanOf(generation, sha256, steps);
      await this.resources.writeStatus(name, {
        ...this.statusOf(tenant, gate.phase, gate.phase, gate.message(name, plan)),
        plan,
      });
      await this.config.events?.record(tenant, gate.phase, gate.note(plan));
      return { retry: false };
    } catch (error) {
      return this.failed(tenant, error);
    }
  }

  /** Tears the tenant down; the service releases the finalizer (through the request store) once nothing is left. */
  private async tearDown(tenant: TenantResource, options: ReconcileOptions): Promise<ReconcileResult> {
    const { name } = tenant.metadata;
    if (!tenant.metadata.finalizers?.includes(TENANT_FINALIZER)) return { retry: false };
    await this.resources.writeStatus(name, this.statusOf(tenant, "Deleting", "Deleting", "tearing the tenant down"));
    await this.config.events?.record(tenant, "Deleting");
    try {
      await this.service.delete(name, this.config.actor, { signal: options.signal, onNote: this.noteOf(name) });
      // The Tenant is gone now (the service released the finalizer); its Event names it by its UID still.
      await this.config.events?.record(tenant, "Deleted");
      return { retry: false };
    } catch (error) {
      if (error instanceof TenantNotFoundError) {
        await this.config.events?.record(tenant, "Deleted");
        await this.resources.removeFinalizer(name, TENANT_FINALIZER);
        return { retry: false };
      }
      const message = `the teardown failed and is tried again: ${errorMessage(error)}`;
      await this.resources.writeStatus(name, this.statusOf(tenant, "Deleting", "Deleting", message));
      await this.config.events?.record(tenant, "DeleteFailed", message);
      return { retry: true };
    }
  }

  /** Writes the status of a failed reconcile; an invalid request waits for a new spec, anything else is retried. */
  private async failed(tenant: TenantResource, error: unknown): Promise<ReconcileResult> {
    const { name } = tenant.metadata;
    if (error instanceof RequestInvalidError) {
      await this.resources.writeStatus(name, {
        ...this.statusOf(tenant, "Failed", "InvalidRequest", error.message),
        observedGeneration: tenant.metadata.generation,
      });
      await this.config.events?.record(tenant, "InvalidRequest", error.message);
      return { retry: false };
    }
    const status = await this.serviceStatus(tenant);
    const failed =
      status.phase === "Failed" ? status : this.statusOf(tenant, "Failed", "ProvisioningFailed", errorMessage(error));
    await this.resources.writeStatus(name, { ...failed, message: `${failed.message} (tried again later)` });
    await this.config.events?.record(tenant, failureEventReason(failed.conditions[0]?.reason), failed.message);
    return { retry: true };
  }

  /**
   * Writes the tenant's phase as a run moves it (Pending, then Provisioning), one write at a time
   * and in order; the run's own end (Ready or Failed) is written after `settled`, so it stays.
   */
  private progressWriter(tenant: TenantResource): {
    readonly onEvent: (event: TenantEvent) => void;
    readonly settled: () => Promise<void>;
  } {
    let written: string | undefined;
    let writes = Promise.resolve();
    return {
      onEvent: (event) => {
        if ((event.phase !== "Pending" && event.phase !== "Provisioning") || event.phase === written) return;
        written = event.phase;
        // Made now, from the event: a status read later could already tell of a later step.
        const status = this.statusOf(tenant, event.phase, event.phase, event.detail ?? PROGRESS[event.phase]);
        // A progress write that fails is superseded by the run's last write.
        writes = writes.then(() => this.resources.writeStatus(tenant.metadata.name, status)).catch(() => undefined);
      },
      settled: () => writes,
    };
  }

  /** The service's status of the tenant, with the endpoints the resource already shows kept. */
  private async serviceStatus(tenant: TenantResource): Promise<TenantResourceStatus> {
    const status = (await this.service.get(tenant.metadata.name, this.config.actor)).status;
    const conditions = [...status.conditions.map((c) => ({ ...c })), ...otherConditions(tenant.status)];
    return { ...kept(tenant.status), ...status, conditions };
  }

  /** A status of the reconciler's own making (the gate, an invalid request, a teardown). */
  private statusOf(
    tenant: TenantResource,
    phase: TenantResourceStatus["phase"],
    reason: TenantResourceStatus["conditions"][number]["reason"],
    message: string,
  ): TenantResourceStatus {
    const ready =
      phase === "Ready"
        ? "True"
        : phase === "Failed" || phase === "Deleting" || phase === "Sleeping"
          ? "False"
          : "Unknown";
    const previous = tenant.status?.conditions.find((c) => c.type === "Ready");
    const changed = !previous || previous.status !== ready || previous.reason !== reason;
    return {
      ...kept(tenant.status),
      phase,
      message,
      conditions: [
        {
          type: "Ready",
          status: ready,
          reason,
          message,
          lastTransitionTime: changed
            ? this.now().toISOString()
            : (previous?.lastTransitionTime ?? this.now().toISOString()),
          observedGeneration: tenant.metadata.generation,
        },
        ...otherConditions(tenant.status),
      ],
    };
  }
}

/** The conditions a status keeps across the reconciler's writes of its Ready condition: the expiry's warning. */
const otherConditions = (status: TenantResourceStatus | undefined): TenantResourceStatus["conditions"] =>
  (status?.conditions ?? []).filter((condition) => condition.type === EXPIRING_CONDITION);

/** The progress of a run whose phases are not written (a resync of a Ready tenant): it counts the steps that change something, the drift it repairs. */
function stepCounter(): {
  readonly onEvent: (event: TenantEvent) => void;
  readonly settled: () => Promise<void>;
  readonly count: () => number;
} {
  let steps = 0;
  return {
    onEvent: (event: TenantEvent) => void (event.phase === "Provisioning" && event.detail && steps++),
    settled: async () => {},
    count: () => steps,
  };
}

/** What a status keeps across the reconciler's own writes: where the tenant was provisioned, on which revision, and its snapshots. */
function kept(status: TenantResourceStatus | undefined): Partial<TenantResourceStatus> {
  if (!status) return {};
  const { apiServerUrl, appsDomain, namespace, kubeconfigSecretRef, kubeconfigChangedAt } = status;
  const { observedGeneration, platformRevision, snapshots, snapshotRequest, restoredFrom } = status;
  const fields = {
    ...{ apiServerUrl, appsDomain, namespace, kubeconfigSecretRef, kubeconfigChangedAt },
    ...{ observedGeneration, platformRevision, snapshots, snapshotRequest, restoredFrom },
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The policy a run brings a tenant up with. */
interface PolicyRun {
  /** The revision whose policy it runs with; none: the server's own. */
  readonly revision?: PendingRevision;
  /** Whether it brings the tenant up on a revision being rolled out (its failure halts the rollout). */
  readonly applying?: boolean;
  /** Whether it brings the tenant up asleep whatever its spec asks (a restore, before it writes the data back). */
  readonly asleep?: boolean;
}

/** What holds a Tenant's change with its plan in the status, and what its status and Event say. */
interface HoldingGate {
  /** The phase (and the Ready condition's reason, and the Event's) while it holds. */
  readonly phase: HeldPhase;
  /** The status message: the plan in a few words, and what lets the change go on. */
  readonly message: (name: string, plan: TenantPlan) => string;
  /** The Event's note. */
  readonly note: (plan: TenantPlan) => string;
}

/** The approval gate: the platform requires an admin's approval of each generation and spec. */
const APPROVAL_GATE: HoldingGate = {
  phase: AWAITING_APPROVAL_PHASE,
  message: (name, plan) =>
    `generation ${plan.generation} waits for approval (${planSummary(plan)}): an admin approves it with \`${approvalCommand(name, plan.generation, plan.specSha256!)}\``,
  note: (plan) => `generation ${plan.generation} waits for an admin's approval (${planSummary(plan)})`,
};

/** The Tenant's own ask for a preview only (PREVIEW_ONLY_ANNOTATION). */
const PREVIEW_ONLY_GATE: HoldingGate = {
  phase: PREVIEWED_PHASE,
  message: (_name, plan) =>
    `generation ${plan.generation} is previewed only (${planSummary(plan)}); nothing is provisioned until the annotation ${PREVIEW_ONLY_ANNOTATION} goes`,
  note: (plan) => `generation ${plan.generation} previewed only (${planSummary(plan)})`,
};

/** Whether the Tenant asks for a preview only. */
const isPreviewOnly = (tenant: TenantResource): boolean =>
  tenant.metadata.annotations?.[PREVIEW_ONLY_ANNOTATION] === "true";

/** Whether the tenant is as its current generation asks (Ready, or Sleeping). */
const isProvisioned = (tenant: TenantResource): boolean =>
  isProvisionedPhase(tenant.status?.phase) && tenant.status?.observedGeneration === tenant.metadata.generation;

/** The plan of `steps` for the spec of `generation` whose digest is `specSha256`: what changes, counted by kind. */
export function gatePlanOf(generation: number, specSha256: string, steps: readonly ResourceStep[]): TenantPlan {
  const { steps: changing, ...counts } = planOf(steps);
  return { generation, specSha256, ...counts, steps: changing.map((step) => ({ ...step, diffs: [...step.diffs] })) };
}

const errorMessage = (error: unknown): string => (error instanceof TenantsError ? error.message : apiErrorText(error));
