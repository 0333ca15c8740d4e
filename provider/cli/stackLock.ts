/**
 * The tenants stack's lock: who holds it, read from the engine's refusal ("the stack is currently
 * locked by 1 lock(s) ... <lock URL>: created by user@host (pid N) at T"), waiting while a live
 * command holds it, and removing the one lock of a command that died on this machine.
 */
import { rmSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { ConcurrentUpdateError } from "@pulumi/pulumi/automation";
import { CliError, EXIT } from "./exitCodes";
import { isProcessAlive } from "./isProcessAlive";

/** One lock's holder. */
export interface LockHolder {
  /** Where the lock is (its URL in the backend). */
  readonly lock: string;
  /** The user and machine of the process that took it. */
  readonly user: string;
  readonly hostname: string;
  /** That process (the pulumi CLI). */
  readonly pid: number;
  /** When it took the lock. */
  readonly since: string;
}

/** The holders an engine's lock error names, each once (the Automation API's message repeats the engine's output). */
export function lockHolders(message: string): LockHolder[] {
  const unique = new Map<string, LockHolder>();
  for (const m of message.matchAll(/(\S+): created by (\S+)@(\S+) \(pid (\d+)\) at (\S+)/g)) {
    unique.set(m[0], { lock: m[1], user: m[2], hostname: m[3], pid: Number(m[4]), since: m[5] });
  }
  return [...unique.values()];
}

/** The holders on this machine whose process is gone. */
export function staleLockHolders(holders: readonly LockHolder[], hostname = os.hostname()): LockHolder[] {
  return holders.filter((holder) => holder.hostname === hostname && !isProcessAlive(holder.pid));
}

/** The holders for people. */
export function describeHolders(holders: readonly LockHolder[]): string {
  if (holders.length === 0) return "holder unknown";
  return holders.map((h) => `pid ${h.pid} of ${h.user}@${h.hostname} since ${h.since}`).join("; ");
}

/**
 * Removes a dead holder's lock file. Only that file: `pulumi cancel` would remove every lock,
 * a live one that another command has just taken included. A lock in a remote backend is left to
 * the user, with the command that removes it.
 */
function removeStaleLock(holder: LockHolder, stackName: string): void {
  if (!holder.lock.startsWith("file://")) {
    throw new CliError(
      `the tenants stack is locked by an update that is gone (${describeHolders([holder])}); when you are sure, remove the lock with \`pulumi cancel --stack ${stackName}\``,
      EXIT.busy,
    );
  }
  rmSync(fileURLToPath(holder.lock), { force: true });
}

/** How an operation under the stack lock reports and may be stopped. */
export interface LockWait {
  /** The stack's name, for the message that tells how to remove a lock by hand. */
  readonly stackName: string;
  /** Progress of the wait (waiting for the lock, a stale lock removed). */
  readonly note: (text: string) => void;
  /** How long to wait for another update's lock. */
  readonly timeoutMs: number;
  /** Aborted when the user interrupts: the wait ends at once. */
  readonly signal?: AbortSignal;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/**
 * Runs `operation` (an up or a preview); while another update holds the stack's lock, waits for
 * it, retrying with a growing pause (a lock in a remote backend cannot be watched), and removes
 * the lock of a holder that died on this machine.
 */
export async function withStackLock<T>(wait: LockWait, operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + wait.timeoutMs;
  let pauseMs = 250;
  let told = false;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof ConcurrentUpdateError) || wait.signal?.aborted) throw error;
      const holders = lockHolders(error.message);
      const stale = staleLockHolders(holders);
      for (const holder of stale) {
        wait.note(`removing the lock of an update that is gone (${describeHolders([holder])})`);
        removeStaleLock(holder, wait.stackName);
      }
      if (stale.length > 0) continue;
      if (Date.now() >= deadline) {
        throw new CliError(
          `the tenants stack is still locked by another update after ${Math.round(wait.timeoutMs / 1000)}s (${describeHolders(holders)}); try again later, or raise --lock-timeout`,
          EXIT.busy,
        );
      }
      if (!told) wait.note(`waiting for another update of the tenants stack to finish (${describeHolders(holders)})`);
      told = true;
      await pause(pauseMs, wait.signal);
      if (wait.signal?.aborted) throw error;
      pauseMs = Math.min(pauseMs * 2, 2000);
    }
  }
}
