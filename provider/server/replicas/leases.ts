/**
 * Holding a `coordination.k8s.io/v1` Lease, as Kubernetes' own controllers do (client-go's
 * leaderelection): the holder renews it every retry period; another replica takes it over only
 * once it has seen no renewal for a whole lease duration (or knows the holder is gone); every
 * write carries the resourceVersion it read, so two replicas can never both win one round. A holder
 * that has not renewed within the renew deadline, shorter than the lease duration, stops its work
 * before anyone may take over: each Lease call is aborted once it would outlast that deadline, so a
 * holder whose calls hang cannot go on beside the next one. The replicas hold a Lease each to say
 * they are alive (replicaMembership.ts), and a Lease per tenant while they reconcile it
 * (tenantClaims.ts). (No maintained npm library does this over @kubernetes/client-node 1.x, so it
 * is written here.)
 */

/** The Lease's fields that are read and written. */
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

/** A Lease of a list, with its name. */
export interface NamedLeaseRecord extends LeaseRecord {
  /** The Lease's name. */
  readonly name: string;
}

/** What holding one Lease needs of the API server; each call stops when `signal` aborts. */
export interface LeaseStore {
  /** The Lease, if it exists. */
  read(signal?: AbortSignal): Promise<LeaseRecord | undefined>;
  /** Creates it; false when another replica created it first. */
  create(record: LeaseRecord, signal?: AbortSignal): Promise<boolean>;
  /** Replaces it if it is still at `record.resourceVersion`; false when another replica wrote it first. */
  replace(record: LeaseRecord, signal?: AbortSignal): Promise<boolean>;
}

/** A LeaseStore whose Lease can also be removed (a tenant's claim, a replica's own Lease: nothing of them is left). */
export interface RemovableLeaseStore extends LeaseStore {
  /** Removes the Lease if it is still at `resourceVersion`; a Lease gone or written since is left as it is. */
  remove(resourceVersion: string, signal?: AbortSignal): Promise<void>;
}

/** How a Lease is held. */
export interface LeaseOptions {
  /** This replica's identity, unique among the replicas. */
  readonly identity: string;
  /** How long a renewal holds: another replica takes over after seeing none for this long. @default 15 */
  readonly leaseDurationSeconds?: number;
  /**
   * How long the holder goes on working without a renewal; shorter than the lease duration, so that
   * it has stopped before another replica may take over. @default two thirds of the lease duration
   */
  readonly renewDeadlineSeconds?: number;
  /** How often the holder renews; shorter than the renew deadline. @default a fifth of the lease duration */
  readonly retryPeriodSeconds?: number;
  /** The clock. */
  readonly now?: () => Date;
  /** Told when an attempt to read or write the Lease failed or timed out. */
  readonly onError?: (error: unknown) => void;
}

/** A Lease's three durations, checked, in milliseconds. */
export interface LeaseTiming {
  readonly leaseMs: number;
  readonly renewDeadlineMs: number;
  readonly retryMs: number;
}

/** The timing of `options`; throws naming the durations that do not fit (as client-go's elector refuses them). */
export function leaseTiming(options: LeaseOptions): LeaseTiming {
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
  if (problems.length > 0) throw new Error(`the Lease's timing does not fit: ${problems.join("; ")}`);
  return { leaseMs: lease * 1000, renewDeadlineMs: renewDeadline * 1000, retryMs: retry * 1000 };
}

/** What `holdLease` answers: the work's value when the Lease was taken; else only that it was not. */
export type Held<T> = { readonly held: true; readonly value: T } | { readonly held: false };

/**
 * Takes the Lease of `store` (when it is free, expired as `expiry` judges, or this replica's) and
 * runs `work` while holding it: the Lease is renewed every retry period, and `work`'s signal aborts
 * when a renewal finds another holder, or when the renew deadline passed without one (each call is
 * cut off at that deadline, so a hung API server cannot keep the work going beside the next
 * holder), or when `signal` aborts. Once `work` has settled, the Lease is removed, so nothing of it
 * is left. When the Lease cannot be taken, `work` never runs.
 */
