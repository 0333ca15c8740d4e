/**
 * The live replicas of the server, as Leases say: each replica holds a Lease of its own (labelled
 * with the server's Lease name, so that a list by label finds them all) and renews it every retry
 * period, and lists the others' in the same round. A replica counts as live while its Lease keeps
 * changing, as this replica's clock sees it (leases.ts' LeaseObserver, so replicas whose clocks
 * disagree still agree); one whose Lease has gone a whole lease duration unrenewed is gone, and
 * its tenants' claims may be taken over at once. A clean stop removes the replica's own Lease; a
 * killed replica's is removed by the others once it has been gone for a few durations, so none is
 * left behind.
 */
import { createHash } from "node:crypto";
import type { NamedLeaseRecord } from "./leases";
import {
  bounded,
  LeaseObserver,
  leaseTiming,
  pause,
  tryAcquireOrRenew,
  type LeaseOptions,
  type RemovableLeaseStore,
} from "./leases";

/** The label every replica's Lease carries; its value is the server's Lease name (ServerConfig.leaseName). */
export const REPLICA_OF_LABEL = "kubespaces.io/replica-of";

/** How many lease durations a gone replica's Lease is kept before the others remove it. */
const GONE_LEASES_KEPT_FOR = 4;

/** What the membership needs of the API server. */
export interface ReplicaLeases {
  /** The Lease named `name` (this replica's own, or a gone replica's to remove). */
  lease(name: string): RemovableLeaseStore;
  /** Every replica's Lease. */
  list(signal?: AbortSignal): Promise<NamedLeaseRecord[]>;
}

/** The name of replica `identity`'s Lease: `<leaseName>-replica-<identity>`, made a valid object name (a hash keeps two identities apart). */
export function replicaLeaseName(leaseName: string, identity: string): string {
  const cleaned = identity
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, "-")
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
  const name = `${leaseName}-replica-${cleaned}`;
  if (cleaned === identity && name.length <= 253) return name;
  const hash = createHash("sha256").update(identity).digest("hex").slice(0, 10);
  return `${name.slice(0, 253 - 11).replace(/[^a-z0-9]+$/, "")}-${hash}`;
}

/** The live replicas, kept up to date while `run` runs. */
export class ReplicaMembership {
  private live: readonly string[];
  private readonly observers = new Map<string, LeaseObserver>();
  private readonly gone = new Set<string>();
  private readonly listeners = new Set<(replicas: readonly string[]) => void>();
  private markListed!: () => void;
  /** Settles once the first round has listed the replicas. */
  readonly listed = new Promise<void>((resolve) => (this.markListed = resolve));

  constructor(
    private readonly leases: ReplicaLeases,
    private readonly ownLeaseName: string,
    private readonly options: LeaseOptions,
  ) {
    this.live = [options.identity];
  }

  /** The live replicas' identities, sorted, this replica's among them. */
  replicas(): readonly string[] {
    return this.live;
  }

  /** Whether replica `identity`'s Lease was seen gone a whole lease duration unrenewed (it is not coming back as itself). */
  isGone(identity: string): boolean {
    return this.gone.has(identity);
  }

  /** Calls `listener` with the live replicas each time they change; returns what stops it. */
  subscribe(listener: (replicas: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps this replica's Lease and the list of live replicas until `signal` aborts; then removes this replica's Lease. */
  async run(signal: AbortSignal): Promise<void> {
    const timing = leaseTiming(this.options);
    const own = new LeaseObserver();
    try {
      while (!signal.aborted) {
        await bounded(timing.renewDeadlineMs, signal, (round) => this.round(own, round)).catch((error) => {
          if (!signal.aborted) this.options.onError?.(error);
        });
        await pause(timing.retryMs, signal);
      }
    } finally {
      const lease = this.leases.lease(this.ownLeaseName);
      await bounded(timing.renewDeadlineMs, undefined, async (round) => {
        const current = await lease.read(round);
        if (current?.holderIdentity === this.options.identity && current.resourceVersion)
          await lease.remove(current.resourceVersion, round);
      }).catch((error) => this.options.onError?.(error));
    }
  }

  /** One round: renews this replica's Lease, then lists every replica's. */
  private async round(own: LeaseObserver, signal: AbortSignal): Promise<void> {
    // A Lease of this identity from an earlier run (a restarted container) is this replica's own.
    await tryAcquireOrRenew(this.leases.lease(this.ownLeaseName), this.options, own, signal);
    const now = (this.options.now ?? (() => new Date()))();
    const live = new Set([this.options.identity]);
    const listed = await this.leases.list(signal);
    for (const lease of listed) {
      const holder = lease.holderIdentity;
      if (!holder || holder === this.options.identity) continue;
      const observer = this.observers.get(lease.name) ?? new LeaseObserver();
      this.observers.set(lease.name, observer);
      const unchangedMs = observer.unchangedMs(lease, now);
      const durationMs = (lease.leaseDurationSeconds ?? 15) * 1000;
      if (unchangedMs <= durationMs) {
        live.add(holder);
        this.gone.delete(holder);
        continue;
      }
      this.gone.add(holder);
      if (unchangedMs > GONE_LEASES_KEPT_FOR * durationMs && lease.resourceVersion)
        await this.leases.lease(lease.name).remove(lease.resourceVersion, signal);
    }
    for (const name of this.observers.keys()) if (!listed.some((l) => l.name === name)) this.observers.delete(name);
    this.update([...live].sort());
  }

  private update(replicas: readonly string[]): void {
    const changed = replicas.join("\n") !== this.live.join("\n");
    this.live = replicas;
    this.markListed();
    if (changed) for (const listener of this.listeners) listener(replicas);
  }
}
