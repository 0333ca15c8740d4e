/**
 * One replica's part of the fleet: it knows the PlatformRevisions (from its watch), tells the
 * reconciler which revision a tenant it owns runs with, is still to be previewed on, or is due to
 * be brought up on (fleetRollout.ts), records each result in the revision's status with the
 * rollout worked out again, and asks for the reconcile of each of its tenants that a revision has
 * work for. The previews and updates themselves run in the tenants' reconciles, so they share the
 * queue's limit, hold the tenants' claims, and never run beside another run of the same tenant.
 */
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";
import { apiErrorText } from "../../util/kubeClientErrors";
import type {
  PlatformRevisionStatus,
  RevisionRollout,
  RevisionTenant,
} from "../../tenantResource/platformRevisionStatus";
import { isDeepStrictEqual } from "node:util";
import {
  currentRevision,
  invalidRevisionStatus,
  needsPreview,
  newestRolledOut,
  withPreviews,
  type PlatformRevision,
} from "./fleetPreview";
import { isDue, rolloutOf } from "./fleetRollout";
import { REVISION_FINALIZER } from "../../contracts/platformRevisionNames";

/** What the fleet preview needs of the host's API server (the Kubernetes adapter: kubePlatformRevisions.ts). */
export interface PlatformRevisionStore {
  /** Revision `name`, if it exists. */
  get(name: string): Promise<PlatformRevision | undefined>;
  /** Replaces the status of `revision` as read; false when another wrote it since (nothing written). */
  writeStatus(revision: PlatformRevision, status: PlatformRevisionStatus): Promise<boolean>;
  /** Puts REVISION_FINALIZER on revision `name` (`present`) or takes it off; nothing when it is so already, or gone. */
  changeFinalizer(name: string, present: boolean): Promise<void>;
}

/** A revision and its policy, as a tenant's stack runs with it. */
export interface PendingRevision {
  /** The revision's name. */
  readonly revision: string;
  /** Its policy, as the tenant's stack is to run with it. */
  readonly policy: TenantPlatformInput;
}

/** What the reconciler asks of the fleet. */
export interface FleetPort {
  /**
   * The revision tenant `name` at `generation`, running revision `running`, is still to be
   * previewed on, if any; with `retryFailed` (a resync), also one whose preview at that
   * generation failed. None when the tenant runs the revision already.
   */
  pendingFor(name: string, generation: number, retryFailed?: boolean, running?: string): PendingRevision | undefined;
  /** Records a tenant's preview in revision `revision`'s status. */
  record(revision: string, entry: RevisionTenant): Promise<void>;
  /**
   * The revision a tenant runs with: the one its status names, else the newest one rolled out to
   * every tenant; none: the server's own policy.
   */
  runningPolicy(running: string | undefined): PendingRevision | undefined;
  /** The revision tenant `name` at `generation`, running `running`, is due to be brought up on now, if any. */
  dueFor(name: string, generation: number, running: string | undefined): PendingRevision | undefined;
  /** Records that tenant `name` at `generation` was brought up on `revision`, if it is the one on the table. */
  recordApplied(revision: string, name: string, generation: number): Promise<void>;
  /** Records why bringing tenant `name` at `generation` up on `revision` failed: it halts the rollout. */
  recordApplyFailure(revision: string, name: string, generation: number, reason: string): Promise<void>;
}

/** How a replica's part of the fleet preview is wired. */
export interface ReplicaFleetOptions {
  /** A revision's policy as tenants' stacks run with it; throws ProblemError naming what is wrong. */
  readonly policyOf: (name: string, platform: unknown) => TenantPlatformInput;
  /** The replica's log. */
  readonly log: (line: string, level?: "info" | "warn") => void;
  /** The clock, for the times written in the status. */
  readonly now?: () => Date;
}

/** The replica's share of the tenants, as the fleet preview sees it (replicaWork.ts gives it once its queue runs). */
export interface FleetShare {
  /** Every tenant this replica's watch knows: a revision's sum is over them. */
  readonly tenants: () => ReadonlySet<string>;
  /** The tenants this replica owns. */
  readonly owned: () => Iterable<string>;
  /** Asks for the reconcile of tenant `name`, which a revision has not seen. */
  readonly onPending: (name: string) => void;
}

