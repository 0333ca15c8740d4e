/**
 * How the commands that change a tenant wait for it (`--wait`, on by default, and `--timeout`), as
 * kubectl's do: progress on stderr until the change is done, Ctrl-C to stop following, and a
 * deadline that stops the wait as a Ctrl-C would, then exits 1 (not Ready yet) saying how to go
 * on. Through a server the change goes on without the command; in local mode the command runs the
 * tenant's stack itself, so a passed deadline stops the run, and `--wait=false` is refused.
 */
import type { CommandEnv } from "./commandEnv";
import { CliError, EXIT } from "./exitCodes";
import { listenForInterrupts, type Interrupts } from "./interrupts";
import { progressDisplay, type ProgressDisplay } from "./progressDisplay";
import type { ShownTenant, TenantsDoor } from "./tenantsDoor";

/** `--wait` and `--timeout`, as commander parses them. */
export interface WaitOptions {
  /** Follow the change until it is done (`--wait=false`, `--no-wait`: return once it is asked for). */
  readonly wait: boolean;
  /** How long to follow it, in milliseconds; none: until it is done. */
  readonly timeout?: number;
}

/** A command's wait: its progress display, its Ctrl-C, and its deadline. */
export interface Wait {
  /** Where progress goes. */
  readonly display: ProgressDisplay;
  /** Ctrl-C, and the deadline, which stops the operation as a Ctrl-C does. */
  readonly interrupts: Interrupts;
  /** Whether the deadline passed. */
  timedOut(): boolean;
  /** Ends the wait: the display closed, Ctrl-C and the deadline no longer listened for. */
  close(): void;
}

/** Starts a wait; `howToGoOn` is what a second Ctrl-C says to run next. */
export function startWait(env: CommandEnv, door: TenantsDoor, howToGoOn: string, options: WaitOptions): Wait {
  const display = progressDisplay(env.stderr);
  const interrupts = listenForInterrupts((line) => display.note(line), door.onInterrupt, howToGoOn);
  let passed = false;
  const timer =
    options.timeout === undefined
      ? undefined
      : setTimeout(() => {
          passed = true;
          interrupts.stop();
        }, options.timeout);
  return {
    display,
    interrupts,
    timedOut: () => passed,
    close: () => {
      clearTimeout(timer);
      interrupts.dispose();
      display.close();
    },
  };
}

/**
 * The error of a wait whose `--timeout` passed (exit 1, not done yet): `notYet` says what is not
 * done; through a server it goes on, and `kubespaces tenant get NAME -w` follows it; in local mode
 * the run was stopped, and `howLocally` says how to finish it.
 */
export function timedOut(
  door: TenantsDoor,
  name: string,
  notYet: string,
  timeoutMs: number,
  howLocally = "",
): CliError {
  const after = `${notYet} after ${durationText(timeoutMs)} (--timeout)`;
  return new CliError(
    door.server !== undefined
      ? `${after}; the server ${door.server} goes on with it: follow it with \`kubespaces tenant get ${name} -w\``
      : `${after}: its run was stopped as a Ctrl-C stops it (the engine finished the steps in flight and saved the state); ${howLocally}`,
    EXIT.error,
  );
}

/**
 * The door's asks that return at once (`--wait=false`), or a CliError: in local mode the command
 * runs the tenant's stack itself, and nothing would go on with it once the command returned.
 */
export function asksOf(door: TenantsDoor, name: string, options: WaitOptions): NonNullable<TenantsDoor["asks"]> {
  checkNoWait(options);
  if (door.asks) return door.asks;
  throw new CliError(
    `--wait=false: here the command runs tenant ${name}'s stack itself, and nothing would go on with it once the command returned; wait for it (--timeout bounds the wait), or go through a kubespaces server (kubespaces login --server URL), which goes on by itself`,
    EXIT.invalid,
  );
}

/** Refuses `--timeout` beside `--wait=false`: it bounds a wait, and there is none. */
export function checkNoWait(options: WaitOptions): void {
  if (options.timeout !== undefined)
    throw new CliError("--timeout bounds a wait: give it without --wait=false", EXIT.invalid);
}

/**
 * Follows tenant `name` until `until` holds of it, showing progress, for a change a server makes
 * (sleep, wake, restore); `goal` names what it waits for, for the deadline's error.
 */
export async function awaitChange(
  env: CommandEnv,
  door: TenantsDoor,
  name: string,
  until: (tenant: ShownTenant) => boolean,
  goal: string,
  options: WaitOptions,
): Promise<ShownTenant> {
  const wait = startWait(env, door, `\`kubespaces tenant get ${name} -w\` follows it again`, options);
  try {
    return await door.follow(name, until, {
      onEvent: (event) => wait.display.tenant(event),
      signal: wait.interrupts.signal,
    });
  } catch (error) {
    if (wait.timedOut()) throw timedOut(door, name, `tenant ${name} is not ${goal}`, options.timeout!);
    throw error;
  } finally {
    wait.close();
  }
}

/** The error of a Failed tenant (exit 3), with its reason. */
export function failedError(name: string, tenant: ShownTenant): CliError {
  const reason = tenant.status.conditions[0]?.reason;
  return new CliError(`tenant ${name} failed (${reason}): ${tenant.status.message}`, EXIT.failed);
}

/** `value` of `--timeout`, a duration as kubectl takes it (`90s`, `10m`, `1h30m`), in milliseconds. */
export function durationMs(value: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match || value === "") return undefined;
  const [hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0));
  const ms = ((hours * 60 + minutes) * 60 + seconds) * 1000;
  return ms > 0 ? ms : undefined;
}

/** `ms` as a duration `--timeout` takes, e.g. `1h30m`. */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const parts = [
    [Math.floor(seconds / 3600), "h"],
    [Math.floor(seconds / 60) % 60, "m"],
    [seconds % 60, "s"],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, unit]) => `${count}${unit}`)
    .join("");
}
