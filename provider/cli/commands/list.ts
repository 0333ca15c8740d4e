/** `kubespaces tenant list [--all]`: the tenants you own (their request's owner is you), or every tenant. */
import { commandContext, phaseSources, readPlace } from "../commandContext";
import { EXIT } from "../exitCodes";
import { formatRows, type Column } from "../formatOutput";
import { tenantRows, type TenantRow } from "../tenantPhases";
import type { ReadOptions } from "./shared";

/** `list`'s options. */
export interface ListOptions extends ReadOptions {
  /** Every tenant, not only yours. */
  readonly all?: boolean;
}

const LIST_COLUMNS: readonly Column<TenantRow>[] = [
  { heading: "NAME", value: (r) => r.name },
  { heading: "OWNER", value: (r) => r.owner },
  { heading: "PHASE", value: (r) => r.phase },
  { heading: "API", value: (r) => r.api },
];

/** Runs `list`. */
export async function listTenants(options: ListOptions): Promise<number> {
  const format = options.output;
  const context = commandContext();
  const rows = tenantRows(await phaseSources(context, readPlace(context))).filter((row) => options.all || row.owner === context.user);
  if (rows.length === 0 && format === "table") process.stderr.write(options.all ? "no tenants\n" : `no tenants owned by ${context.user} (--all shows every tenant)\n`);
  else process.stdout.write(formatRows(rows, LIST_COLUMNS, format));
  return EXIT.ok;
}
