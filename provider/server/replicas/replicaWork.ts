/**
 * One replica's share of the reconciling: every replica watches the Tenants and their host
 * objects, but queues only the tenants it owns (replicaTenants.ts, over the live replicas that
 * replicaMembership.ts lists), and runs each reconcile holding the tenant's claim
 * (tenantClaims.ts). When a replica joins or goes, or a tenant comes or goes, every replica queues
 * the tenants it gained (a settled tenant's reconcile is one read), so a killed replica's tenants
 * are taken up once its Lease has gone a lease duration unrenewed. Nothing is polled: work comes
 * from the watches, the staggered resync and the queue's backoff.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { apiErrorText } from "../../util/kubeClientErrors";
import type { KubeTenantResources } from "../kube/kubeTenantResources";
import type { ServerMetrics } from "../metrics/serverMetrics";
import { ReconcileQueue } from "../reconcile/reconcileQueue";
import type { ReplicaMembership } from "./replicaMembership";
import { scheduleResyncs } from "../reconcile/resyncSchedule";
import type { ServerConfig } from "../serverConfig";
import type { LogLevel } from "../serverLog";
import type { TenantClaims } from "./tenantClaims";
import { ReplicaTenants } from "./replicaTenants";
import type { TenantReconciler } from "../reconcile/tenantReconciler";
import { watchDrift } from "../kube/driftWatch";
import { watchTenants } from "../kube/tenantWatch";
import { watchPlatformRevisions } from "../kube/kubePlatformRevisions";
import type { FleetShare, ReplicaFleet } from "../revisions/replicaFleet";
import type { WatchedTenantPhases } from "../metrics/watchedTenantPhases";
import type { WatchedTenantCosts } from "../metrics/watchedTenantCosts";

/** What a replica's share works with. */
export interface ReplicaParts {
  readonly kubeConfig: KubeConfig;
  readonly reconciler: TenantReconciler;
  readonly resources: KubeTenantResources;
  readonly config: ServerConfig;
  readonly log: (line: string, level?: LogLevel) => void;
  readonly identity: string;
  readonly metrics?: ServerMetrics;
  readonly membership: ReplicaMembership;
  readonly claims: TenantClaims;
  /** Marked once the watch of Tenants has listed them all (the readiness endpoint waits for it). */
  readonly onSynced: () => void;
  /** The fleet preview's part on this replica, which the reconciler asks (replicaFleet.ts). */
  readonly fleet: ReplicaFleet;
  /** Each Tenant's phase as the watch sees it, which the metrics count (none: nothing keeps them). */
  readonly phases?: WatchedTenantPhases;
  /**
   * Publishes the ceilings new tenants are held to, for admission (ceilingPublisher.ts): called
   * once the revisions are listed, and after each change of them since.
   */
  readonly publishCeilings: () => Promise<void>;
  /** Each Tenant's quota and time awake as the watches see them, which the metrics show (none: nothing keeps them). */
  readonly costs?: WatchedTenantCosts;
}

/** The first retry of a failed reconcile, and the longest pause between retries. */
const BACKOFF = { initialBackoffMs: 5_000, maxBackoffMs: 5 * 60_000 } as const;

/**
 * Runs this replica's share until `signal` aborts: then no new reconcile starts and the running
 * ones are told to stop. Settles once they have.
 */
export async function runReplicaShare(parts: ReplicaParts, signal: AbortSignal): Promise<void> {
  const { membership, identity, log, metrics } = parts;
  // Before the first list, this replica would think it owns every tenant.
  await Promise.race([membership.listed, stopped(signal)]);
  if (signal.aborted) return;
  // Tenants are handed on only at a later turn of the event loop, once the queue below exists.
  const tenants: ReplicaTenants = new ReplicaTenants(
    identity,
    () => membership.replicas(),
    (name, hasStatus) => enqueue(parts, queue, name, hasStatus),
  );
  const queue = reconcileQueue(parts, (name) => tenants.owns(name));
  metrics?.working(
    () => queue.size,
    () => membership.replicas().length,
  );
  log(`replica ${identity} reconciles its share of the Tenants, with ${describeReplicas(membership.replicas())}`);
  const unsubscribe = membership.subscribe((replicas) => {
    log(`replicas now: ${describeReplicas(replicas)}; queueing the Tenants this replica gained`);
    tenants.reassign();
  });
  startWatches(parts, queue, tenants, signal);
  await stopped(signal);
  unsubscribe();
  metrics?.working(undefined, undefined);
  log(`replica ${identity} stops: its running reconciles are stopping`);
  await queue.stop();
}

/** The queue: each reconcile of a tenant this replica still owns runs holding its claim. */
function reconcileQueue(
  { reconciler, claims, log, metrics, config }: ReplicaParts,
  owns: (name: string) => boolean,
): ReconcileQueue {
  return new ReconcileQueue(
    async (name, options) => {
      // Its owner changed while it waited: the new owner has queued it.
      if (!owns(name)) return { retry: false };
      log(`reconciling tenant ${name}${options.resync ? " (resync)" : ""}`);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        // The reconcile stops when the claim is lost, or when the queue stops (the server is stopping).
        const claimed = await claims.hold(
          name,
          (held) => reconciler.reconcile(name, { ...options, signal: held }),
          options.signal,
        );
        if (!claimed.held) {
          log(`tenant ${name}: another replica holds its claim; trying again after a pause`);
          return { retry: true };
        }
        metrics?.reconciled(claimed.value.retry ? "retry" : "done", seconds());
        log(`tenant ${name}: ${claimed.value.retry ? "will be tried again" : "reconciled"}`);
        return claimed.value;
      } catch (error) {
        metrics?.reconciled("error", seconds());
        throw error;
      }
    },
    {
      concurrency: config.concurrency,
      ...BACKOFF,
      onError: (name, error) => log(`tenant ${name}: ${apiErrorText(error)}`, "error"),
      onStart: (_name, waitedMs) => metrics?.queueWaitSeconds.observe(waitedMs / 1000),
    },
  );
}

