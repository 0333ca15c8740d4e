/**
 * `kubespaces tenant get NAME`: the tenant's NAME / PHASE / API (`-o wide` adds its namespace,
 * platform revision and expiry, its quota's use and its awake hours in the last 30 days); a Failed
 * tenant exits 3 with its reason, and a Ready one that is not exposed says on stderr how to reach
 * it (tenants/tenantReach.ts).
 * `--wait` follows its running run until it is Ready or Failed. `-w/--watch` prints it again at
 * each phase change and goes on following it, runs started later included, until Ctrl-C (exit 130)
 * or its deletion, as `kubectl get -w` does. Ctrl-C ends either, and a run goes on.
 */
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import { watchInterrupts } from "../interrupts";
import { progressDisplay } from "../progressDisplay";
import { isSettled } from "../../tenants/tenantObject";
import { awakeTime } from "../../tenants/awakeTime";
import { TenantNotFoundError } from "../../tenants/tenantsErrors";
import { reachHint } from "../../tenants/tenantReach";
import { isTable } from "../formatOutput";
import { tenantText, type ReadOptions, type TenantCost } from "../tenantPrint";
import type { ShownTenant, TenantsDoor } from "../tenantsDoor";
import { failedError } from "../tenantWait";

/** `get`'s options. */
export interface GetOptions extends ReadOptions, HostNaming {
  /** Follow the running run until the tenant is Ready or Failed. */
  readonly wait?: boolean;
  /** Print the tenant again at each phase change, until Ctrl-C or its deletion. */
  readonly watch?: boolean;
}

const settled = (tenant: ShownTenant) => isSettled(tenant);

/** Runs `get`. */
export async function getTenant(env: CommandEnv, name: string, options: GetOptions): Promise<number> {
  const door = await env.door(options);
  const { tenants, actor } = door;
  let tenant = await tenants.get(name, actor);
  if (options.watch) return watch(env, door, name, tenant, options);
  if (options.wait && !settled(tenant)) {
    const display = progressDisplay(env.stderr);
    try {
      display.tenant({ name, phase: tenant.status.phase });
      for await (const event of tenants.watch(name, actor)) display.tenant(event);
    } finally {
      display.close();
    }
    tenant = await tenants.get(name, actor);
    if (!settled(tenant)) {
      env.stdout.write(tenantText(tenant, options.output));
      throw new CliError(
        `tenant ${name} is ${tenant.status.phase} and no run is going to change that: ${tenant.status.message}`,
        EXIT.error,
      );
    }
  }
  const cost = options.output === "wide" ? await costOf(door, name) : undefined;
  env.stdout.write(tenantText(tenant, options.output, cost));
  // Hints go to stderr, and only beside the table: its API column is an unexposed tenant's in-cluster URL.
  if (isTable(options.output)) env.stderr.write(reachHint(name, tenant.status, door.localEndpoint !== undefined));
  // Its reason is printed, and mapped to its exit code, as every error is (runCli.ts).
  if (tenant.status.phase === "Failed") throw failedError(name, tenant);
  return EXIT.ok;
}

/**
 * What `-o wide` shows of tenant `name`'s cost: its quota use and its awake time, read only for it
 * (two more requests through a server; a read of the host and of the stack's history locally).
 */
async function costOf(door: TenantsDoor, name: string): Promise<TenantCost> {
  const [quota, history] = await Promise.all([door.quota(name), door.tenants.history(name, door.actor)]);
  return { quota, awake: awakeTime(history, Date.now()) };
}

/**
 * Prints the tenant now and again at each phase change, until Ctrl-C (exit 130, as kubectl's watch
 * ends) or the tenant's deletion (exit 0).
 */
async function watch(
  env: CommandEnv,
  door: TenantsDoor,
  name: string,
  first: ShownTenant,
  options: GetOptions,
): Promise<number> {
  env.stdout.write(tenantText(first, options.output));
  let phase: string = first.status.phase;
  const showChange = (tenant: ShownTenant): boolean => {
    if (tenant.status.phase === phase) return false;
    phase = tenant.status.phase;
    const text = tenantText(tenant, options.output);
    // A table's later rows come without the heading.
    env.stdout.write(isTable(options.output) ? text.slice(text.indexOf("\n") + 1) : text);
    return false;
  };
  const interrupts = watchInterrupts();
  try {
    // Never done of itself: only Ctrl-C or the tenant's deletion ends the follow.
    await door.follow(name, showChange, { signal: interrupts.signal });
  } catch (error) {
    if (interrupts.signal.aborted) return EXIT.interrupted;
    if (!(error instanceof TenantNotFoundError)) throw error;
    env.stderr.write(`tenant ${name} was deleted\n`);
  } finally {
    interrupts.dispose();
  }
  return EXIT.ok;
}
