/**
 * The server's Prometheus metrics (prom-client), one registry per server so that two servers in
 * one process (tests) never share counts. Every label takes its values from a fixed list or a
 * route pattern, never from a person's name, and from a tenant's name only in the per-tenant cost
 * metrics (`kubespaces_tenant_*`, label `tenant`): their series grow with the tenants the watch
 * holds and go with them, and every other metric's stay few whatever the number of tenants and
 * people. docs/self-service.md lists each metric.
 */
import { HELD_PHASES } from "../../contracts/tenantResourceNames";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { TENANT_PHASES } from "../../tenants/tenantObject";
import type { AuditSink } from "../people/auditLog";
import { ROLLOUT_PHASES } from "../../tenantResource/platformRevisionStatus";
import type { RolloutProgress } from "../revisions/replicaFleet";
import { COST_RESOURCES, type CostAmounts, type QuotaAmounts } from "./quotaAmounts";
import type { TenantCost } from "./watchedTenantCosts";

/** How a reconcile ended: done, asked to be tried again, or threw (also tried again). */
export const RECONCILE_RESULTS = ["done", "retry", "error"] as const;
/** One of them. */
export type ReconcileResultLabel = (typeof RECONCILE_RESULTS)[number];

/** The Pulumi operations a reconcile runs on a tenant's stack. */
export const STACK_OPERATIONS = ["up", "preview", "destroy"] as const;
/** One of them. */
export type StackOperation = (typeof STACK_OPERATIONS)[number];

/** The phases `kubespaces_tenants` counts: the service's, those of a held change, and none written yet. */
export const COUNTED_PHASES = [...TENANT_PHASES, ...HELD_PHASES, "None"] as const;

/** The HTTP methods counted by name; any other is counted as `other`. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The route label of a request that matched no route (its path is never a label: anyone can make up paths). */
export const UNMATCHED_ROUTE = "unmatched";

/** How long reconciles and Pulumi operations take: from a Ready tenant left alone to a slow first `up`. */
const LONG_BUCKETS = [0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1200];
/** How long an API request or a wait in the queue takes. */
const SHORT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** What the gauges read when scraped. */
export interface MetricsSources {
  /**
   * The phase of every Tenant resource (undefined: no status yet) as this replica's watch holds
   * them (WatchedTenantPhases), never read from the host at a scrape; undefined before the watch's
   * first list.
   */
  readonly tenantPhases?: () => readonly (string | undefined)[] | undefined;
  /**
   * How the current platform revision's rollout stands, as the replica's watch of revisions holds
   * it (ReplicaFleet); undefined while there is none.
   */
  readonly rollout?: () => RolloutProgress | undefined;
  /**
   * Each Tenant's cost as this replica's watches hold it (WatchedTenantCosts): its quota, whether
   * it is awake and for how long; never read from the host at a scrape.
   */
  readonly tenantCosts?: () => readonly TenantCost[];
}

/** The server's metrics. */
export class ServerMetrics {
  /** The registry `/metrics` serves. */
  readonly registry = new Registry();

  /** Reconciles, by how they ended. */
  readonly reconciles = new Counter({
    name: "kubespaces_reconciles_total",
    help: "Reconciles of Tenant resources, by result: done, retry (asked to be tried again), error (threw).",
    labelNames: ["result"] as const,
    registers: [this.registry],
  });

  /** How long reconciles take, by how they ended. */
  readonly reconcileSeconds = new Histogram({
    name: "kubespaces_reconcile_duration_seconds",
    help: "How long one reconcile of one Tenant took, by result.",
    labelNames: ["result"] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });

  /** How long Pulumi operations on tenants' stacks take. */
  readonly stackSeconds = new Histogram({
    name: "kubespaces_pulumi_operation_duration_seconds",
    help: "How long a Pulumi operation on a tenant's stack took (up, preview, destroy), by outcome (ok, failed).",
    labelNames: ["operation", "outcome"] as const,
    buckets: LONG_BUCKETS,
    registers: [this.registry],
  });

  /** Tenants by phase, as this replica's watch of them holds them. */
  readonly tenants: Gauge<"phase">;

  /** The work queue's tenants, by state. */
  readonly queueDepth: Gauge<"state">;

  /** The current revision's rollout: tenants that run it, and all of them. */
  readonly rolloutTenants: Gauge;

  /** The current revision's rollout: its open wave, and how many there are. */
  readonly rolloutWaves: Gauge;

  /** The current revision's rollout: 1 for its phase, 0 for the others. */
  readonly rolloutPhase: Gauge;

  /** How long tenants wait in the queue before their reconcile starts. */
  readonly queueWaitSeconds = new Histogram({
    name: "kubespaces_reconcile_queue_wait_seconds",
    help: "How long a Tenant waited in the work queue, from being asked for (or its retry falling due) to its reconcile starting.",
    buckets: SHORT_BUCKETS,
    registers: [this.registry],
  });

