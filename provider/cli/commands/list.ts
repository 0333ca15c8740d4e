/**
 * `kubespaces tenant list [--all]`: the tenants you own, or every tenant. Through a server whose
 * platform caps what one person holds, the table is followed on stderr by your use against them.
 */
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { isTable } from "../formatOutput";
import { tenantsText, type ReadOptions } from "../tenantPrint";
import { shownLine } from "../../util/terminalText";
import { capsUseText } from "../../tenants/ownerCaps";
import type { OwnerCapsBody } from "../../contracts/tenantsApi";

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
  if (isTable(options.output) && door.caps) await printCapsUse(env, door.caps);
  return EXIT.ok;
}

/**
 * Your use against the platform's caps per owner, on stderr, when it sets any. A hint, not the
 * listing: a server too old to answer it leaves the line out, and the list still succeeds.
 */
async function printCapsUse(env: CommandEnv, caps: () => Promise<OwnerCapsBody>): Promise<void> {
  const answer = await caps().catch(() => undefined);
  const parts = answer ? capsUseText(answer.caps, answer.use) : [];
  if (parts.length) env.stderr.write(`your use against the platform's caps: ${parts.join(", ")}\n`);
}