/** How often a result is written again after another replica's write came first. */
const WRITE_ATTEMPTS = 8;

/** How the current revision's rollout stands, in numbers (the `kubespaces_rollout_*` gauges). */
export interface RolloutProgress {
  /** The rollout's phase. */
  readonly phase: RevisionRollout["phase"];
  /** The open wave (1 is the first), while it rolls out or is halted. */
  readonly wave?: number;
  /** How many waves it is rolled out in. */
  readonly waves: number;
  /** How many tenants run the revision. */
  readonly applied: number;
  /** How many tenants there are to run it (the fleet preview's count). */
  readonly tenants: number;
}

/** A replica's part of the fleet: the preview and the rollout of the tenants it owns. */
export class ReplicaFleet implements FleetPort {
  private readonly revisions = new Map<string, PlatformRevision>();
  /** The replica's share, once it runs: until then no tenant is reconciled, so none is previewed. */
  private share: FleetShare | undefined;
  /**
   * What this replica recorded (`revision/tenant/generation`): known at once, while the watch may
   * still bring an older status, so that a reconcile asked for meanwhile previews nothing again.
   */
  private readonly recorded = new Set<string>();
  /** The revision each tenant runs, by tenant, as its status says (the watch of Tenants tells). */
  private readonly running = new Map<string, string>();
  /** The revisions whose finalizer this replica is changing now. */
  private readonly finalizing = new Set<string>();

  constructor(
    private readonly store: PlatformRevisionStore,
    private readonly options: ReplicaFleetOptions,
  ) {}

  /** Starts following the replica's share: each owned tenant the current revision has not seen, or is due, is asked for. */
  follow(share: FleetShare): void {
    this.share = share;
    const revision = currentRevision(this.revisions.values());
    if (revision) this.seen(revision);
    this.settleFinalizers();
  }

  /** The watch saw tenant `name`'s status name `revision` as the one it runs (none: the server's own policy). */
  tenantRuns(name: string, revision: string | undefined): void {
    if (this.running.get(name) === revision) return;
    if (revision === undefined) this.running.delete(name);
    else this.running.set(name, revision);
    this.settleFinalizers();
  }

  /** Tenant `name` is gone: it runs no revision any more. */
  tenantGone(name: string): void {
    if (this.running.delete(name)) this.settleFinalizers();
  }

  /**
   * Keeps REVISION_FINALIZER on every revision, and takes it off one being deleted once no tenant
   * runs it. Only once the share runs: before that, not every tenant is known.
   */
  private settleFinalizers(): void {
    if (!this.share) return;
    const inUse = new Set(this.running.values());
    for (const revision of this.revisions.values()) {
      const { name, deletionTimestamp, finalizers = [] } = revision.metadata;
      const has = finalizers.includes(REVISION_FINALIZER);
      const wanted = !deletionTimestamp || inUse.has(name);
      if (has !== wanted) void this.changeFinalizer(name, wanted);
    }
  }

  private async changeFinalizer(name: string, present: boolean): Promise<void> {
    // One change at a time per revision: until the watch brings it, each event would ask again.
    if (this.finalizing.has(name)) return;
    this.finalizing.add(name);
    try {
      await this.store.changeFinalizer(name, present);
    } catch (error) {
      this.options.log(`platform revision ${name}: its finalizer was not changed: ${apiErrorText(error)}`, "warn");
    } finally {
      this.finalizing.delete(name);
    }
  }

  /**
   * How the current revision's rollout stands, as its status (from the watch) says: for the
   * metrics, read at a scrape without asking the host. Undefined while no revision is current or
   * its rollout has not been worked out yet.
   */
  currentRollout(): RolloutProgress | undefined {
    const revision = currentRevision(this.revisions.values());
    const rollout = revision?.status?.rollout;
    if (!rollout) return undefined;
    return {
      phase: rollout.phase,
      wave: rollout.wave,
      waves: rollout.waves,
      applied: rollout.applied,
      tenants: revision.status?.summary?.tenants ?? 0,
    };
  }

