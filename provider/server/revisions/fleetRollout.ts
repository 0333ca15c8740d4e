/**
 * Rolling a platform revision out, as pure functions: the order its tenants take it in, where each
 * wave ends, how the rollout stands, and whether one tenant is due to be brought up on it. Every
 * replica that writes a revision's status works its rollout out again from what the status holds
 * and the admins' annotations, so that no replica coordinates the others: each brings up the due
 * tenants it owns, and the last result written opens the next wave.
 */
import { createHash } from "node:crypto";
import {
  DEFAULT_WAVES,
  RESUME_ANNOTATION,
  ROLLOUT_ANNOTATION,
  ROLLOUT_DECISIONS,
} from "../../contracts/platformRevisionNames";
import type {
  PlatformRevisionStatus,
  RevisionRollout,
  RevisionTenant,
} from "../../tenantResource/platformRevisionStatus";
import type { PlatformRevision } from "./fleetPreview";

/**
 * The order in which revision `revision`'s tenants take it: by a digest of the revision's and the
 * tenant's names, so that it is the same on every replica, stays put as tenants come and go, and
 * differs from one revision to the next (the same tenant is not always first).
 */
export function waveOrder(revision: string, tenants: Iterable<string>): string[] {
  const key = (name: string) => createHash("sha256").update(`${revision}/${name}`).digest("hex");
  return [...tenants]
    .map((name) => ({ name, key: key(name) }))
    .sort((a, b) => (a.key === b.key ? a.name.localeCompare(b.name) : a.key < b.key ? -1 : 1))
    .map(({ name }) => name);
}

/**
 * Where each wave ends in the order of `tenants` tenants: how many of them run the revision by the
 * end of each. A share is rounded up (a wave of 10% of 3 tenants is one), a wave never ends before
 * the one before it, and the last one ends at the whole fleet.
 */
export function waveEnds(waves: readonly string[], tenants: number): number[] {
  let end = 0;
  return waves.map((wave, index) => {
    const size = wave.endsWith("%") ? Math.ceil((tenants * Number(wave.slice(0, -1))) / 100) : Number(wave);
    end = index === waves.length - 1 ? tenants : Math.min(tenants, Math.max(end, size));
    return end;
  });
}

/** Whether the tenant runs the revision. */
export const isApplied = (entry: RevisionTenant | undefined): boolean => entry?.appliedGeneration !== undefined;

/**
 * Why the tenant stops the rollout, if it does: a preview that failed (its request breaks the
 * revision's policy, or the engine failed), or a failure to bring it up on the revision since the
 * halt an admin last resumed (one before it is tried again).
 */
export function failureOf(entry: RevisionTenant, resumedFrom: string | undefined): string | undefined {
  if (isApplied(entry)) return undefined;
  if (entry.outcome === "Failed") return `its preview failed: ${entry.reason ?? "no reason was given"}`;
  const failure = entry.applyFailure;
  if (failure && (resumedFrom === undefined || failure.at > resumedFrom))
    return `bringing it up on the revision failed: ${failure.reason}`;
  return undefined;
}

/** What the rollout's status is worked out from. */
export interface RolloutFacts {
  /** The revision, with its spec and annotations. */
  readonly revision: PlatformRevision;
  /** Its status with the newest results in: the preview's phase, sum and each tenant's entry. */
  readonly status: PlatformRevisionStatus;
  /** Whether it is the revision on the table: an older one is no longer rolled out. */
  readonly current: boolean;
  /** Now, for a new halt. */
  readonly now: Date;
}