export async function holdLease<T>(
  store: RemovableLeaseStore,
  options: LeaseOptions,
  expiry: LeaseExpiry,
  work: (held: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<Held<T>> {
  const timing = leaseTiming(options);
  const clock = () => (options.now ?? (() => new Date()))().getTime();
  let renewedAt = clock();
  const taken = await bounded(timing.renewDeadlineMs, signal, (round) =>
    tryAcquireOrRenew(store, options, expiry, round),
  );
  if (!taken) return { held: false };
  const lost = new AbortController();
  const done = new AbortController();
  const renewing = (async () => {
    while (!done.signal.aborted && !lost.signal.aborted) {
      await pause(Math.max(0, Math.min(timing.retryMs, renewedAt + timing.renewDeadlineMs - clock())), done.signal);
      if (done.signal.aborted) return;
      const startedAt = clock();
      const bound = renewedAt + timing.renewDeadlineMs - startedAt;
      const held =
        bound > 0
          ? await bounded(bound, done.signal, (round) => tryAcquireOrRenew(store, options, expiry, round)).catch(
              (error) => {
                if (!done.signal.aborted) options.onError?.(error);
                return undefined;
              },
            )
          : undefined;
      if (held === true) renewedAt = startedAt;
      else if (held === false) lost.abort(new Error("the Lease was taken over"));
      else if (clock() >= renewedAt + timing.renewDeadlineMs)
        lost.abort(new Error("the Lease was not renewed by its renew deadline"));
    }
  })();
  try {
    const value = await work(signal ? AbortSignal.any([lost.signal, signal]) : lost.signal);
    return { held: true, value };
  } finally {
    done.abort();
    await renewing;
    await bounded(timing.renewDeadlineMs, undefined, (round) => removeIfHeld(store, options, round)).catch((error) =>
      options.onError?.(error),
    );
  }
}

/**
 * Runs `call` with a signal that aborts after `ms` or when `outer` aborts, and settles by then
 * even when the call takes no notice of its signal (a hung connection): it then rejects.
 */
export function bounded<T>(
  ms: number,
  outer: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
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

/** What judges whether a Lease held by another replica may be taken over. */
export interface LeaseExpiry {
  /** Notes `lease` as read now; true when it may be taken over. */
  expired(lease: LeaseRecord, now: Date): boolean;
}

/**
 * One replica's view of the Lease: when it last saw the Lease change, by its own clock. A Lease
 * counts as expired when it has not changed for a whole duration as this replica saw it, as
 * client-go's elector does, so replicas whose clocks disagree still agree on expiry.
 */
export class LeaseObserver implements LeaseExpiry {
  private seen?: { readonly key: string; readonly at: number };

  /** Notes `lease` as read now; true when it has not changed for a whole duration. */
  expired(lease: LeaseRecord, now: Date): boolean {
    return this.unchangedMs(lease, now) > (lease.leaseDurationSeconds ?? 15) * 1000;
  }

  /** Notes `lease` as read now; how long, in milliseconds, it has gone unchanged as this replica saw it. */
  unchangedMs(lease: LeaseRecord, now: Date): number {
    const key = `${lease.holderIdentity ?? ""}|${lease.renewTime?.toISOString() ?? ""}|${lease.resourceVersion ?? ""}`;
    if (this.seen?.key !== key) this.seen = { key, at: now.getTime() };
    return now.getTime() - this.seen.at;
  }
}

/** One round: takes the Lease when it is free or expired, renews it when held; true when this replica holds it. */
export async function tryAcquireOrRenew(
  store: LeaseStore,
  options: LeaseOptions,
  observer: LeaseExpiry,
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

/** Removes the Lease if this replica still holds it (at the version read), so that none is left behind. */
async function removeIfHeld(store: RemovableLeaseStore, options: LeaseOptions, signal: AbortSignal): Promise<void> {
  const current = await store.read(signal);
  if (current?.holderIdentity === options.identity && current.resourceVersion)
    await store.remove(current.resourceVersion, signal);
}

/** A pause that ends early when `signal` aborts (on the global timers, which tests can fake). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
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
