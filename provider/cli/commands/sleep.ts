/**
 * `kubespaces tenant sleep NAME` and `tenant wake NAME`, through a kubespaces server: the tenant's
 * request's `sleep` changes (a new generation), and the server scales its control plane and synced
 * pods to zero, or back. Its data and its kubeconfig stay. The command follows the tenant until it
 * is Sleeping, or Ready again (`--timeout` bounds the wait; `--wait=false` returns at once).
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import type { OutputFormat } from "../formatOutput";
import { isSettled } from "../../tenants/tenantObject";
import { tenantText } from "../tenantPrint";
import { awaitChange, checkNoWait, failedError, type WaitOptions } from "../tenantWait";

/** `sleep`'s and `wake`'s options. */
export interface SleepOptions extends WaitOptions {
  /** How to print the tenant after the change. */
  readonly output: OutputFormat;
}

/** Runs `sleep`. */
export const sleepTenant = (env: CommandEnv, name: string, options: SleepOptions): Promise<number> =>
  setSleep(env, name, true, options);

/** Runs `wake`. */
export const wakeTenant = (env: CommandEnv, name: string, options: SleepOptions): Promise<number> =>
  setSleep(env, name, false, options);

async function setSleep(env: CommandEnv, name: string, asleep: boolean, options: SleepOptions): Promise<number> {
  const door = await env.door();
  const verb = asleep ? "sleep" : "wake";
  if (!door.setSleep)
    throw new CliError(
      `\`tenant ${verb}\` changes tenant ${name}'s request, which only a kubespaces server does (kubespaces login --server URL); a Pulumi program sets the Tenant's \`sleep\` input instead`,
      EXIT.invalid,
    );
  if (!options.wait) checkNoWait(options);
  const asked = await door.setSleep(name, asleep);
  const goal = asleep ? "Sleeping" : "Ready";
  const follow = options.wait ? "" : `. Follow it with: kubespaces tenant get ${name} --wait`;
  env.stderr.write(
    `tenant ${name}: generation ${asked.metadata.generation} asks for sleep: ${asleep}; the server brings it to ${goal}${follow}\n`,
  );
  const tenant = options.wait ? await awaitChange(env, door, name, isSettled, goal, options) : asked;
  env.stdout.write(tenantText(tenant, options.output));
  if (tenant.status.phase === "Failed") throw failedError(name, tenant);
  return EXIT.ok;
}