  /** The watch saw `revision`, new or changed. */
  seen(revision: PlatformRevision): void {
    this.revisions.set(revision.metadata.name, revision);
    this.settleFinalizers();
    const problems = this.problemsOf(revision);
    if (problems !== undefined) {
      if (revision.status?.phase !== "Invalid") void this.markInvalid(revision, problems);
      return;
    }
    if (!this.share) return;
    // Every replica works the rollouts out again from what it sees; the first write of a change lands.
    for (const known of this.revisions.values()) void this.settleRollout(known);
    if (currentRevision(this.revisions.values()) !== revision) return;
    for (const name of this.share.owned()) if (this.wantsWork(revision, name)) this.share.onPending(name);
  }

  /** Whether tenant `name` is to be previewed on the revision on the table, or brought up on it. */
  private wantsWork(revision: PlatformRevision, name: string): boolean {
    const entry = revision.status?.tenants?.find((t) => t.name === name);
    if (entry && isDue(revision, name, entry.generation)) return true;
    return needsPreview(revision, name) && !this.wasRecorded(revision.metadata.name, name);
  }

  /** Revision `name` was deleted. */
  gone(name: string): void {
    this.revisions.delete(name);
    for (const key of this.recorded) if (key.startsWith(`${name}/`)) this.recorded.delete(key);
  }

  /** Whether this replica recorded a result of tenant `name` on `revision`, at any generation. */
  private wasRecorded(revision: string, name: string): boolean {
    for (const key of this.recorded) if (key.startsWith(`${revision}/${name}/`)) return true;
    return false;
  }

  pendingFor(name: string, generation: number, retryFailed = false, running?: string): PendingRevision | undefined {
    const revision = currentRevision(this.revisions.values());
    if (!this.share || !revision || revision.metadata.name === running) return undefined;
    if (!needsPreview(revision, name, generation, retryFailed)) return undefined;
    if (!retryFailed && this.recorded.has(recordKey(revision.metadata.name, name, generation))) return undefined;
    return this.withPolicy(revision);
  }

  runningPolicy(running: string | undefined): PendingRevision | undefined {
    const named = running === undefined ? undefined : this.revisions.get(running);
    const revision = named ?? newestRolledOut(this.revisions.values());
    return revision && this.withPolicy(revision);
  }

  dueFor(name: string, generation: number, running: string | undefined): PendingRevision | undefined {
    const revision = currentRevision(this.revisions.values());
    if (!this.share || !revision || !isDue(revision, name, generation, running)) return undefined;
    return this.withPolicy(revision);
  }

  /** `revision` with its policy; none when its policy is not one (its status says so: seen). */
  private withPolicy(revision: PlatformRevision): PendingRevision | undefined {
    try {
      return {
        revision: revision.metadata.name,
        policy: this.options.policyOf(revision.metadata.name, revision.spec.platform),
      };
    } catch {
      return undefined;
    }
  }

  async record(revision: string, entry: RevisionTenant): Promise<void> {
    await this.update(revision, entry.name, () => entry);
    this.recorded.add(recordKey(revision, entry.name, entry.generation));
  }

  async recordApplied(revision: string, name: string, generation: number): Promise<void> {
    const known = this.revisions.get(revision);
    if (!known || currentRevision(this.revisions.values()) !== known) return;
    const entry = known.status?.tenants?.find((t) => t.name === name);
    if (entry?.appliedGeneration === generation) return;
    const at = this.now().toISOString();
    await this.update(revision, name, (current) => ({
      ...(current ?? { name, generation, outcome: "NoChanges" as const, previewedAt: at }),
      appliedGeneration: generation,
      appliedAt: at,
      applyFailure: undefined,
    }));
  }

