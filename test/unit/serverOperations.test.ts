/**
 * What operators' tools read of the server: `/readyz` (failing until its conditions are met),
 * `/healthz` (liveness, always), and `/metrics` (prom-client) on a listener of its own, whose
 * counters move with the requests, reconciles and Pulumi operations, whose Tenants by phase come
 * from the replica's watch, and whose labels never carry a person's name, nor a tenant's outside
 * the per-tenant cost metrics (tenantCostMetrics.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { METRICS_PATH, METRICS_PORT } from "../../provider/contracts/metricsEndpoint";
import { buildMetricsServer } from "../../provider/server/http/metricsServer";
import { watchTenants } from "../../provider/server/kube/tenantWatch";
import { WatchedTenantPhases } from "../../provider/server/metrics/watchedTenantPhases";
import { audit } from "../../provider/server/people/auditLog";
import { ServerMetrics } from "../../provider/server/metrics/serverMetrics";
import { timedStacks } from "../../provider/server/metrics/timedStacks";
import type { RolloutProgress } from "../../provider/server/revisions/replicaFleet";
import { GRAFANA_DASHBOARD_FILE } from "../../scripts/generators/grafanaDashboard";
import { Readiness } from "../../provider/server/readiness";
import { apiServerHarness } from "./support/apiServerHarness";
import { StandInTenantApi } from "./support/standInTenantApi";
import type { TenantStacks } from "../../provider/tenants/ports";

const ALICE = "alice@example.com";
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A scrape of `metrics` at the metrics listener's app, as Prometheus makes it. */
async function scrape(metrics: ServerMetrics) {
  const app = await buildMetricsServer(metrics);
  try {
    return await app.inject({ method: "GET", url: METRICS_PATH });
  } finally {
    await app.close();
  }
}

