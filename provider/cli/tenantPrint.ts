/**
 * How the tenant commands print tenants (the operator's columns) and a run's resource steps; what
 * a server or the engine wrote is shown one line per item, its control characters made visible.
 */
import { TENANT_MANIFEST } from "../contracts/tenantManifest";
import type { ResourceStep } from "../tenants/tenantObject";
import { planSummary, type ChangePlan } from "../tenants/tenantPlan";
import { formatted, type Column, type OutputFormat } from "./formatOutput";
import type { DeleteOutcome, ShownTenant } from "./tenantsDoor";
import { shownLine } from "../util/terminalText";
import { AWAKE_WINDOW_DAYS, type AwakeTime } from "../tenants/awakeTime";
import type { QuotaUsage } from "../tenantResource/tenantReplies";

/** `--output`, on every command that prints tenants. */
export interface ReadOptions {
  /** How to print the result. */
  readonly output: OutputFormat;
}

const owner = (t: ShownTenant): string | undefined => (t.spec as { owner?: string }).owner;

/** The `get` table: the operator's NAME / PHASE / API. */
const GET_COLUMNS: readonly Column<ShownTenant>[] = [
  { heading: "NAME", value: (t) => t.metadata.name },
  { heading: "PHASE", value: (t) => t.status.phase },
  { heading: "API", value: (t) => t.status.apiServerUrl },
];

/** The `list` table: NAME / OWNER / PHASE / API. */
const LIST_COLUMNS: readonly Column<ShownTenant>[] = [
  GET_COLUMNS[0],
  { heading: "OWNER", value: owner },
  GET_COLUMNS[1],
  GET_COLUMNS[2],
];

/** What a server's tenant's status adds to the service's, read where a tenant has it. */
type ServerStatus = { readonly platformRevision?: string; readonly expiry?: { readonly expiresAt?: string } };

/**
 * When the tenant is deleted: the expiry in force (the running generation's, `status.expiry`), or,
 * before any generation ran, the request's.
 */
function expiresAt(t: ShownTenant): string | undefined {
  const { expiry } = t.status as ServerStatus;
  return expiry ? expiry.expiresAt : (t.spec as { expiresAt?: string }).expiresAt;
}

/** What `-o wide` adds: the host namespace, the platform revision it runs with, and its expiry. */
const WIDE_COLUMNS: readonly Column<ShownTenant>[] = [
  { heading: "NAMESPACE", value: (t) => t.status.namespace },
  { heading: "REVISION", value: (t) => (t.status as ServerStatus).platformRevision },
  { heading: "EXPIRES", value: expiresAt },
];

/** What `get -o wide` reads beside the tenant: its cost. */
export interface TenantCost {
  /** Its host quota; none while its namespace has none. */
  readonly quota?: QuotaUsage;
  /** Its awake time over the last days (tenants/awakeTime.ts). */
  readonly awake: AwakeTime;
}

/** The quota's resources `get -o wide` shows, as used/ceiling: what the host sets aside for the tenant. */
const QUOTA_COLUMNS = [
  ["CPU", "requests.cpu"],
  ["MEMORY", "requests.memory"],
  ["STORAGE", "requests.storage"],
] as const;

/** What `get -o wide` adds after those: the quota's use against each ceiling, and the hours awake in the last 30 days. */
function costColumns(cost: TenantCost): Column<ShownTenant>[] {
  const { quota } = cost;
  return [
    ...QUOTA_COLUMNS.map(([heading, resource]) => ({
      heading,
      value: () => quota?.hard[resource] && `${quota.used[resource] ?? "0"}/${quota.hard[resource]}`,
    })),
    { heading: `AWAKE(${AWAKE_WINDOW_DAYS}D)`, value: () => `${cost.awake.hours}h` },
  ];
}

/** One tenant in `format`; `cost`, when given (get's), adds its quota use and awake time to `wide`. */
export function tenantText(tenant: ShownTenant, format: OutputFormat, cost?: TenantCost): string {
  return formatted(
    {
      rows: [tenant],
      columns: GET_COLUMNS,
      wideColumns: [...GET_COLUMNS, ...WIDE_COLUMNS, ...(cost ? costColumns(cost) : [])],
      document: tenant,
      names: [`tenant/${tenant.metadata.name}`],
    },
    format,
  );
}

/** Tenants in `format`; JSON and YAML print a list object, as `kubectl get -o json` does. */
export function tenantsText(tenants: readonly ShownTenant[], format: OutputFormat): string {
  const document = { apiVersion: TENANT_MANIFEST.apiVersion, kind: `${TENANT_MANIFEST.kind}List`, items: tenants };
  return formatted(
    {
      rows: tenants,
      columns: LIST_COLUMNS,
      wideColumns: [...LIST_COLUMNS, ...WIDE_COLUMNS],
      document,
      names: tenants.map((t) => `tenant/${t.metadata.name}`),
    },
    format,
  );
}

/** The symbol of each step, as `pulumi preview` shows them. */
const STEP_SYMBOLS: Readonly<Record<string, string>> = {
  create: "+",
  delete: "-",
  update: "~",
  replace: "+-",
  "create-replacement": "++",
  "delete-replaced": "--",
};

/** A preview's plan: each step that changes something, one line each, and the counts by kind. */
export function previewText(title: string, plan: ChangePlan): string {
  const lines = plan.steps.map((s) =>
    shownLine(
      `  ${(STEP_SYMBOLS[s.op] ?? "?").padEnd(2)} ${s.op.padEnd(8)} ${s.type.padEnd(44)} ${s.name}${s.diffs.length > 0 ? `  (${s.diffs.join(", ")})` : ""}`,
    ),
  );
  return `${title}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}${planSummary(plan)}\n`;
}

/** What a delete did, for people. */
export function deletedText(name: string, outcome: DeleteOutcome): string {
  if ("deletedBy" in outcome)
    return `tenant ${name} deleted by ${shownLine(outcome.deletedBy)}: its namespace and everything in it are removed\n`;
  if (outcome.withdrawn) return `tenant ${name} deleted: it was never provisioned, and its request is removed\n`;
  return removedText(name, outcome.removed);
}

/** What a teardown removed, for people. */
function removedText(name: string, removed: readonly ResourceStep[]): string {
  if (removed.length === 0) return `tenant ${name} deleted (nothing of it was left to remove)\n`;
  const lines = removed.map((s) => shownLine(`  - ${s.type.split(":").pop()} ${s.name}`)).join("\n");
  return `tenant ${name} deleted: ${removed.length} resource(s) removed, its namespace and everything in it included:\n${lines}\n`;
}