/**
 * The watch of PlatformRevisions comes first: a tenant's stack runs with the policy of the revision
 * its status names, so no tenant is reconciled before they are all known. Then the watch of
 * Tenants feeds the queue, the drift watch asks for a resync of a tenant whose host objects
 * changed, and each tenant is resynced once a period at an offset of its own; each only for the
 * tenants this replica owns.
 */
function startWatches(parts: ReplicaParts, queue: ReconcileQueue, tenants: ReplicaTenants, signal: AbortSignal): void {
  let started = false;
  watchPlatformRevisions(
    parts.kubeConfig,
    {
      onRevision: (revision) => {
        parts.fleet.seen(revision);
        if (started) void parts.publishCeilings();
      },
      onGone: (name) => {
        parts.fleet.gone(name);
        if (started) void parts.publishCeilings();
      },
      onError: (error) => parts.log(`platform revisions watch: ${apiErrorText(error)}`, "warn"),
      // Before the first list the policy of new tenants is not known (a rolled-out revision may be
      // among them); the replica reconciles, and is ready, once its ceilings are published.
      onSynced: () => {
        const published = parts.publishCeilings();
        if (started) return;
        started = true;
        void published.then(() => {
          if (!signal.aborted) startTenantWatches(parts, queue, tenants, signal);
        });
      },
    },
    signal,
  );
}

/** The watches of Tenants and of their host objects, and the periodic resync. */
function startTenantWatches(
  parts: ReplicaParts,
  queue: ReconcileQueue,
  tenants: ReplicaTenants,
  signal: AbortSignal,
): void {
  const { kubeConfig, config, log, metrics, onSynced, phases, costs } = parts;
  const owns = (name: string) => tenants.owns(name);
  let following = false;
  watchTenants(
    kubeConfig,
    {
      // A tenant not known before is queued once its owner is worked out, if it is this replica's.
      onTenant: (name, hasStatus) => {
        if (!tenants.seen(name, hasStatus) && owns(name)) enqueue(parts, queue, name, hasStatus);
      },
      onGone: (name) => {
        tenants.gone(name);
        parts.fleet.tenantGone(name);
        phases?.gone(name);
        costs?.gone(name);
      },
      onRunning: (name, revision) => parts.fleet.tenantRuns(name, revision),
      onPhase: (name, phase) => {
        phases?.seen(name, phase);
        costs?.phaseSeen(name, phase);
      },
      onError: (error) => log(`watch: ${apiErrorText(error)}`, "warn"),
      onSynced: () => {
        onSynced();
        phases?.listed();
        // Only once every tenant is known: a revision's sum and rollout are over all of them.
        if (!following) parts.fleet.follow(fleetShare(tenants, queue));
        following = true;
      },
    },
    signal,
  );
  // Drift is found by watching the tenants' host objects; the periodic resync is the slow safety net.
  watchDrift(
    kubeConfig,
    {
      onDrift: (tenant, kind, object) => {
        if (!owns(tenant)) return;
        metrics?.driftSeen.inc({ kind });
        log(`drift: ${kind} ${object} of tenant ${tenant} changed or went; resyncing the tenant`);
        queue.add(tenant, true);
      },
      onError: (error) => log(`drift watch: ${apiErrorText(error)}`, "warn"),
      // Every replica follows every tenant's quota, as it does every Tenant's phase: any replica's scrape shows them all.
      ...(costs && {
        onQuota: (tenant, quota) => (quota ? costs.quotaSeen(tenant, quota) : costs.quotaGone(tenant)),
      }),
    },
    signal,
  );
  if (config.resyncSeconds > 0)
    scheduleResyncs(
      config.resyncSeconds * 1000,
      () => tenants.owned(),
      (name) => owns(name) && queue.add(name, true),
      signal,
    );
}

/** The replica's share of the tenants, as the fleet follows it. */
const fleetShare = (tenants: ReplicaTenants, queue: ReconcileQueue): FleetShare => ({
  tenants: () => tenants.names(),
  owned: () => tenants.owned(),
  onPending: (name) => queue.add(name),
});

/** Queues tenant `name`; a new Tenant shows Pending before it waits for its turn, its reconcile queued after that write. */
function enqueue({ reconciler, log }: ReplicaParts, queue: ReconcileQueue, name: string, hasStatus: boolean): void {
  if (hasStatus) return queue.add(name);
  void reconciler
    .acknowledge(name)
    .catch((error) => log(`tenant ${name}: ${apiErrorText(error)}`, "error"))
    .finally(() => queue.add(name));
}

/** Settles when `signal` aborts. */
const stopped = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

/** The live replicas for the log: how many, and who. */
const describeReplicas = (replicas: readonly string[]) =>
  `${replicas.length} live replica${replicas.length === 1 ? "" : "s"} (${replicas.join(", ")})`;
