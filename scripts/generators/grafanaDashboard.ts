/**
 * The Grafana dashboard over `kubespaces server`'s metrics (`docs/grafana-dashboard.json`, beside
 * the example Prometheus rules), written by `npm run generate`: its panels are listed here as data,
 * so that a unit test can check every metric they name against the server's registry. Import it in
 * Grafana (Dashboards, New, Import) and pick the Prometheus data source that scrapes the server.
 *
 * Every replica reports every Tenant, each tenant's cost and the current rollout from its own
 * watches: those panels take `max` over the replicas, never `sum`. Counters are summed over the replicas (each counts its own).
 */

/** One panel: a time series or a stat over PromQL expressions. */
interface PanelSpec {
  readonly title: string;
  readonly description: string;
  readonly kind: "timeseries" | "stat";
  /** Grafana's unit id (`s`, `ops`, `short`, `percentunit`). */
  readonly unit: string;
  /** Each expression with the legend its series get. */
  readonly targets: readonly { readonly expr: string; readonly legend: string }[];
}

/** A row of panels, laid out side by side. */
interface RowSpec {
  readonly title: string;
  readonly panels: readonly PanelSpec[];
}

/** Where the dashboard is written. */
export const GRAFANA_DASHBOARD_FILE = "docs/grafana-dashboard.json";

/** The dashboard's Prometheus data source, chosen at import (a template variable). */
const DATASOURCE = { type: "prometheus", uid: "${datasource}" } as const;

/** How many grid columns Grafana has, and how tall a panel is. */
const GRID_WIDTH = 24;
const PANEL_HEIGHT = 8;

const p95 = (metric: string, by: string) =>
  `histogram_quantile(0.95, sum by (le${by ? `, ${by}` : ""}) (rate(${metric}_bucket[$__rate_interval])))`;