/** How the rollout of a revision stands, worked out from `facts` and the rollout last written. */
export function rolloutOf({ revision, status, current, now }: RolloutFacts): RevisionRollout {
  const { name } = revision.metadata;
  const waves = revision.spec.waves ?? DEFAULT_WAVES;
  const entries = status.tenants ?? [];
  const previous = status.rollout;
  const base = { waves: waves.length, applied: entries.filter(isApplied).length };
  const decision = revision.metadata.annotations?.[ROLLOUT_ANNOTATION];
  // A rolled-out revision stays so: a tenant made since is brought up on it at once.
  if (previous?.phase === "RolledOut") return { ...previous, ...base };
  if (!current)
    return {
      ...base,
      phase: "Superseded",
      message: `a newer revision was made, so this one is not rolled out any further; ${base.applied} tenant(s) run it`,
    };
  if (decision === ROLLOUT_DECISIONS.abort)
    return {
      ...base,
      phase: "Aborted",
      message: `an admin aborted the rollout; ${base.applied} tenant(s) run it, the others keep what they run`,
    };
  if (decision !== ROLLOUT_DECISIONS.approve)
    return { ...base, phase: "Waiting", message: waitingMessage(name, status) };
  const total = status.summary?.tenants ?? 0;
  if (status.phase === "Previewed" && base.applied === total)
    return { ...base, phase: "RolledOut", message: `every tenant (${total}) runs it` };
  const resumedFrom =
    previous?.halt && revision.metadata.annotations?.[RESUME_ANNOTATION] === previous.halt.at
      ? previous.halt.at
      : previous?.resumedFrom;
  const kept = resumedFrom === undefined ? {} : { resumedFrom };
  if (previous?.halt && resumedFrom !== previous.halt.at)
    return { ...base, ...kept, phase: "Halted", wave: previous.wave, halt: previous.halt, message: previous.message };
  if (status.phase !== "Previewed")
    return {
      ...base,
      ...kept,
      phase: "RollingOut",
      wave: previous?.wave ?? 1,
      message: `waiting for the preview of the tenants made or changed since (${status.message})`,
    };
  return openWave(name, waves, entries, kept, now);
}

/** The rollout of an approved, previewed revision that not every tenant runs: its open wave, or the halt in it. */
function openWave(
  name: string,
  waves: readonly string[],
  entries: readonly RevisionTenant[],
  kept: { readonly resumedFrom?: string },
  now: Date,
): RevisionRollout {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const order = waveOrder(name, byName.keys());
  const ends = waveEnds(waves, order.length);
  const base = { waves: waves.length, applied: entries.filter(isApplied).length, ...kept };
  const index = Math.max(
    0,
    ends.findIndex((end) => order.slice(0, end).some((tenant) => !isApplied(byName.get(tenant)))),
  );
  const wave = index + 1;
  for (const tenant of order.slice(0, ends[index])) {
    const reason = failureOf(byName.get(tenant)!, kept.resumedFrom);
    if (reason === undefined) continue;
    const at = now.toISOString();
    return {
      ...base,
      phase: "Halted",
      wave,
      halt: { tenant, reason, at },
      message: `halted in wave ${wave}: tenant ${tenant}: ${reason}. Resolve it, then resume with \`kubectl annotate platformrevision ${name} ${RESUME_ANNOTATION}=${at} --overwrite\`, or abort with \`kubectl annotate platformrevision ${name} ${ROLLOUT_ANNOTATION}=${ROLLOUT_DECISIONS.abort} --overwrite\``,
    };
  }
  return {
    ...base,
    phase: "RollingOut",
    wave,
    message: `wave ${wave} of ${waves.length}: ${base.applied} of ${order.length} tenants run it`,
  };
}

/** What a revision that is not approved waits for. */
function waitingMessage(name: string, status: PlatformRevisionStatus): string {
  if (status.phase !== "Previewed") return `waiting for the preview: ${status.message}`;
  return `previewed; an admin rolls it out with \`kubectl annotate platformrevision ${name} ${ROLLOUT_ANNOTATION}=${ROLLOUT_DECISIONS.approve}\``;
}

/**
 * Whether tenant `name` at `generation`, running revision `running` (none: the server's own
 * policy), is due to be brought up on `revision` now: the revision rolls out, its open wave holds
 * the tenant, and the tenant was previewed on it at this very generation without a failure.
 */
export function isDue(revision: PlatformRevision, name: string, generation: number, running?: string): boolean {
  const { status } = revision;
  const rollout = status?.rollout;
  if (revision.metadata.annotations?.[ROLLOUT_ANNOTATION] !== ROLLOUT_DECISIONS.approve) return false;
  if (rollout?.phase !== "RollingOut" || rollout.wave === undefined || status?.phase !== "Previewed") return false;
  if (running === revision.metadata.name) return false;
  const entries = status.tenants ?? [];
  const entry = entries.find((e) => e.name === name);
  if (!entry || entry.generation !== generation || failureOf(entry, rollout.resumedFrom) !== undefined) return false;
  if (isApplied(entry)) return false;
  const order = waveOrder(
    revision.metadata.name,
    entries.map((e) => e.name),
  );
  const ends = waveEnds(revision.spec.waves ?? DEFAULT_WAVES, order.length);
  return order.indexOf(name) < ends[rollout.wave - 1];
}