  /** The live replicas this replica sees. */
  readonly replicas: Gauge;

  /** Each tenant's quota ceiling, by resource. */
  readonly tenantQuotaHard: Gauge<"tenant" | "resource">;

  /** What each tenant uses of its quota, by resource. */
  readonly tenantQuotaUsed: Gauge<"tenant" | "resource">;

  /** Whether each tenant is awake. */
  readonly tenantAwake: Gauge<"tenant">;

  /** How long each tenant was awake, as this replica saw it. */
  readonly tenantAwakeSeconds: Counter<"tenant">;

  /** API, portal and sign-in requests. */
  readonly httpRequests = new Counter({
    name: "kubespaces_http_requests_total",
    help: "HTTP requests answered, by method, route pattern (unmatched: no route) and status code.",
    labelNames: ["method", "route", "status"] as const,
    registers: [this.registry],
  });

  /** How long HTTP requests take. */
  readonly httpSeconds = new Histogram({
    name: "kubespaces_http_request_duration_seconds",
    help: "How long an HTTP request took to answer, by method and route pattern.",
    labelNames: ["method", "route"] as const,
    buckets: SHORT_BUCKETS,
    registers: [this.registry],
  });

  /** The portal's sign-ins. */
  readonly signIns = new Counter({
    name: "kubespaces_sign_ins_total",
    help: "The portal's sign-ins at their callback, by outcome: ok, refused.",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  /** Resyncs of Ready tenants, by how they ended. */
  readonly resyncs = new Counter({
    name: "kubespaces_resyncs_total",
    help: "Resyncs of Ready tenants (periodic, or asked for by the drift watch), by outcome: clean (a preview after a refresh planned nothing, and no update ran), drifted (it planned a change, and an update put the host back), unknown (the preview failed, and the update ran to tell).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  /** Drift the watch saw. */
  readonly driftSeen = new Counter({
    name: "kubespaces_drift_seen_total",
    help: "Host objects of tenants that the drift watch saw changed or removed, by kind; each asks for a resync of its tenant.",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });

  /** Requests the rate limit refused. */
  readonly rateLimited = new Counter({
    name: "kubespaces_rate_limited_total",
    help: "Requests refused by a per-person limit (creates, previews; HTTP 429), by route pattern.",
    labelNames: ["route"] as const,
    registers: [this.registry],
  });

  /** This replica's queue, while it reconciles. */
  private queue: (() => { running: number; waiting: number; retrying: number }) | undefined;
  /** How many replicas are live, while this replica reconciles. */
  private liveReplicas: (() => number) | undefined;

  constructor(sources: MetricsSources = {}) {
    collectDefaultMetrics({ register: this.registry });
    const tenantPhases = sources.tenantPhases;
    this.tenants = new Gauge({
      name: "kubespaces_tenants",
      help: "Tenant resources on the host, by phase (None: no status written yet), as this replica's watch of them holds them.",
      labelNames: ["phase"] as const,
      registers: [this.registry],
      collect() {
        // Before the watch's first list no count is given: a short count would read as tenants gone.
        const phases = tenantPhases?.();
        if (!phases) return;
        const counts = new Map<string, number>(COUNTED_PHASES.map((phase) => [phase, 0]));
        for (const phase of phases) {
          const counted = phase !== undefined && counts.has(phase) ? phase : "None";
          counts.set(counted, counts.get(counted)! + 1);
        }
        for (const [phase, count] of counts) this.set({ phase }, count);
      },
    });
    const queueSize = () => this.queue?.() ?? { running: 0, waiting: 0, retrying: 0 };
    this.queueDepth = new Gauge({
      name: "kubespaces_reconcile_queue_depth",
      help: "Tenants in this replica's work queue (the tenants it owns), by state: running, waiting (for a worker), retrying (waiting out a backoff).",
      labelNames: ["state"] as const,
      registers: [this.registry],
      collect() {
        for (const [state, count] of Object.entries(queueSize())) this.set({ state }, count);
      },
    });
    const rollout = sources.rollout ?? (() => undefined);
    // No revision's name is a label: the gauges describe the current revision, whatever it is called.
    const rolloutGauge = (
      name: string,
      help: string,
      label: string,
      samples: (now: RolloutProgress) => [string, number][],
    ) =>
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [this.registry],
        collect() {
          this.reset();
          const now = rollout();
          if (now) for (const [value, count] of samples(now)) this.set({ [label]: value }, count);
        },
      });
    this.rolloutTenants = rolloutGauge(
      "kubespaces_rollout_tenants",
      "The current platform revision's rollout: tenants that run it (applied) and all tenants (total); absent while there is none.",
      "state",
      (now) => [
        ["applied", now.applied],
        ["total", now.tenants],
      ],
    );
    this.rolloutWaves = rolloutGauge(
      "kubespaces_rollout_waves",
      "The current platform revision's rollout: its open wave (open; 0 when none is open) and how many waves it has (total).",
      "wave",
      (now) => [
        ["open", now.wave ?? 0],
        ["total", now.waves],
      ],
    );
    this.rolloutPhase = rolloutGauge(
      "kubespaces_rollout_phase",
      "The current platform revision's rollout phase: 1 for the phase it is in, 0 for the others (Waiting, RollingOut, Halted, RolledOut, Aborted, Superseded).",
      "phase",
      (now) => ROLLOUT_PHASES.map((phase) => [phase, phase === now.phase ? 1 : 0]),
    );
    const liveReplicas = () => this.liveReplicas?.() ?? 0;
    this.replicas = new Gauge({
      name: "kubespaces_replicas",
      help: "The live replicas of the server as this replica sees them (their Leases renewed within a lease duration), itself among them; 0 before it reconciles.",
      registers: [this.registry],
      collect() {
        this.set(liveReplicas());
      },
    });
    const tenantCosts = sources.tenantCosts ?? (() => []);
    // Each collect starts from no series, so that a tenant gone from the watch leaves none behind.
    const quotaGauge = (name: string, help: string, amounts: (quota: QuotaAmounts) => CostAmounts) =>
      new Gauge({
        name,
        help,
        labelNames: ["tenant", "resource"] as const,
        registers: [this.registry],
        collect() {
          this.reset();
          for (const { tenant, quota } of tenantCosts()) {
            if (!quota) continue;
            const values = amounts(quota);
            for (const resource of COST_RESOURCES)
              if (values[resource] !== undefined) this.set({ tenant, resource }, values[resource]);
          }
        },
      });
    this.tenantQuotaHard = quotaGauge(
      "kubespaces_tenant_quota_hard",
      "Each tenant's quota ceiling, by resource: cpu (cores), memory and storage (bytes), the quota's requests.*; absent while its namespace has no quota.",
      (quota) => quota.hard,
    );
    this.tenantQuotaUsed = quotaGauge(
      "kubespaces_tenant_quota_used",
      "What each tenant's pods and claims request of its quota, by resource: cpu (cores), memory and storage (bytes), as the quota's status says.",
      (quota) => quota.used,
    );
    this.tenantAwake = new Gauge({
      name: "kubespaces_tenant_awake",
      help: "1 while a tenant is awake (provisioned, and its phase is not Sleeping), 0 otherwise, by tenant.",
      labelNames: ["tenant"] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { tenant, awake } of tenantCosts()) this.set({ tenant }, awake ? 1 : 0);
      },
    });
    this.tenantAwakeSeconds = new Counter({
      name: "kubespaces_tenant_awake_seconds_total",
      help: "Seconds a tenant was awake since this replica started (or first saw the tenant), by tenant.",
      labelNames: ["tenant"] as const,
      registers: [this.registry],
      collect() {
        // The source keeps the running total; a counter cannot be set, so it is rebuilt from it.
        this.reset();
        for (const { tenant, awakeSeconds } of tenantCosts()) this.inc({ tenant }, awakeSeconds);
      },
    });
  }

