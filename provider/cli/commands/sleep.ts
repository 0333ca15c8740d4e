/**
 * `kubespaces tenant sleep NAME` and `tenant wake NAME`, through a kubespaces server: the tenant's
 * request's `sleep` changes (a new generation), and the server scales its control plane and synced
 * pods to zero, or back. Its data and its kubeconfig stay; `tenant get NAME --wait` follows it to
 * Sleeping, or back to Ready.
 */
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import type { OutputFormat } from "../formatOutput";
import { tenantText } from "../tenantPrint";

/** `sleep`'s and `wake`'s options. */
export interface SleepOptions {
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
  const tenant = await door.setSleep(name, asleep);
  const goal = asleep ? "Sleeping" : "Ready";
  env.stderr.write(
    `tenant ${name}: generation ${tenant.metadata.generation} asks for sleep: ${asleep}; the server brings it to ${goal}. Follow it with: kubespaces tenant get ${name} --wait\n`,
  );
  env.stdout.write(tenantText(tenant, options.output));
  return EXIT.ok;
}
