/**
 * Leader election over a `coordination.k8s.io/v1` Lease, as Kubernetes' own controllers do it:
 * the leader renews the Lease well inside its duration; another replica takes it over only once
 * it has seen no renewal for a whole duration; every write carries the resourceVersion it read,
 * so two replicas can never both win one round. Only the leader reconciles, so a killed leader's
 * work is taken over after at most one lease duration, and nothing runs twice at once.
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

/** What the election needs of the API server. */
export interface LeaseStore {
  /** The Lease, if it exists. */
  read(): Promise<LeaseRecord | undefined>;
  /** Creates it; false when another replica created it first. */
  create(record: LeaseRecord): Promise<boolean>;
  /** Replaces it if it is still at `record.resourceVersion`; false when another replica wrote it first. */
  replace(record: LeaseRecord): Promise<boolean>;
}

/** How the election runs. */
export interface LeaseElectionOptions {
  /** This replica's identity, unique among the replicas. */
  readonly identity: string;
  /** How long a renewal holds. @default 15 */
  readonly leaseDurationSeconds?: number;
  /** How often the leader renews and the others try. @default 5 */
  readonly retryPeriodSeconds?: number;
  /** The clock. */
  readonly now?: () => Date;
  /** Told when an attempt to read or write the Lease failed (the round counts as lost). */
  readonly onError?: (error: unknown) => void;
}

/**
 * Runs the election until `signal` aborts. Each time this replica becomes the leader, `lead` is
 * called with a signal that aborts when it stops being the leader (or the election stops).
 */
export async function runLeaseElection(
  store: LeaseStore,
  options: LeaseElectionOptions,
  lead: (leading: AbortSignal) => void,
  signal: AbortSignal,
): Promise<void> {
  const retryMs = (options.retryPeriodSeconds ?? 5) * 1000;
  const observer = new LeaseObserver();
  let leading: AbortController | undefined;
  try {
    while (!signal.aborted) {
      const won = await tryAcquireOrRenew(store, options, observer).catch((error) => {
        options.onError?.(error);
        return false;
      });
      if (won && !leading) {
        leading = new AbortController();
        lead(leading.signal);
      } else if (!won && leading) {
        leading.abort();
        leading = undefined;
      }
      await pause(retryMs, signal);
    }
  } finally {
    leading?.abort();
    if (leading) await release(store, options).catch(() => undefined);
  }
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
): Promise<boolean> {
  const now = (options.now ?? (() => new Date()))();
  const duration = options.leaseDurationSeconds ?? 15;
  const current = await store.read();
  if (!current) {
    return store.create({
      holderIdentity: options.identity,
      leaseDurationSeconds: duration,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 0,
    });
  }
  const mine = current.holderIdentity === options.identity;
  const expired = observer.expired(current, now);
  if (!mine && current.holderIdentity && !expired) return false;
  return store.replace({
    ...current,
    holderIdentity: options.identity,
    leaseDurationSeconds: duration,
    renewTime: now,
    ...(!mine && { acquireTime: now, leaseTransitions: (current.leaseTransitions ?? 0) + 1 }),
  });
}

/** Gives the Lease up on a clean stop, so that another replica need not wait a whole duration. */
async function release(store: LeaseStore, options: LeaseElectionOptions): Promise<void> {
  const current = await store.read();
  if (current?.holderIdentity !== options.identity) return;
  await store.replace({ ...current, holderIdentity: undefined, renewTime: undefined, acquireTime: undefined });
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
