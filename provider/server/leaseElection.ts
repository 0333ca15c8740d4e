/**
 * Leader election over a `coordination.k8s.io/v1` Lease, as Kubernetes' own controllers do it
 * (client-go's leaderelection): the leader renews the Lease every retry period; another replica
 * takes it over only once it has seen no renewal for a whole lease duration; every write carries
 * the resourceVersion it read, so two replicas can never both win one round. A leader that has not
 * renewed within the renew deadline, shorter than the lease duration, stops leading before anyone
 * may take over: each Lease call is aborted once it would outlast that deadline, so a leader whose
 * calls hang cannot go on reconciling beside the next one. Only the leader reconciles, so a killed
 * leader's work is taken over after at most one lease duration, and nothing runs twice at once.
 * (No maintained npm library does this over @kubernetes/client-node 1.x, so it is written here.)
 */

/** The Lease's fields the election reads and writes. */
export interface LeaseRecord {
  /** Who holds it. */
  readonly holderIdentity?: string;
  /** For how long a renewal holds, in seconds. */
  readonly leaseDurationSeconds?: number;
  /** When the holder took it. */
  readonly acquireTime?: Date;
  /** When the holder last renewed it. */
  readonly renewTime?: Date;
  /** How many times it changed hands. */
  readonly leaseTransitions?: number;
  /** The version it was read at; a write with an older one fails. */
  readonly resourceVersion?: string;
}

/** What the election needs of the API server; each call stops when `signal` aborts. */
export interface LeaseStore {
  /** The Lease, if it exists. */
  read(signal?: AbortSignal): Promise<LeaseRecord | undefined>;
  /** Creates it; false when another replica created it first. */
  create(record: LeaseRecord, signal?: AbortSignal): Promise<boolean>;
  /** Replaces it if it is still at `record.resourceVersion`; false when another replica wrote it first. */
  replace(record: LeaseRecord, signal?: AbortSignal): Promise<boolean>;
}

/** How the election runs. */
export interface LeaseElectionOptions {
  /** This replica's identity, unique among the replicas. */
  readonly identity: string;
  /** How long a renewal holds: another replica takes over after seeing none for this long. @default 15 */
  readonly leaseDurationSeconds?: number;
  /**
   * How long the leader goes on leading without a renewal; shorter than the lease duration, so that
   * it has stopped before another replica may take over. @default two thirds of the lease duration
   */
  readonly renewDeadlineSeconds?: number;
  /** How often the leader renews and the others try; shorter than the renew deadline. @default a fifth of the lease duration */
  readonly retryPeriodSeconds?: number;
  /** The clock. */
  readonly now?: () => Date;
  /** Told when an attempt to read or write the Lease failed or timed out. */
  readonly onError?: (error: unknown) => void;
}

/** The election's three durations, checked, in milliseconds. */
interface Timing {
  readonly leaseMs: number;
  readonly renewDeadlineMs: number;
  readonly retryMs: number;
}

/** The timing of `options`; throws naming the durations that do not fit (as client-go's elector refuses them). */
export function electionTiming(options: LeaseElectionOptions): Timing {
  const lease = options.leaseDurationSeconds ?? 15;
  const renewDeadline = options.renewDeadlineSeconds ?? (lease * 2) / 3;
  const retry = options.retryPeriodSeconds ?? lease / 5;
  const problems = [
    ...(retry > 0 ? [] : [`retryPeriodSeconds (${retry}) must be above 0`]),
    ...(renewDeadline > retry
      ? []
      : [`retryPeriodSeconds (${retry}) must be shorter than renewDeadlineSeconds (${renewDeadline})`]),
    ...(lease > renewDeadline
      ? []
      : [`renewDeadlineSeconds (${renewDeadline}) must be shorter than leaseDurationSeconds (${lease})`]),
  ];
  if (problems.length > 0) throw new Error(`the leader election's timing does not fit: ${problems.join("; ")}`);
  return { leaseMs: lease * 1000, renewDeadlineMs: renewDeadline * 1000, retryMs: retry * 1000 };
}

/**
 * What `lead` is given and returns: a signal that aborts when this replica stops leading (or the
 * election stops), and, optionally, a promise that settles once the work it started has stopped.
 */
export type Lead = (leading: AbortSignal) => void | Promise<void>;

/** This replica's term as the leader. */
interface Term {
  readonly leading: AbortController;
  /** When the last round that renewed the Lease started (the renewTime it wrote is no earlier). */
  renewedAt: number;
  /** The work `lead` started, settled once it has stopped. */
  readonly work: Promise<void>;
}

/**
 * Runs the election until `signal` aborts. Each time this replica becomes the leader, `lead` is
 * called with a signal that aborts when it stops being the leader: another replica holds the
 * Lease, the renew deadline passed without a renewal, or the election stops. The election tries
 * again only once the work `lead` started has stopped; on a clean stop it then gives the Lease up.
 */