  async recordApplyFailure(revision: string, name: string, generation: number, reason: string): Promise<void> {
    const at = this.now().toISOString();
    await this.update(revision, name, (current) =>
      current && current.generation === generation ? { ...current, applyFailure: { reason, at } } : undefined,
    );
  }

  /**
   * Puts what `change` makes of tenant `name`'s entry into revision `revision`'s status (nothing:
   * no change), and works the sum and the rollout out again, trying again while other replicas'
   * writes come first.
   */
  private async update(
    revision: string,
    name: string,
    change: (current: RevisionTenant | undefined) => RevisionTenant | undefined,
  ): Promise<void> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const read = await this.store.get(revision);
      if (!read) return; // deleted meanwhile: nothing to record
      const entry = change(read.status?.tenants?.find((t) => t.name === name));
      if (!entry) return;
      const tenants = this.share?.tenants() ?? new Set([name]);
      const previewed = withPreviews(read.status, [withoutUndefined(entry)], tenants);
      if (await this.store.writeStatus(read, this.withRollout(read, previewed))) return;
    }
    throw new Error(
      `revision ${revision}: other replicas wrote its status ${WRITE_ATTEMPTS} times while this one tried; tried again at the tenant's next reconcile`,
    );
  }

  /** `status` with the rollout of `revision` worked out again. */
  private withRollout(revision: PlatformRevision, status: PlatformRevisionStatus): PlatformRevisionStatus {
    const current = currentRevision(this.revisions.values());
    const rollout = rolloutOf({
      revision,
      status: { ...status, rollout: revision.status?.rollout },
      current: !current || current.metadata.name === revision.metadata.name,
      now: this.now(),
    });
    return { ...status, rollout };
  }

  /**
   * Writes the rollout of `revision` when what it now is (the admins' annotations, a newer
   * revision, the entries) differs from what its status says, and the first status of a revision
   * no tenant has been previewed on yet (a fleet of none is previewed at once).
   */
  private async settleRollout(revision: PlatformRevision): Promise<void> {
    if (revision.status?.phase === "Invalid") return;
    const status = revision.status ?? withPreviews(undefined, [], this.share!.tenants());
    const settled = this.withRollout(revision, status);
    if (revision.status && sameJson(settled.rollout, revision.status.rollout)) return;
    try {
      await this.store.writeStatus(revision, settled);
    } catch (error) {
      this.options.log(
        `platform revision ${revision.metadata.name}: its rollout was not written: ${apiErrorText(error)}`,
        "warn",
      );
    }
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** What is wrong with the revision's policy; undefined when it is a policy. */
  private problemsOf(revision: PlatformRevision): string | undefined {
    try {
      this.options.policyOf(revision.metadata.name, revision.spec.platform);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private async markInvalid(revision: PlatformRevision, problems: string): Promise<void> {
    try {
      // Another write may come first (another replica's, or a finalizer's): the revision is read
      // again, and only the replica whose write lands logs it (`problems` names the revision).
      for (
        let read: PlatformRevision | undefined = revision, attempt = 0;
        read && attempt < WRITE_ATTEMPTS;
        attempt++
      ) {
        if (read.status?.phase === "Invalid") return;
        if (await this.store.writeStatus(read, invalidRevisionStatus(problems)))
          return this.options.log(problems, "warn");
        read = await this.store.get(revision.metadata.name);
      }
    } catch (error) {
      this.options.log(
        `platform revision ${revision.metadata.name}: its status was not written: ${apiErrorText(error)}`,
        "warn",
      );
    }
  }
}

/** The key of a recorded result. */
const recordKey = (revision: string, tenant: string, generation: number) => `${revision}/${tenant}/${generation}`;

/** Whether `a` and `b` are the same once stored (a field set to undefined is not stored). */
const sameJson = (a: unknown, b: unknown): boolean =>
  isDeepStrictEqual(JSON.parse(JSON.stringify(a ?? null)), JSON.parse(JSON.stringify(b ?? null)));

/** `entry` without the fields set to undefined (a failure cleared), as the API server stores it. */
const withoutUndefined = (entry: RevisionTenant): RevisionTenant =>
  Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as RevisionTenant;
