/**
 * `kubespaces tenant delete NAME`: the tenants service tears the tenant's stack down completely (in
 * the edge table's order, objects outside its namespace included) and removes its request; the
 * kubeconfig context `kubeconfig --merge` added for it is removed too. `--preview` prints the steps
 * (local mode only). Through a server, the server tears it down and the command follows until it is
 * gone, or, with `--wait=false`, returns once the teardown is asked for. `--timeout` bounds the wait.
 */
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { operationOptions } from "../interrupts";
import { forgetMergedContext } from "../../kubeconfig/mergedContexts";
import { printPreview } from "../printPreview";
import { deletedText } from "../tenantPrint";
import type { TenantsDoor } from "../tenantsDoor";
import { asksOf, startWait, timedOut, type WaitOptions } from "../tenantWait";

/** `delete`'s options. */
export interface DeleteOptions extends WaitOptions, HostNaming {
  /** Only show what would be removed. */
  readonly preview?: boolean;
  /** Seconds to wait for another update's stack lock. */
  readonly lockTimeout: number;
}

/** Runs `delete`. */
export async function deleteTenant(env: CommandEnv, name: string, options: DeleteOptions): Promise<number> {
  const door = await env.door(options);
  const { tenants, actor } = door;
  if (options.preview) return printPreview(env, door.previews, actor, name, undefined, options.lockTimeout * 1000);
  const asks = options.wait ? undefined : asksOf(door, name, options);
  // Read before the teardown: the merged entries are matched on the tenant's namespace too.
  const namespace = (await tenants.get(name, actor).catch(() => undefined))?.status.namespace;
  if (asks) {
    await asks.delete(name);
    env.stdout.write(`tenant ${name} deletion asked of ${door.server}\n`);
    env.stderr.write(
      `the server tears tenant ${name} down: follow it with \`kubespaces tenant get ${name} -w\` (it ends once the tenant is gone)\n`,
    );
  } else await tearDown(env, door, name, options);
  const forgotten = forgetMergedContext(name, namespace);
  if (forgotten) env.stderr.write(`${forgotten}\n`);
  return EXIT.ok;
}

/** Tears the tenant down and follows it until it is gone, or past `--timeout`. */
async function tearDown(env: CommandEnv, door: TenantsDoor, name: string, options: DeleteOptions): Promise<void> {
  const again = `run \`kubespaces tenant delete ${name}\` again to finish the teardown`;
  const wait = startWait(env, door, again, options);
  try {
    const operation = operationOptions(wait.display, wait.interrupts, options.lockTimeout * 1000);
    const result = await door.tenants.delete(name, door.actor, operation);
    wait.close();
    env.stdout.write(deletedText(name, result));
  } catch (error) {
    if (wait.timedOut())
      throw timedOut(door, name, `the teardown of tenant ${name} has not finished`, options.timeout!, again);
    throw error;
  } finally {
    wait.close();
  }
}
