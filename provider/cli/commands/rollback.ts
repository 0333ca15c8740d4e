/**
 * `kubespaces tenant rollback NAME --to VERSION`: puts the request that update VERSION of the
 * tenant ran (`tenant history NAME`) back as the tenant's request, through a kubespaces server. It
 * is a change like any other: a new generation, which the server previews, holds for approval where
 * the platform requires it, and provisions; `tenant get NAME --wait` follows it.
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import type { OutputFormat } from "../formatOutput";
import { tenantText } from "../tenantPrint";

/** `rollback`'s options. */
export interface RollbackOptions {
  /** The update whose request goes back (its VERSION in `tenant history`). */
  readonly to: string;
  /** How to print the tenant after the change. */
  readonly output: OutputFormat;
}

/** Runs `rollback`. */
export async function rollbackTenant(env: CommandEnv, name: string, options: RollbackOptions): Promise<number> {
  const version = Number(options.to);
  if (!Number.isInteger(version) || version < 1)
    throw new CliError(
      `--to must be an update's VERSION from \`kubespaces tenant history ${name}\` (got "${options.to}")`,
      EXIT.invalid,
    );
  const door = await env.door();
  if (!door.rollback)
    throw new CliError(
      `a rollback changes tenant ${name}'s request, which only a kubespaces server does (kubespaces login --server URL); here, delete the tenant and create it with the request \`kubespaces tenant history ${name} -o yaml\` shows`,
      EXIT.invalid,
    );
  const tenant = await door.rollback(name, version);
  env.stderr.write(
    `tenant ${name}: generation ${tenant.metadata.generation} asks again for the request of update ${version}; the server previews it (and holds it for approval where the platform requires it). Follow it with: kubespaces tenant get ${name} --wait\n`,
  );
  env.stdout.write(tenantText(tenant, options.output));
  return EXIT.ok;
}
