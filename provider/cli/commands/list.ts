/** `kubespaces tenant list [--all]`: the tenants you own, or every tenant. */
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { isTable } from "../formatOutput";
import { tenantsText, type ReadOptions } from "../tenantPrint";
import { shownLine } from "../../util/terminalText";

/** `list`'s options. */
export interface ListOptions extends ReadOptions, HostNaming {
  /** Every tenant, not only yours. */
  readonly all?: boolean;
}

/** Runs `list`. */
export async function listTenants(env: CommandEnv, options: ListOptions): Promise<number> {
  const door = await env.door(options);
  const { actor } = door;
  const tenants = await door.tenants.list(actor, { all: options.all });
  const note = door.listNote?.();
  if (note) env.stderr.write(`${note}\n`);
  if (tenants.length === 0 && isTable(options.output)) {
    env.stderr.write(
      options.all ? "no tenants\n" : `no tenants owned by ${shownLine(actor.owner)} (--all shows every tenant)\n`,
    );
  } else {
    env.stdout.write(tenantsText(tenants, options.output));
  }
  return EXIT.ok;
}