  /** Counts a reconcile that ended with `result` after `seconds`. */
  reconciled(result: ReconcileResultLabel, seconds: number): void {
    this.reconciles.inc({ result });
    this.reconcileSeconds.observe({ result }, seconds);
  }

  /** Marks this replica reconciling, with its queue's size and the live replicas' count, or stopped (both undefined). */
  working(
    queue: (() => { running: number; waiting: number; retrying: number }) | undefined,
    liveReplicas: (() => number) | undefined,
  ): void {
    this.queue = queue;
    this.liveReplicas = liveReplicas;
  }

  /** Counts an HTTP answer. `route` is the matched route's pattern, undefined when none matched. */
  answered(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method: METHODS.has(method) ? method : "other", route: route ?? UNMATCHED_ROUTE };
    this.httpRequests.inc({ ...labels, status: String(status) });
    this.httpSeconds.observe(labels, seconds);
    if (status === 429) this.rateLimited.inc({ route: labels.route });
  }

  /**
   * The audit sink `sink` with the portal's sign-ins counted: the sign-in routes already record
   * each one's outcome in the audit log, so it is read there rather than said twice.
   */
  countingSignIns(sink: AuditSink): AuditSink {
    return (line) => {
      const record = JSON.parse(line) as { action?: string; outcome?: string };
      if (record.action === "sign-in") this.signIns.inc({ outcome: record.outcome === "ok" ? "ok" : "refused" });
      sink(line);
    };
  }
}