/** The rows, top to bottom: what a platform team looks at first comes first. */
export const DASHBOARD_ROWS: readonly RowSpec[] = [
  {
    title: "Tenants",
    panels: [
      {
        title: "Tenants by phase",
        description: "Tenant resources by phase, as the replicas' watches hold them (max over replicas).",
        kind: "timeseries",
        unit: "short",
        targets: [{ expr: "max by (phase) (kubespaces_tenants)", legend: "{{phase}}" }],
      },
      {
        title: "Failed tenants",
        description: "Tenants whose phase is Failed: kubectl describe tenant NAME says why.",
        kind: "stat",
        unit: "short",
        targets: [{ expr: 'max(kubespaces_tenants{phase="Failed"})', legend: "Failed" }],
      },
      {
        title: "Replicas",
        description: "The live replicas each replica sees; they should agree.",
        kind: "timeseries",
        unit: "short",
        targets: [{ expr: "kubespaces_replicas", legend: "{{pod}}" }],
      },
    ],
  },
  {
    title: "Tenant cost",
    panels: [
      {
        title: "Quota used, share of the ceiling",
        description:
          "What each tenant's pods and claims request of its quota's ceiling, by resource (cpu, memory, storage).",
        kind: "timeseries",
        unit: "percentunit",
        targets: [
          {
            expr: "max by (tenant, resource) (kubespaces_tenant_quota_used) / max by (tenant, resource) (kubespaces_tenant_quota_hard > 0)",
            legend: "{{tenant}} {{resource}}",
          },
        ],
      },
      {
        title: "CPU requested and ceiling",
        description: "Each tenant's requested cores and its quota's ceiling.",
        kind: "timeseries",
        unit: "short",
        targets: [
          { expr: 'max by (tenant) (kubespaces_tenant_quota_used{resource="cpu"})', legend: "{{tenant}} used" },
          { expr: 'max by (tenant) (kubespaces_tenant_quota_hard{resource="cpu"})', legend: "{{tenant}} ceiling" },
        ],
      },
      {
        title: "Memory requested and ceiling",
        description: "Each tenant's requested memory and its quota's ceiling.",
        kind: "timeseries",
        unit: "bytes",
        targets: [
          { expr: 'max by (tenant) (kubespaces_tenant_quota_used{resource="memory"})', legend: "{{tenant}} used" },
          { expr: 'max by (tenant) (kubespaces_tenant_quota_hard{resource="memory"})', legend: "{{tenant}} ceiling" },
        ],
      },
      {
        title: "Awake",
        description: "1 while a tenant is awake, 0 while it sleeps or nothing of it is provisioned.",
        kind: "timeseries",
        unit: "short",
        targets: [{ expr: "max by (tenant) (kubespaces_tenant_awake)", legend: "{{tenant}}" }],
      },
      {
        title: "Awake hours, last 30 days",
        description:
          "Hours each tenant was awake over the last 30 days, as the longest-running replica counted them (each counts from its start).",
        kind: "stat",
        unit: "h",
        targets: [
          {
            expr: "max by (tenant) (increase(kubespaces_tenant_awake_seconds_total[30d])) / 3600",
            legend: "{{tenant}}",
          },
        ],
      },
    ],
  },
  {
    title: "Reconciles",
    panels: [
      {
        title: "Reconciles by result",
        description: "Reconciles per second, by result: done, retry (asked to be tried again), error (threw).",
        kind: "timeseries",
        unit: "ops",
        targets: [
          { expr: "sum by (result) (rate(kubespaces_reconciles_total[$__rate_interval]))", legend: "{{result}}" },
        ],
      },
      {
        title: "Reconcile failures",
        description: "The share of reconciles that ended in retry or error.",
        kind: "timeseries",
        unit: "percentunit",
        targets: [
          {
            expr: 'sum(rate(kubespaces_reconciles_total{result=~"retry|error"}[$__rate_interval])) / clamp_min(sum(rate(kubespaces_reconciles_total[$__rate_interval])), 1e-9)',
            legend: "failed",
          },
        ],
      },
      {
        title: "Pulumi operations, 95th percentile",
        description: "How long an up, preview or destroy of a tenant's stack took.",
        kind: "timeseries",
        unit: "s",
        targets: [{ expr: p95("kubespaces_pulumi_operation_duration_seconds", "operation"), legend: "{{operation}}" }],
      },
      {
        title: "Work queue",
        description: "Tenants in the replicas' queues by state, and the 95th percentile of their wait.",
        kind: "timeseries",
        unit: "short",
        targets: [
          { expr: "sum by (state) (kubespaces_reconcile_queue_depth)", legend: "{{state}}" },
          { expr: p95("kubespaces_reconcile_queue_wait_seconds", ""), legend: "wait p95 (s)" },
        ],
      },
    ],
  },
  {
    title: "Drift",
    panels: [
      {
        title: "Drift seen",
        description: "Tenants' host objects the drift watch saw changed or removed, by kind.",
        kind: "timeseries",
        unit: "ops",
        targets: [{ expr: "sum by (kind) (rate(kubespaces_drift_seen_total[$__rate_interval]))", legend: "{{kind}}" }],
      },
      {
        title: "Resyncs by outcome",
        description: "Resyncs of Ready tenants: clean, drifted (an update put the host back), unknown.",
        kind: "timeseries",
        unit: "ops",
        targets: [
          { expr: "sum by (outcome) (rate(kubespaces_resyncs_total[$__rate_interval]))", legend: "{{outcome}}" },
        ],
      },
    ],
  },
  {
    title: "Platform revision rollout",
    panels: [
      {
        title: "Tenants on the current revision",
        description: "Tenants that run the current platform revision, and all tenants.",
        kind: "timeseries",
        unit: "short",
        targets: [{ expr: "max by (state) (kubespaces_rollout_tenants)", legend: "{{state}}" }],
      },
      {
        title: "Waves",
        description: "The rollout's open wave (0: none open) and how many waves it has.",
        kind: "stat",
        unit: "short",
        targets: [{ expr: "max by (wave) (kubespaces_rollout_waves)", legend: "{{wave}}" }],
      },
      {
        title: "Rollout phase",
        description: "The phase the current revision's rollout is in (Halted: an admin resumes it).",
        kind: "stat",
        unit: "short",
        targets: [{ expr: "max by (phase) (kubespaces_rollout_phase) == 1", legend: "{{phase}}" }],
      },
    ],
  },
  {
    title: "Previews and the API",
    panels: [
      {
        title: "Previews",
        description: "Previews run on tenants' stacks per second (people's, the approval gate's and the fleet's).",
        kind: "timeseries",
        unit: "ops",
        targets: [
          {
            expr: 'sum(rate(kubespaces_pulumi_operation_duration_seconds_count{operation="preview"}[$__rate_interval]))',
            legend: "previews",
          },
        ],
      },
      {
        title: "Refused for load",
        description:
          "Requests a per-person limit refused (429), and answers 503 (a replica's previews all busy, or not ready).",
        kind: "timeseries",
        unit: "ops",
        targets: [
          { expr: "sum by (route) (rate(kubespaces_rate_limited_total[$__rate_interval]))", legend: "429 {{route}}" },
          {
            expr: 'sum by (route) (rate(kubespaces_http_requests_total{status="503"}[$__rate_interval]))',
            legend: "503 {{route}}",
          },
        ],
      },
      {
        title: "API answers by status",
        description: "HTTP answers of the API, portal and sign-in per second, by status code.",
        kind: "timeseries",
        unit: "ops",
        targets: [
          { expr: "sum by (status) (rate(kubespaces_http_requests_total[$__rate_interval]))", legend: "{{status}}" },
        ],
      },
      {
        title: "API latency, 95th percentile",
        description: "How long the slowest routes take to answer.",
        kind: "timeseries",
        unit: "s",
        targets: [{ expr: p95("kubespaces_http_request_duration_seconds", "route"), legend: "{{route}}" }],
      },
    ],
  },
];