export async function runLeaseElection(
  store: LeaseStore,
  options: LeaseElectionOptions,
  lead: Lead,
  signal: AbortSignal,
): Promise<void> {
  const timing = electionTiming(options);
  const clock = () => (options.now ?? (() => new Date()))().getTime();
  const observer = new LeaseObserver();
  let term: Term | undefined;
  const stopLeading = async () => {
    term?.leading.abort();
    await term?.work;
    term = undefined;
  };
  try {
    while (!signal.aborted) {
      const startedAt = clock();
      // A leader's round may last until its renew deadline; anyone else's, a renew deadline.
      const bound = term ? term.renewedAt + timing.renewDeadlineMs - startedAt : timing.renewDeadlineMs;
      const held =
        bound > 0 &&
        (await bounded(bound, signal, (round) => tryAcquireOrRenew(store, options, observer, round)).catch((error) => {
          if (!signal.aborted) options.onError?.(error);
          return undefined;
        }));
      if (held === true && term) term.renewedAt = startedAt;
      else if (held === true) term = startTerm(lead, startedAt);
      else if (term && (held === false || clock() >= term.renewedAt + timing.renewDeadlineMs)) await stopLeading();
      // A leader comes round again by its deadline at the latest, so that it stops leading on time.
      const untilDeadline = term ? term.renewedAt + timing.renewDeadlineMs - clock() : Infinity;
      await pause(Math.max(0, Math.min(timing.retryMs, untilDeadline)), signal);
    }
  } finally {
    const wasLeading = term !== undefined;
    await stopLeading();
    if (wasLeading)
      await bounded(timing.renewDeadlineMs, undefined, (round) => release(store, options, round)).catch(
        () => undefined,
      );
  }
}

/** Starts a term: `lead` is called with its signal. */
function startTerm(lead: Lead, renewedAt: number): Term {
  const leading = new AbortController();
  // A lead that throws or rejects has stopped its work all the same.
  const work = Promise.resolve()
    .then(() => lead(leading.signal))
    .catch(() => undefined);
  return { leading, renewedAt, work };
}

/**
 * Runs `call` with a signal that aborts after `ms` or when `outer` aborts, and settles by then
 * even when the call takes no notice of its signal (a hung connection): it then rejects.
 */
function bounded<T>(ms: number, outer: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const round = new AbortController();
  const timer = setTimeout(() => round.abort(new Error(`the Lease did not answer within ${Math.round(ms)} ms`)), ms);
  const onOuter = () => round.abort(outer?.reason);
  outer?.addEventListener("abort", onOuter, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    if (round.signal.aborted) reject(round.signal.reason);
    round.signal.addEventListener("abort", () => reject(round.signal.reason), { once: true });
  });
  stopped.catch(() => undefined);
  return Promise.race([call(round.signal), stopped]).finally(() => {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuter);
  });
}

/**
 * One replica's view of the Lease: when it last saw the Lease change, by its own clock. A Lease
 * counts as expired when it has not changed for a whole duration as this replica saw it, as
 * client-go's elector does, so replicas whose clocks disagree still agree on expiry.
 */
export class LeaseObserver {
  private seen?: { readonly key: string; readonly at: number };

  /** Notes `lease` as read now; true when it has not changed for a whole duration. */
  expired(lease: LeaseRecord, now: Date): boolean {
    const key = `${lease.holderIdentity ?? ""}|${lease.renewTime?.toISOString() ?? ""}|${lease.resourceVersion ?? ""}`;
    if (this.seen?.key !== key) this.seen = { key, at: now.getTime() };
    return now.getTime() - this.seen.at > (lease.leaseDurationSeconds ?? 15) * 1000;
  }
}

/** One round: takes the Lease when it is free or expired, renews it when held; true when this replica holds it. */
export async function tryAcquireOrRenew(
  store: LeaseStore,
  options: LeaseElectionOptions,
  observer: LeaseObserver,
  signal?: AbortSignal,
): Promise<boolean> {
  const now = (options.now ?? (() => new Date()))();
  const duration = options.leaseDurationSeconds ?? 15;
  const current = await store.read(signal);
  if (!current) {
    return store.create(
      {
        holderIdentity: options.identity,
        leaseDurationSeconds: duration,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      },
      signal,
    );
  }
  const mine = current.holderIdentity === options.identity;
  const expired = observer.expired(current, now);
  if (!mine && current.holderIdentity && !expired) return false;
  return store.replace(
    {
      ...current,
      holderIdentity: options.identity,
      leaseDurationSeconds: duration,
      renewTime: now,
      ...(!mine && { acquireTime: now, leaseTransitions: (current.leaseTransitions ?? 0) + 1 }),
    },
    signal,
  );
}

/** Gives the Lease up on a clean stop, so that another replica need not wait a whole duration. */
async function release(store: LeaseStore, options: LeaseElectionOptions, signal: AbortSignal): Promise<void> {
  const current = await store.read(signal);
  if (current?.holderIdentity !== options.identity) return;
  await store.replace({ ...current, holderIdentity: undefined, renewTime: undefined, acquireTime: undefined }, signal);
}

/** A pause that ends early when `signal` aborts (on the global timers, which tests can fake). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
