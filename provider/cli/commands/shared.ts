/** What the tenant commands print: a tenant's row and the exit code it means, and a preview's steps. */
import { phaseSources, readPlace, rowOf, type CommandContext } from "../commandContext";
import { engineErrorSummary } from "../engineErrors";
import { EXIT } from "../exitCodes";
import { formatRows, type Column, type OutputFormat } from "../formatOutput";
import type { ProgressDisplay } from "../progressDisplay";
import { isProviderType } from "../tenantEvents";
import type { TenantRow } from "../tenantPhases";
import type { ResourceStep } from "../tenantsUpdate";

/** `--output`, on every command that prints tenants. */
export interface ReadOptions {
  /** How to print the result. */
  readonly output: OutputFormat;
}

/** The `get` table: the operator's NAME / PHASE / API. */
const TENANT_COLUMNS: readonly Column<TenantRow>[] = [
  { heading: "NAME", value: (r) => r.name },
  { heading: "PHASE", value: (r) => r.phase },
  { heading: "API", value: (r) => r.api },
];

/**
 * Prints `row` (stdout) and, when it is Failed, its reason (stderr); returns the exit code:
 * 3 for Failed, 1 when `mustBeReady` and it is not Ready, else 0.
 */
export function printRow(row: TenantRow, options: ReadOptions, mustBeReady: boolean): number {
  process.stdout.write(formatRows([row], TENANT_COLUMNS, options.output, row));
  if (row.phase === "Failed") {
    process.stderr.write(`tenant ${row.name} failed: ${row.message}\n`);
    return EXIT.failed;
  }
  if (mustBeReady && row.phase !== "Ready") {
    process.stderr.write(`tenant ${row.name} is ${row.phase}: ${row.message ?? ""}\n`);
    return EXIT.error;
  }
  return EXIT.ok;
}

/**
 * After a create's update: prints tenant `name` as the state and journals have it and returns the
 * exit code; an update that failed without a word about this tenant prints the engine's error.
 */
export async function printCreated(context: CommandContext, name: string, options: ReadOptions, display: ProgressDisplay, failure?: unknown): Promise<number> {
  const row = rowOf(name, await phaseSources(context, readPlace(context)));
  display.close();
  if (row?.phase !== "Failed" && failure !== undefined) {
    process.stderr.write(`the update of the tenants stack failed:\n${engineErrorSummary(failure)}\n`);
    if (row) process.stdout.write(formatRows([row], TENANT_COLUMNS, options.output, row));
    return EXIT.error;
  }
  return row ? printRow(row, options, true) : EXIT.notFound;
}

/** A preview's steps, one line each, and a count. */
export function printPreview(title: string, steps: readonly ResourceStep[]): void {
  const symbol: Record<string, string> = { create: "+", delete: "-", update: "~", replace: "+-", "create-replacement": "++", "delete-replaced": "--" };
  const lines = steps
    .filter((s) => s.type !== "pulumi:pulumi:Stack" && !isProviderType(s.type))
    .map((s) => `  ${(symbol[s.op] ?? "?").padEnd(2)} ${s.op.padEnd(8)} ${s.type.padEnd(44)} ${s.name}${s.diffs.length > 0 ? `  (${s.diffs.join(", ")})` : ""}`);
  process.stdout.write(`${title}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}${lines.length} change(s)\n`);
}
