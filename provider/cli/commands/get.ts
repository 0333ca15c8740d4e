/**
 * `kubespaces tenant get NAME [--wait]`: the tenant's NAME / PHASE / API. With `--wait`, follows a
 * running update's events for it (Pending -> Provisioning -> Ready, or Failed with the message),
 * as they are journaled, and exits 3 on Failed.
 */
import { commandContext, phaseSources, readPlace, rowOf } from "../commandContext";
import { CliError, EXIT } from "../exitCodes";
import { formatRows, outputFormat } from "../formatOutput";
import { progressDisplay } from "../progressDisplay";
import { activeJournals, followTenant } from "../runJournal";
import { exitCodeOf, notFound, TENANT_COLUMNS, type ReadOptions } from "./shared";

/** `get`'s options. */
export interface GetOptions extends ReadOptions {
  readonly wait?: boolean;
}

const SETTLED = new Set(["Ready", "Failed", "Deleted"]);

/** Runs `get`. */
export async function getTenant(name: string, options: GetOptions): Promise<number> {
  const format = outputFormat(options.output);
  const context = commandContext();
  const place = readPlace(context);
  let row = rowOf(name, await phaseSources(context, place));
  if (!row) notFound(name);
  if (options.wait && !SETTLED.has(row.phase)) {
    const display = progressDisplay();
    display.tenant({ name, phase: row.phase });
    if (activeJournals(context.runs).length === 0) {
      display.close();
      throw new CliError(`tenant ${name} is ${row.phase} and no update is running to change that: ${row.message ?? ""}`.trim(), EXIT.error);
    }
    await followTenant(context.runs, name, (event) => display.tenant(event));
    row = rowOf(name, await phaseSources(context, place)) ?? notFound(name);
    display.close();
  }
  process.stdout.write(formatRows([row], TENANT_COLUMNS, format, row));
  if (row.phase === "Failed") process.stderr.write(`tenant ${name} failed: ${row.message}\n`);
  if (options.wait && row.phase !== "Ready" && row.phase !== "Failed") {
    process.stderr.write(`tenant ${name} is ${row.phase}: ${row.message ?? ""}\n`);
    return EXIT.error;
  }
  return exitCodeOf(row);
}
