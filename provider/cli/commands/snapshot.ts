/**
 * `kubespaces tenant snapshot NAME` and `tenant restore NAME --from SNAPSHOT`, through a kubespaces
 * server: each asks the server (the Tenant's annotation), which has vCluster take the snapshot
 * into the platform's store and list it in the tenant's `status.snapshots`, or brings the tenant's
 * control plane down, writes the snapshot back and brings it up again. Only the tenant's owner's
 * snapshots are found. `tenant get NAME -o yaml` shows the outcome; Events say why one failed.
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import type { OutputFormat } from "../formatOutput";
import { tenantText } from "../tenantPrint";
import type { TenantsDoor } from "../tenantsDoor";

/** `snapshot`'s options. */
export interface SnapshotOptions {
  /** How to print the tenant after the ask. */
  readonly output: OutputFormat;
}

/** `restore`'s options. */
export interface RestoreOptions extends SnapshotOptions {
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
  const snapshots = serverSnapshots(await env.door(), "restore", name);
  const tenant = await snapshots.restore(name, options.from);
  env.stderr.write(
    `tenant ${name}: a restore from ${options.from} was asked for; the server brings its control plane down, writes the snapshot back and brings it up again (status.restoredFrom names it once done). Follow it with: kubespaces tenant get ${name} --watch\n`,
  );
  env.stdout.write(tenantText(tenant, options.output));
  return EXIT.ok;
}

function serverSnapshots(door: TenantsDoor, verb: string, name: string): NonNullable<TenantsDoor["snapshots"]> {
  if (door.snapshots) return door.snapshots;
  throw new CliError(
    `\`tenant ${verb}\` of tenant ${name} needs a kubespaces server (kubespaces login --server URL): its snapshots go to the store the server is configured with`,
    EXIT.invalid,
  );
}