/** The dashboard's JSON model (Grafana's schema 39). */
export function grafanaDashboard(): Record<string, unknown> {
  let id = 0;
  let y = 0;
  const panels: Record<string, unknown>[] = [];
  for (const row of DASHBOARD_ROWS) {
    panels.push({
      type: "row",
      id: ++id,
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: GRID_WIDTH, x: 0, y },
    });
    y += 1;
    const width = Math.floor(GRID_WIDTH / row.panels.length);
    row.panels.forEach((panel, index) => {
      panels.push(panelModel(panel, ++id, { h: PANEL_HEIGHT, w: width, x: index * width, y }));
    });
    y += PANEL_HEIGHT;
  }
  return {
    title: "kubespaces server",
    uid: "kubespaces-server",
    description:
      "kubespaces server's metrics (docs/self-service.md, Operating the server). Generated by npm run generate.",
    tags: ["kubespaces"],
    schemaVersion: 39,
    editable: true,
    refresh: "30s",
    time: { from: "now-6h", to: "now" },
    templating: {
      list: [{ name: "datasource", label: "Prometheus", type: "datasource", query: "prometheus" }],
    },
    panels,
  };
}

function panelModel(panel: PanelSpec, id: number, gridPos: Record<string, number>): Record<string, unknown> {
  return {
    type: panel.kind,
    id,
    title: panel.title,
    description: panel.description,
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: { defaults: { unit: panel.unit }, overrides: [] },
    targets: panel.targets.map((target, index) => ({
      datasource: DATASOURCE,
      refId: String.fromCharCode(65 + index),
      expr: target.expr,
      legendFormat: target.legend,
    })),
  };
}

/** The file `npm run generate` writes. */
export function grafanaDashboardFile(): { readonly path: string; readonly content: string } {
  return { path: GRAFANA_DASHBOARD_FILE, content: `${JSON.stringify(grafanaDashboard(), null, 2)}\n` };
}
