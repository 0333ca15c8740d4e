/** What the tenant commands print: a tenant's row, a preview's steps, an engine error in brief. */
import { commandContext, phaseSources, readPlace, rowOf, type CommandContext } from "../commandContext";
import { CliError, EXIT } from "../exitCodes";
import { formatRows, outputFormat, type Column } from "../formatOutput";
import type { ProgressDisplay } from "../progressDisplay";
import type { TenantRow } from "../tenantPhases";
import type { ResourceStep } from "../tenantsUpdate";
import { engineErrorSummary } from "../engineErrors";

export { engineErrorSummary };

/** `--output`, on every command that prints tenants. */
export interface ReadOptions {
  readonly output: string;
}

/** The `get` table: the operator's NAME / PHASE / API. */
export const TENANT_COLUMNS: readonly Column<TenantRow>[] = [
  { heading: "NAME", value: (r) => r.name },
  { heading: "PHASE", value: (r) => r.phase },
  { heading: "API", value: (r) => r.api },
];

/** The exit code a tenant's phase means for a command that waited for it. */
export function exitCodeOf(row: TenantRow): number {
  return row.phase === "Failed" ? EXIT.failed : EXIT.ok;
}

/**
 * Prints tenant `name` as it is now and returns the command's exit code: Failed exits 3 with its
 * message; an update that failed without a word about this tenant prints the engine's error.
 */
export async function printTenant(context: CommandContext, name: string, options: ReadOptions, display: ProgressDisplay, outcome: { failure?: unknown } = {}): Promise<number> {
  const row = rowOf(name, await phaseSources(context, readPlace(context)));
  display.close();
  if (row) process.stdout.write(formatRows([row], TENANT_COLUMNS, outputFormat(options.output), row));
  if (row?.phase === "Failed") {
    process.stderr.write(`tenant ${name} failed: ${row.message}\n`);
    return EXIT.failed;
  }
  if (outcome.failure !== undefined) {
    process.stderr.write(`the update of the tenants stack failed:\n${engineErrorSummary(outcome.failure)}\n`);
    return EXIT.error;
  }
  return row ? exitCodeOf(row) : EXIT.notFound;
}

/** A preview's steps, one line each, and a count. */
export function printPreview(title: string, steps: readonly ResourceStep[]): void {
  const symbol: Record<string, string> = { create: "+", delete: "-", update: "~", replace: "+-", "create-replacement": "++", "delete-replaced": "--" };
  const lines = steps
    .filter((s) => s.type !== "pulumi:pulumi:Stack" && !s.type.startsWith("pulumi:providers:"))
    .map((s) => `  ${(symbol[s.op] ?? "?").padEnd(2)} ${s.op.padEnd(8)} ${s.type.padEnd(44)} ${s.name}${s.diffs.length > 0 ? `  (${s.diffs.join(", ")})` : ""}`);
  process.stdout.write(`${title}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}${lines.length} change(s)\n`);
}

/** Throws the not-found error for tenant `name`. */
export function notFound(name: string): never {
  throw new CliError(`tenant ${name} not found (\`kubespaces tenant list --all\` shows every tenant)`, EXIT.notFound);
}

export { commandContext };
