/**
 * `kubespaces tenant snapshot NAME` and `tenant restore NAME --from SNAPSHOT`, through a kubespaces
 * server: each asks the server (the Tenant's annotation), which has vCluster take the snapshot
 * into the platform's store and list it in the tenant's `status.snapshots`, or brings the tenant's
 * control plane down, writes the snapshot back and brings it up again. Only the tenant's owner's
 * snapshots are found. `tenant get NAME -o yaml` shows the outcome; Events say why one failed.
 * `restore` follows the tenant until the server has served it (`status.restoredFrom`) and the tenant
 * is Ready again (`--timeout` bounds the wait; `--wait=false` returns at once).
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import type { OutputFormat } from "../formatOutput";
import { isSettled } from "../../tenants/tenantObject";
import { tenantText } from "../tenantPrint";
import type { ShownTenant, TenantsDoor } from "../tenantsDoor";
import { awaitChange, checkNoWait, failedError, type WaitOptions } from "../tenantWait";

/** `snapshot`'s options. */
export interface SnapshotOptions {
  /** How to print the tenant after the ask. */
  readonly output: OutputFormat;
}

/** `restore`'s options. */
export interface RestoreOptions extends SnapshotOptions, WaitOptions {
  /** The snapshot's name, as the tenant's `status.snapshots` lists it. */
  readonly from: string;
}

/** Runs `snapshot`. */
export async function snapshotTenant(env: CommandEnv, name: string, options: SnapshotOptions): Promise<number> {
  const snapshots = serverSnapshots(await env.door(), "snapshot", name);
  const tenant = await snapshots.take(name);
  env.stderr.write(
    `tenant ${name}: a snapshot was asked for; the server lists it in status.snapshots once vCluster took it (kubespaces tenant get ${name} -o yaml; kubectl describe tenant ${name} says why one failed)\n`,
  );
  env.stdout.write(tenantText(tenant, options.output));
  return EXIT.ok;
}

/** Runs `restore`. */
export async function restoreTenant(env: CommandEnv, name: string, options: RestoreOptions): Promise<number> {
  const door = await env.door();
  const snapshots = serverSnapshots(door, "restore", name);
  if (!options.wait) checkNoWait(options);
  const asked = await snapshots.restore(name, options.from);
  const served = (tenant: ShownTenant) => restoredFrom(tenant) === options.from && isSettled(tenant);
  env.stderr.write(
    `tenant ${name}: a restore from ${options.from} was asked for; the server brings its control plane down, writes the snapshot back and brings it up again (status.restoredFrom names it once done)${options.wait ? "" : `. Follow it with: kubespaces tenant get ${name} --watch`}\n`,
  );
  const tenant = options.wait
    ? await awaitChange(env, door, name, served, `restored from ${options.from}`, options)
    : asked;
  env.stdout.write(tenantText(tenant, options.output));
  if (tenant.status.phase === "Failed") throw failedError(name, tenant);
  // The status names the restore served, not whether it worked: only the tenant's Events say.
  if (options.wait)
    env.stderr.write(
      `tenant ${name}: the server served the restore from ${options.from}; whether it worked, its Events say (kubectl describe tenant ${name})\n`,
    );
  return EXIT.ok;
}

/** The restore the server served last, on a server's tenant. */
const restoredFrom = (tenant: ShownTenant): string | undefined =>
  (tenant.status as { restoredFrom?: string }).restoredFrom;

function serverSnapshots(door: TenantsDoor, verb: string, name: string): NonNullable<TenantsDoor["snapshots"]> {
  if (door.snapshots) return door.snapshots;
  throw new CliError(
    `\`tenant ${verb}\` of tenant ${name} needs a kubespaces server (kubespaces login --server URL): its snapshots go to the store the server is configured with`,
    EXIT.invalid,
  );
}
