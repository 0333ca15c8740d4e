/**
 * `kubespaces tenant get NAME [--wait]`: the tenant's NAME / PHASE / API. With `--wait`, follows the
 * running updates' events for it (Pending -> Provisioning -> Ready, or Failed with the message), as
 * they are journaled, and exits 3 on Failed.
 */
import { commandContext, phaseSources, readPlace, rowOf } from "../commandContext";
import { CliError, EXIT, tenantNotFound } from "../exitCodes";
import { progressDisplay } from "../progressDisplay";
import { activeJournals, followTenant } from "../runJournal";
import { printRow, type ReadOptions } from "./shared";

/** `get`'s options. */
export interface GetOptions extends ReadOptions {
  /** Follow the running updates until the tenant is Ready or Failed. */
  readonly wait?: boolean;
}

/** Runs `get`. */
export async function getTenant(name: string, options: GetOptions): Promise<number> {
  const context = commandContext();
  const place = readPlace(context);
  let row = rowOf(name, await phaseSources(context, place));
  if (!row) throw tenantNotFound(name);
  if (options.wait && row.phase !== "Ready" && row.phase !== "Failed") {
    if (activeJournals(context.runs).length === 0) {
      throw new CliError(`tenant ${name} is ${row.phase} and no update is running to change that: ${row.message ?? ""}`, EXIT.error);
    }
    const display = progressDisplay();
    display.tenant({ name, phase: row.phase });
    await followTenant(context.runs, name, (event) => display.tenant(event));
    display.close();
    row = rowOf(name, await phaseSources(context, place));
    if (!row) throw tenantNotFound(name);
  }
  return printRow(row, options, options.wait === true);
}
