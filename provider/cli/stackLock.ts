/**
 * Who holds a tenants stack's lock, read from the engine's refusal ("the stack is currently locked
 * by 1 lock(s) ... created by user@host (pid N) at T"), and whether the holder is gone: a lock
 * left by a command that was killed on this machine can be removed safely.
 */
import os from "node:os";
import { processRuns } from "./processRuns";

/** One lock's holder. */
export interface LockHolder {
  readonly user: string;
  readonly hostname: string;
  readonly pid: number;
  readonly since: string;
}

/** The holders an engine's lock error names. */
export function lockHolders(message: string): LockHolder[] {
  // The Automation API's message repeats the engine's output, so each lock is named more than once.
  const unique = new Map<string, LockHolder>();
  for (const m of message.matchAll(/created by (\S+)@(\S+) \(pid (\d+)\) at (\S+)/g)) unique.set(m[0], { user: m[1], hostname: m[2], pid: Number(m[3]), since: m[4] });
  return [...unique.values()];
}

/** The holders on this machine whose process no longer runs. */
export function staleLockHolders(holders: readonly LockHolder[], hostname = os.hostname()): LockHolder[] {
  return holders.filter((holder) => holder.hostname === hostname && !processRuns(holder.pid));
}


/** The holders for people. */
export function describeHolders(holders: readonly LockHolder[]): string {
  if (holders.length === 0) return "holder unknown";
  return holders.map((h) => `pid ${h.pid} of ${h.user}@${h.hostname} since ${h.since}`).join("; ");
}
