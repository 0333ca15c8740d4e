/**
 * One replica's part of the fleet preview: it knows the PlatformRevisions (from its watch), tells
 * the reconciler which revision a tenant it owns is still to be previewed on and with what policy,
 * records each result in the revision's status, and asks for the reconcile of each of its tenants
 * that a new revision has not seen. The previews themselves run in the tenants' reconciles, so
 * they share the queue's limit, hold the tenants' claims, and never run beside an update of the
 * same tenant.
 */
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import { apiErrorText } from "./kubeClientErrors";
import type { PlatformRevisionStatus, RevisionTenant } from "../tenantResource/platformRevisionStatus";
import {
  currentRevision,
  invalidRevisionStatus,
  needsPreview,
  withPreviews,
  type PlatformRevision,
} from "./fleetPreview";

/** What the fleet preview needs of the host's API server (the Kubernetes adapter: kubePlatformRevisions.ts). */
export interface PlatformRevisionStore {
  /** Revision `name`, if it exists. */
  get(name: string): Promise<PlatformRevision | undefined>;
  /** Replaces the status of `revision` as read; false when another wrote it since (nothing written). */
  writeStatus(revision: PlatformRevision, status: PlatformRevisionStatus): Promise<boolean>;
}

/** A revision a tenant is still to be previewed on. */
export interface PendingRevision {
  /** The revision's name. */
  readonly revision: string;
  /** Its policy, as the tenant's stack is to run with it. */
  readonly policy: TenantPlatformInput;
}

/** What the reconciler asks of the fleet preview. */
export interface FleetPreviewPort {
  /**
   * The revision tenant `name` at `generation` is still to be previewed on, if any; with
   * `retryFailed` (a resync), also one whose preview at that generation failed.
   */
  pendingFor(name: string, generation: number, retryFailed?: boolean): PendingRevision | undefined;
  /** Records a tenant's result in revision `revision`'s status. */
  record(revision: string, entry: RevisionTenant): Promise<void>;
}

/** How a replica's part of the fleet preview is wired. */
export interface RevisionPreviewsOptions {
  /** A revision's policy as tenants' stacks run with it; throws ProblemError naming what is wrong. */
  readonly policyOf: (name: string, platform: unknown) => TenantPlatformInput;
  /** The replica's log. */
  readonly log: (line: string, level?: "info" | "warn") => void;
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

/** A replica's part of the fleet preview. */
export class RevisionPreviews implements FleetPreviewPort {
  private readonly revisions = new Map<string, PlatformRevision>();
  /** The replica's share, once it runs: until then no tenant is reconciled, so none is previewed. */
  private share: FleetShare | undefined;
  /**
   * What this replica recorded (`revision/tenant/generation`): known at once, while the watch may
   * still bring an older status, so that a reconcile asked for meanwhile previews nothing again.
   */
  private readonly recorded = new Set<string>();

  constructor(
    private readonly store: PlatformRevisionStore,
    private readonly options: RevisionPreviewsOptions,
  ) {}

  /** Starts following the replica's share: each owned tenant the current revision has not seen is asked for. */
  follow(share: FleetShare): void {
    this.share = share;
    const revision = currentRevision(this.revisions.values());
    if (revision) this.seen(revision);
  }

  /** The watch saw `revision`, new or changed. */
  seen(revision: PlatformRevision): void {
    this.revisions.set(revision.metadata.name, revision);
    const problems = this.problemsOf(revision);
    if (problems !== undefined) {
      if (revision.status?.phase !== "Invalid") void this.markInvalid(revision, problems);
      return;
    }
    if (!this.share || currentRevision(this.revisions.values()) !== revision) return;
    for (const name of this.share.owned())
      if (needsPreview(revision, name) && !this.wasRecorded(revision.metadata.name, name)) this.share.onPending(name);
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

  pendingFor(name: string, generation: number, retryFailed = false): PendingRevision | undefined {
    const revision = currentRevision(this.revisions.values());
    if (!this.share || !revision || !needsPreview(revision, name, generation, retryFailed)) return undefined;
    if (!retryFailed && this.recorded.has(recordKey(revision.metadata.name, name, generation))) return undefined;
    try {
      return {
        revision: revision.metadata.name,
        policy: this.options.policyOf(revision.metadata.name, revision.spec.platform),
      };
    } catch {
      return undefined; // an invalid policy: its status says so (seen)
    }
  }

  async record(revision: string, entry: RevisionTenant): Promise<void> {
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const read = await this.store.get(revision);
      if (!read) return; // deleted meanwhile: nothing to record
      const tenants = this.share?.tenants() ?? new Set([entry.name]);
      const status = withPreviews(read.status, [entry], tenants);
      if (await this.store.writeStatus(read, status)) {
        this.recorded.add(recordKey(revision, entry.name, entry.generation));
        return;
      }
    }
    throw new Error(
      `revision ${revision}: other replicas wrote its status ${WRITE_ATTEMPTS} times while this one tried; tried again at the tenant's next reconcile`,
    );
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
      // Another replica may write it first: then this write is refused, nothing is lost, and only
      // the replica that wrote it logs it (`problems` names the revision).
      if (await this.store.writeStatus(revision, invalidRevisionStatus(problems))) this.options.log(problems, "warn");
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
