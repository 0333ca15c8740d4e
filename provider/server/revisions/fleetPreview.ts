/**
 * The fleet preview's facts, as pure functions: which revision is on the table, whether a tenant
 * is still to be previewed on it, one tenant's result, and the revision's status once results are
 * put in. Each replica previews the tenants it owns and records their results in the revision's
 * status; whoever writes last recomputes the sum over every result, so no replica has to gather.
 */
import { planOf } from "../../tenants/tenantPlan";
import type { ResourceStep } from "../../tenants/tenantObject";
import type {
  PlatformRevisionStatus,
  RevisionSummary,
  RevisionTenant,
} from "../../tenantResource/platformRevisionStatus";

/** A PlatformRevision as the server reads it. */
export interface PlatformRevision {
  /** Its metadata. */
  readonly metadata: {
    /** The revision's name. */
    readonly name: string;
    /** When it was made: the newest is the one on the table. */
    readonly creationTimestamp?: string;
    /** The object's version, for a status write that must not overwrite a newer one. */
    readonly resourceVersion?: string;
    /** The admins' decisions: ROLLOUT_ANNOTATION and RESUME_ANNOTATION. */
    readonly annotations?: Readonly<Record<string, string>>;
    /** REVISION_FINALIZER, once the server put it on. */
    readonly finalizers?: readonly string[];
    /** Set once its deletion was asked for: it is no longer rolled out, nor given to new tenants. */
    readonly deletionTimestamp?: string;
  };
  /** Its policy, and the waves it is rolled out in (the API server fills in DEFAULT_WAVES). */
  readonly spec: { readonly platform: unknown; readonly waves?: readonly string[] };
  /** What the server found. */
  readonly status?: PlatformRevisionStatus;
}

/** What a tenant's preview on a revision gave: its steps, or why it failed. */
export type PreviewResult = { readonly steps: readonly ResourceStep[] } | { readonly failure: string };

/**
 * The revision on the table: the newest (by creation, then name) that is neither Invalid nor being
 * deleted. Older ones
 * keep the status they reached: previewing every revision ever made on every new tenant would cost
 * more each time.
 */
export function currentRevision(revisions: Iterable<PlatformRevision>): PlatformRevision | undefined {
  return newest(revisions, (revision) => !revision.metadata.deletionTimestamp && revision.status?.phase !== "Invalid");
}

/** The newest revision rolled out to every tenant: the policy a tenant made since is brought up with. */
export function newestRolledOut(revisions: Iterable<PlatformRevision>): PlatformRevision | undefined {
  return newest(
    revisions,
    (revision) => !revision.metadata.deletionTimestamp && revision.status?.rollout?.phase === "RolledOut",
  );
}

/** The newest of `revisions` that `keep` keeps. */
function newest(
  revisions: Iterable<PlatformRevision>,
  keep: (revision: PlatformRevision) => boolean,
): PlatformRevision | undefined {
  let found: PlatformRevision | undefined;
  for (const revision of revisions) if (keep(revision) && (!found || isNewer(revision, found))) found = revision;
  return found;
}

const isNewer = (a: PlatformRevision, b: PlatformRevision): boolean => {
  const [at, bt] = [a.metadata.creationTimestamp ?? "", b.metadata.creationTimestamp ?? ""];
  return at !== bt ? at > bt : a.metadata.name > b.metadata.name;
};

/**
 * Whether tenant `name` at `generation` (none: any) is still to be previewed on `revision`; with
 * `retryFailed` (a resync), also when its preview at that generation failed: the failure may have
 * passed (a database that did not answer), and a resync comes once a period.
 */
export function needsPreview(
  revision: PlatformRevision,
  name: string,
  generation?: number,
  retryFailed = false,
): boolean {
  if (revision.status?.phase === "Invalid") return false;
  const entry = revision.status?.tenants?.find((t) => t.name === name);
  if (!entry || (generation !== undefined && entry.generation !== generation)) return true;
  return retryFailed && entry.outcome === "Failed";
}

/** Tenant `name`'s result at `generation`, previewed at `now`. */
export function revisionTenantOf(name: string, generation: number, result: PreviewResult, now: Date): RevisionTenant {
  const previewedAt = now.toISOString();
  if ("failure" in result) return { name, generation, outcome: "Failed", reason: result.failure, previewedAt };
  const plan = planOf(result.steps);
  if (plan.steps.length === 0) return { name, generation, outcome: "NoChanges", previewedAt };
  return {
    name,
    generation,
    outcome: "Changes",
    plan: { ...plan, steps: plan.steps.map((step) => ({ ...step, diffs: [...step.diffs] })) },
    previewedAt,
  };
}

/**
 * `status` with `entries` put in (each replacing the same tenant's, unless that is of a later
 * generation), the results of tenants not in
 * `tenants` (every tenant the writer knows, none being deleted) left out, and the sum and phase
 * worked out again.
 */
export function withPreviews(
  status: PlatformRevisionStatus | undefined,
  entries: readonly RevisionTenant[],
  tenants: ReadonlySet<string>,
): PlatformRevisionStatus {
  const byName = new Map((status?.tenants ?? []).map((entry) => [entry.name, entry]));
  // A result of an older request than the one recorded (a reconcile that read the tenant earlier) is dropped.
  for (const entry of entries)
    if ((byName.get(entry.name)?.generation ?? -1) <= entry.generation) byName.set(entry.name, entry);
  const kept = [...byName.values()]
    .filter((entry) => tenants.has(entry.name))
    .sort((a, b) => a.name.localeCompare(b.name));
  const summary = summaryOf(kept, tenants.size);
  const done = summary.previewed === summary.tenants;
  return {
    phase: done ? "Previewed" : "Previewing",
    message: done
      ? `previewed on every tenant (${summary.tenants}): ${summary.changing} would change, ${summary.unchanged} would not, ${summary.failed} failed`
      : `previewed on ${summary.previewed} of ${summary.tenants} tenants`,
    summary,
    tenants: kept,
  };
}

/** The sum of `entries` over `tenants` tenants. */
function summaryOf(entries: readonly RevisionTenant[], tenants: number): RevisionSummary {
  const plans = entries.flatMap((entry) => (entry.plan ? [entry.plan] : []));
  const total = (key: "creates" | "updates" | "replaces" | "deletes") =>
    plans.reduce((sum, plan) => sum + plan[key], 0);
  const fields = new Set(
    plans.flatMap((plan) => plan.steps.flatMap((step) => step.diffs.map((d) => `${step.type} ${d}`))),
  );
  const outcomes = (outcome: RevisionTenant["outcome"]) => entries.filter((e) => e.outcome === outcome).length;
  return {
    tenants,
    previewed: entries.length,
    changing: outcomes("Changes"),
    unchanged: outcomes("NoChanges"),
    failed: outcomes("Failed"),
    creates: total("creates"),
    updates: total("updates"),
    replaces: total("replaces"),
    deletes: total("deletes"),
    fields: [...fields].sort(),
  };
}

/** The status of a revision whose policy is not one: nothing is previewed on it. */
export const invalidRevisionStatus = (problems: string): PlatformRevisionStatus => ({
  phase: "Invalid",
  message: `nothing is previewed on it: ${problems}`,
});