/** The value of the sample `name{labels}` in a Prometheus text exposition, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  for (const line of text.split("\n")) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(",").filter(Boolean).sort();
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(match[3]);
  }
  return 0;
}

describe("/readyz", () => {
  it("fails, naming what it waits for, until the watch synced and the sign-in is made; /healthz answers throughout", async () => {
    let synced = false;
    let signInMade = false;
    const readiness = new Readiness({
      signIn: async () => {
        if (!signInMade) throw new Error("the issuer did not answer");
        return true;
      },
      tenants: () => synced,
    });
    const h = await apiServerHarness({ operations: { readiness } });

    const before = await h.app.inject({ method: "GET", url: API_PATHS.ready });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({ ready: false, waitingFor: ["signIn", "tenants"] });
    expect((await h.app.inject({ method: "GET", url: API_PATHS.health })).statusCode).toBe(200);

    synced = true;
    expect((await h.app.inject({ method: "GET", url: API_PATHS.ready })).json()).toEqual({
      ready: false,
      waitingFor: ["signIn"],
    });
    signInMade = true;
    const after = await h.app.inject({ method: "GET", url: API_PATHS.ready });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ ready: true, waitingFor: [] });

    // Once met, a condition stays met: readiness gates the first traffic only.
    synced = false;
    expect((await h.app.inject({ method: "GET", url: API_PATHS.ready })).statusCode).toBe(200);
  });

  it("takes a condition marked met by whoever saw it happen", async () => {
    const readiness = new Readiness({ tenants: () => false });
    readiness.markMet("tenants");
    expect(await readiness.unmet()).toEqual([]);
  });
});

describe("/metrics", () => {
  it("counts API answers by route pattern and status, and the rate limit's refusals, naming no tenant or person", async () => {
    const metrics = new ServerMetrics();
    const h = await apiServerHarness({ createsPerMinute: 1, operations: { metrics } });
    const headers = bearer(await h.token(ALICE));
    const create = (name: string) =>
      h.app.inject({ method: "POST", url: API_PATHS.tenants, headers, payload: { name, spec: {} } });
    expect((await create("atlas")).statusCode).toBe(201);
    expect((await create("borealis")).statusCode).toBe(429);
    await h.app.inject({ method: "GET", url: API_PATHS.tenant("atlas"), headers });
    await h.app.inject({ method: "GET", url: API_PATHS.tenant("no-such-tenant"), headers });
    await h.app.inject({ method: "GET", url: "/made/up/path-of-alice" });

    const scraped = await scrape(metrics);
    expect(scraped.statusCode).toBe(200);
    expect(scraped.headers["content-type"]).toContain("text/plain");
    const text = scraped.body;
    const requests = (method: string, route: string, status: string) =>
      sample(text, "kubespaces_http_requests_total", { method, route, status });
    expect(requests("POST", "/api/v1/tenants", "201")).toBe(1);
    expect(requests("POST", "/api/v1/tenants", "429")).toBe(1);
    expect(requests("GET", "/api/v1/tenants/:name", "200")).toBe(1);
    expect(requests("GET", "/api/v1/tenants/:name", "404")).toBe(1);
    expect(requests("GET", "unmatched", "404")).toBe(1);
    expect(sample(text, "kubespaces_rate_limited_total", { route: "/api/v1/tenants" })).toBe(1);
    expect(
      sample(text, "kubespaces_http_request_duration_seconds_count", { method: "GET", route: "/api/v1/tenants/:name" }),
    ).toBe(2);
    for (const name of ["atlas", "borealis", "no-such-tenant", "alice", "path-of"]) expect(text).not.toContain(name);
  });

  it("is not served on the API and portal's listener, but on the metrics listener, which serves nothing else", async () => {
    const metrics = new ServerMetrics();
    const h = await apiServerHarness({ operations: { metrics } });
    expect((await h.app.inject({ method: "GET", url: METRICS_PATH })).statusCode).toBe(404);
    const scraped = await scrape(metrics);
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain("# TYPE kubespaces_tenants gauge");
    const app = await buildMetricsServer(metrics);
    for (const url of [API_PATHS.tenants, API_PATHS.health, API_PATHS.ready, "/"])
      expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    await app.close();
  });

  it("is not served, and nothing is counted, with metrics off", async () => {
    const h = await apiServerHarness();
    expect((await h.app.inject({ method: "GET", url: METRICS_PATH })).statusCode).toBe(404);
  });

  it("labels every kubespaces metric from fixed lists and route patterns only, but the tenant's name in the per-tenant costs", async () => {
    const metrics = new ServerMetrics();
    const labels = (await metrics.registry.getMetricsAsJSON())
      .filter((metric) => metric.name.startsWith("kubespaces_"))
      .map((metric) => [
        metric.name,
        (metrics.registry.getSingleMetric(metric.name) as unknown as { labelNames: string[] }).labelNames,
      ]);
    expect(Object.fromEntries(labels)).toEqual({
      kubespaces_reconciles_total: ["result"],
      kubespaces_reconcile_duration_seconds: ["result"],
      kubespaces_pulumi_operation_duration_seconds: ["operation", "outcome"],
      kubespaces_tenants: ["phase"],
      kubespaces_reconcile_queue_depth: ["state"],
      kubespaces_reconcile_queue_wait_seconds: [],
      kubespaces_replicas: [],
      kubespaces_resyncs_total: ["outcome"],
      kubespaces_drift_seen_total: ["kind"],
      kubespaces_http_requests_total: ["method", "route", "status"],
      kubespaces_http_request_duration_seconds: ["method", "route"],
      kubespaces_sign_ins_total: ["outcome"],
      kubespaces_rate_limited_total: ["route"],
      kubespaces_rollout_tenants: ["state"],
      kubespaces_rollout_waves: ["wave"],
      kubespaces_rollout_phase: ["phase"],
      kubespaces_tenant_quota_hard: ["tenant", "resource"],
      kubespaces_tenant_quota_used: ["tenant", "resource"],
      kubespaces_tenant_awake: ["tenant"],
      kubespaces_tenant_awake_seconds_total: ["tenant"],
    });
  });

  it("shows the current revision's rollout as its source gives it, and no series while there is none", async () => {
    let rollout: RolloutProgress | undefined = undefined;
    const metrics = new ServerMetrics({ rollout: () => rollout });
    expect(await metrics.registry.metrics()).not.toMatch(/^kubespaces_rollout_\w+\{/m);
    rollout = { phase: "RollingOut", wave: 2, waves: 3, applied: 4, tenants: 10 };
    let text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_rollout_tenants", { state: "applied" })).toBe(4);
    expect(sample(text, "kubespaces_rollout_tenants", { state: "total" })).toBe(10);
    expect(sample(text, "kubespaces_rollout_waves", { wave: "open" })).toBe(2);
    expect(sample(text, "kubespaces_rollout_waves", { wave: "total" })).toBe(3);
    expect(sample(text, "kubespaces_rollout_phase", { phase: "RollingOut" })).toBe(1);
    expect(sample(text, "kubespaces_rollout_phase", { phase: "Halted" })).toBe(0);
    rollout = { phase: "RolledOut", waves: 3, applied: 10, tenants: 10 };
    text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_rollout_phase", { phase: "RolledOut" })).toBe(1);
    expect(sample(text, "kubespaces_rollout_phase", { phase: "RollingOut" })).toBe(0);
    expect(sample(text, "kubespaces_rollout_waves", { wave: "open" })).toBe(0);
    rollout = undefined;
    expect(await metrics.registry.metrics()).not.toMatch(/^kubespaces_rollout_\w+\{/m);
  });

  it("counts Tenants by phase as its source gives them, a phase it does not know as None, and none before the first list", async () => {
    let phases: (string | undefined)[] | undefined = undefined;
    const metrics = new ServerMetrics({ tenantPhases: () => phases });
    const counts = async () => {
      const text = await metrics.registry.metrics();
      return Object.fromEntries(
        ["Ready", "AwaitingApproval", "None", "Failed"].map((phase) => [
          phase,
          sample(text, "kubespaces_tenants", { phase }),
        ]),
      );
    };
    expect(await metrics.registry.metrics()).not.toMatch(/^kubespaces_tenants\{/m);
    phases = ["Ready", "Ready", "AwaitingApproval", undefined, "Sideways"];
    expect(await counts()).toEqual({ Ready: 2, AwaitingApproval: 1, None: 2, Failed: 0 });
  });

  it("counts Tenants by phase from the replica's watch of them: a scrape lists nothing from the host", async () => {
    const host = new StandInTenantApi();
    const stop = new AbortController();
    try {
      host.put("atlas", "Ready");
      host.put("borealis", "Provisioning");
      host.put("cygnus");
      const phases = new WatchedTenantPhases();
      const metrics = new ServerMetrics({ tenantPhases: () => phases.phases() });
      let synced!: () => void;
      const listed = new Promise<void>((resolve) => (synced = resolve));
      watchTenants(
        await host.start(),
        {
          onTenant: () => {},
          onPhase: (name, phase) => phases.seen(name, phase),
          onGone: (name) => phases.gone(name),
          onError: (error) => expect.fail(String(error)),
          onSynced: () => {
            phases.listed();
            synced();
          },
        },
        stop.signal,
      );
      await listed;
      const count = async (phase: string) => sample((await scrape(metrics)).body, "kubespaces_tenants", { phase });
      for (let i = 0; i < 3; i++)
        expect([await count("Ready"), await count("Provisioning"), await count("None")]).toEqual([1, 1, 1]);

      host.put("borealis", "Ready");
      host.remove("cygnus");
      await expect.poll(() => count("Ready")).toBe(2);
      expect([await count("Provisioning"), await count("None")]).toEqual([0, 0]);
      // The watch's own list, at its start: none at a scrape.
      expect(host.lists).toBe(1);
    } finally {
      stop.abort();
      await host.stop();
    }
  });

  it("shows the live replicas and this replica's queue while it reconciles, and 0 once it stops", async () => {
    const metrics = new ServerMetrics();
    metrics.working(
      () => ({ running: 2, waiting: 5, retrying: 1 }),
      () => 3,
    );
    let text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_replicas", {})).toBe(3);
    expect(sample(text, "kubespaces_reconcile_queue_depth", { state: "waiting" })).toBe(5);
    metrics.working(undefined, undefined);
    text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_replicas", {})).toBe(0);
    expect(sample(text, "kubespaces_reconcile_queue_depth", { state: "waiting" })).toBe(0);
  });

  it("counts reconciles by result, and Pulumi operations by outcome", async () => {
    const metrics = new ServerMetrics();
    metrics.reconciled("done", 0.2);
    metrics.reconciled("retry", 30);
    const stacks = {
      preview: async () => [],
      destroy: async () => {
        throw new Error("the stack is locked");
      },
    } as unknown as TenantStacks;
    const timed = timedStacks(stacks, metrics);
    await timed.preview("atlas", undefined, {} as never);
    await expect(timed.destroy("atlas", {} as never)).rejects.toThrow("the stack is locked");
    const text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_reconciles_total", { result: "done" })).toBe(1);
    expect(sample(text, "kubespaces_reconciles_total", { result: "retry" })).toBe(1);
    expect(sample(text, "kubespaces_reconcile_duration_seconds_bucket", { result: "retry", le: "30" })).toBe(1);
    const operations = (operation: string, outcome: string) =>
      sample(text, "kubespaces_pulumi_operation_duration_seconds_count", { operation, outcome });
    expect(operations("preview", "ok")).toBe(1);
    expect(operations("destroy", "failed")).toBe(1);
    expect(text).not.toContain("atlas");
  });

  it("counts the portal's sign-ins from the audit log, passing every line on as it is", async () => {
    const metrics = new ServerMetrics();
    const lines: string[] = [];
    const sink = metrics.countingSignIns((line) => lines.push(line));
    audit(sink, { actor: ALICE, action: "sign-in", outcome: "ok" });
    audit(sink, { actor: "anonymous", action: "sign-in", outcome: "refused" });
    audit(sink, { actor: ALICE, action: "tenant.create", tenant: "atlas", outcome: "ok" });
    const text = await metrics.registry.metrics();
    expect(sample(text, "kubespaces_sign_ins_total", { outcome: "ok" })).toBe(1);
    expect(sample(text, "kubespaces_sign_ins_total", { outcome: "refused" })).toBe(1);
    expect(lines).toHaveLength(3);
    expect(text).not.toContain(ALICE);
  });
});

describe("the metrics' documentation", () => {
  const doc = (file: string) => readFileSync(path.join(__dirname, "../..", file), "utf8");

  it("lists every kubespaces metric in docs/self-service.md, and the example rules use only metrics that exist", async () => {
    const names = (await new ServerMetrics().registry.getMetricsAsJSON())
      .map((metric) => metric.name)
      .filter((name) => name.startsWith("kubespaces_"));
    const table = [...doc("docs/self-service.md").matchAll(/^\| `(kubespaces_\w+)` \|/gm)].map(([, name]) => name);
    expect(table.sort()).toEqual([...names].sort());
    const used = new Set(
      [...doc("docs/prometheus-rules.yaml").matchAll(/\b(kubespaces_\w+)/g)].map(([, name]) =>
        name.replace(/_(bucket|count|sum)$/, ""),
      ),
    );
    expect(used.size).toBeGreaterThan(3);
    for (const name of used) expect(names, name).toContain(name);
  });

  it("draws the dashboard from metrics that exist, each panel in its own place", async () => {
    const names = (await new ServerMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name);
    const dashboard = JSON.parse(doc(GRAFANA_DASHBOARD_FILE)) as {
      panels: {
        id: number;
        type: string;
        gridPos: { x: number; y: number; w: number; h: number };
        targets?: { expr: string }[];
      }[];
    };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr);
    const used = new Set(
      exprs.flatMap((expr) =>
        [...expr.matchAll(/\b(kubespaces_\w+)/g)].map(([, name]) => name.replace(/_(bucket|count|sum)$/, "")),
      ),
    );
    // What the issues ask the dashboard to show: reconciles, phases, drift, rollout, preview load, each tenant's cost.
    for (const name of [
      "kubespaces_reconciles_total",
      "kubespaces_pulumi_operation_duration_seconds",
      "kubespaces_tenants",
      "kubespaces_drift_seen_total",
      "kubespaces_rollout_tenants",
      "kubespaces_rate_limited_total",
      "kubespaces_tenant_quota_used",
      "kubespaces_tenant_quota_hard",
      "kubespaces_tenant_awake",
      "kubespaces_tenant_awake_seconds_total",
    ])
      expect(used, name).toContain(name);
    for (const name of used) expect(names, name).toContain(name);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const { gridPos } of dashboard.panels)
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++)
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `two panels at ${x},${y}`).toBe(false);
          expect(x).toBeLessThan(24);
          cells.add(`${x},${y}`);
        }
  });

  it("gives the metrics' own port in docs/self-service.md as the server takes it", () => {
    expect(doc("docs/self-service.md")).toContain(`metricsListen: 127.0.0.1:${METRICS_PORT} `);
  });
});
