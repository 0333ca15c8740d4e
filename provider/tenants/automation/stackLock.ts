/**
 * Waiting for a tenant stack's lock. While another update holds it, the operation is retried with
 * a growing pause (a lock in a remote backend cannot be watched). In a file backend, and in a
 * PostgreSQL one (postgresLocks.ts), the locks are found by listing the stack's own lock files
 * (a folder's, or a table's keys under that folder's path), never by reading the engine's message
 * (it quotes what whoever wrote the lock put in it); a lock whose process is gone from this
 * machine, or whose machine the caller knows is gone (the server's replicas: a replica whose Lease
 * went unrenewed), is removed, that lock only, and the operation is tried again at once, even past
 * the deadline. A lock that cannot be judged (another backend's, a machine not known gone) is
 * never removed: the error says how to remove it by hand.
 */
import { lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as pause } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { StackBusyError } from "../tenantsErrors";
import { couldHaveWritten } from "../local/processIdentity";
import { redactedBackendUrl } from "./backendUrlPassword";

/** One lock file of the stack and what it says of its holder. */
export interface StackLock {
  /** The lock file: its path in a file backend, its key in a PostgreSQL backend's table. */
  readonly file: string;
  /** Its holder's process id, user and machine, and when it took the lock, as the file says. */
  readonly pid?: number;
  readonly username?: string;
  readonly hostname?: string;
  readonly timestamp?: string;
}

/**
 * The lock folder of stack `stack` of `project` in a file backend (pkg/backend/diy:
 * `.pulumi/locks/organization/<project>/<stack>`), or undefined for any other backend.
 */
export function lockFolder(backendUrl: string, project: string, stack: string): string | undefined {
  const root = fileBackendFolder(backendUrl);
  return root && path.join(root, ".pulumi", "locks", "organization", project, stack);
}

/** The folder of a file backend (`file:///abs`, or Pulumi's `file://~/rel` in the home); undefined for any other URL. */
function fileBackendFolder(backendUrl: string): string | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  const trimmed = backendUrl.replace(/\/+$/, "");
  if (trimmed === "file://~" || trimmed.startsWith("file://~/"))
    return path.join(os.homedir(), trimmed.slice("file://~".length));
  try {
    return fileURLToPath(trimmed);
  } catch {
    return undefined;
  }
}

/** The largest lock file read: the engine writes a few hundred bytes. */
const MAX_LOCK_BYTES = 4096;

/** The lock files in `folder` (regular files only: a link there is nobody's lock). */
export function listLocks(folder: string | undefined): StackLock[] {
  if (!folder) return [];
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.endsWith(".json")).flatMap((entry) => lockAt(path.join(folder, entry)));
}

function lockAt(file: string): StackLock[] {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > MAX_LOCK_BYTES) return [];
    return [lockOf(file, readFileSync(file, "utf8"))];
  } catch {
    return [{ file }];
  }
}

/** Lock file `file` of content `text` (the engine's JSON), as far as it says who holds it. */
export function lockOf(file: string, text: string): StackLock {
  try {
    if (text.length > MAX_LOCK_BYTES) return { file };
    const content = JSON.parse(text) as Record<string, unknown>;
    const field = (key: string) => (typeof content[key] === "string" ? (content[key] as string) : undefined);
    return {
      file,
      pid: typeof content.pid === "number" ? content.pid : undefined,
      username: field("username"),
      hostname: field("hostname"),
      timestamp: field("timestamp"),
    };
  } catch {
    return { file };
  }
}

/** A stack's locks where they can be listed and removed one by one. */
export interface StackLocks {
  /** The stack's locks now. */
  list(): Promise<StackLock[]>;
  /** Removes `lock`, that one alone. */
  remove(lock: StackLock): Promise<void>;
}

/** The locks of a file backend's lock folder; undefined for none (another backend's). */
export function fileLocks(folder: string | undefined): StackLocks | undefined {
  if (!folder) return undefined;
  return {
    list: async () => listLocks(folder),
    remove: async (lock) => rmSync(lock.file, { force: true }),
  };
}

/**
 * Whether `lock` is stale: taken on this machine, by a process that is gone (or whose pid now
 * belongs to a process that started after the lock was taken).
 */
export function isStale(lock: StackLock, hostname = os.hostname()): boolean {
  const holder = holderHere(lock, hostname);
  return holder !== undefined && !couldHaveWritten(holder.pid, holder.takenAt);
}

/** Whether `lock` was taken on another machine, one the caller knows is gone. */
export function isOfGoneHost(
  lock: StackLock,
  isHostGone: ((hostname: string) => boolean) | undefined,
  hostname = os.hostname(),
): boolean {
  return lock.hostname !== undefined && lock.hostname !== hostname && isHostGone?.(lock.hostname) === true;
}

/** Whether `lock` is live: taken on this machine by a process that is still running. */
function isLive(lock: StackLock): boolean {
  const holder = holderHere(lock, os.hostname());
  return holder !== undefined && couldHaveWritten(holder.pid, holder.takenAt);
}

/** The holder of `lock` when the lock says it was taken on this machine, with a pid and a time; else undefined (not judged here). */
function holderHere(lock: StackLock, hostname: string): { pid: number; takenAt: number } | undefined {
  if (lock.hostname !== hostname || lock.pid === undefined || lock.timestamp === undefined) return undefined;
  const takenAt = Date.parse(lock.timestamp);
  return Number.isFinite(takenAt) ? { pid: lock.pid, takenAt } : undefined;
}

/**
 * The command that removes the lock of stack `stack` of `project` in backend `backendUrl` by hand:
 * `pulumi cancel` with the backend, the stack fully qualified (a self-managed backend's
 * organization is always `organization`; a Pulumi Cloud one's is the user's own), and the
 * backend's passwords, if its URL holds any, left out: the command reaches a Tenant's status.
 */
export function cancelCommand(backendUrl: string, project: string, stack: string): string {
  const organization = /^https?:\/\//.test(backendUrl) ? "<organization>" : "organization";
  return `PULUMI_BACKEND_URL=${shellWord(redactedBackendUrl(backendUrl))} pulumi cancel --stack ${organization}/${project}/${stack}`;
}

/** `text` as one shell word: as it is when it holds nothing the shell reads, else single-quoted. */
const shellWord = (text: string): string =>
  /^[\w@%+=:,./~-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/** The holders for people; what the files say is quoted as data, never acted on. */
export function describeLocks(locks: readonly StackLock[]): string {
  if (locks.length === 0) return "holder unknown";
  return locks
    .map(
      (l) =>
        `pid ${l.pid ?? "?"} of ${JSON.stringify(`${l.username ?? "?"}@${l.hostname ?? "?"}`)} since ${l.timestamp ?? "?"}`,
    )
    .join("; ");
}

/** How an operation waits for the lock. */
export interface LockWait {
  /** The tenant, for the busy error. */
  readonly tenant: string;
  /** The stack's locks, listed on each refusal; undefined where they cannot be listed (object stores, Pulumi Cloud). */
  readonly locks: StackLocks | undefined;
  /** The command that removes the stack's lock by hand (`cancelCommand`), for a lock that cannot be judged here. */
  readonly cancelCommand: string;
  /** Whether an error is the engine's "stack is locked" refusal. */
  readonly isLocked: (error: unknown) => boolean;
  /** Progress of the wait. */
  readonly note: (text: string) => void;
  /** How long to wait. */
  readonly timeoutMs: number;
  /** Ends the wait at once. */
  readonly signal?: AbortSignal;
  /** Whether the machine of host name `hostname` is known gone (none: only this machine's locks are judged). */
  readonly isHostGone?: (hostname: string) => boolean;
}

/** Runs `operation`, waiting while another update holds the stack's lock and clearing a stale one. */
export async function withStackLock<T>(wait: LockWait, operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + wait.timeoutMs;
  let pauseMs = 250;
  let told = false;
  let triedPastDeadline = false;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!wait.isLocked(error) || wait.signal?.aborted) throw error;
      const locks = await listedLocks(wait);
      const stale = locks.filter((lock) => isStale(lock) || isOfGoneHost(lock, wait.isHostGone));
      for (const lock of stale) {
        wait.note(`removing the lock of an update that is gone (${describeLocks([lock])})`);
        await wait.locks!.remove(lock);
      }
      const past = Date.now() >= deadline;
      // A removed lock is followed by a try at once, past the deadline too; but by one try only
      // past it, so that locks that keep coming back do not keep the wait going.
      if (stale.length > 0 && !(past && triedPastDeadline)) {
        triedPastDeadline = past;
        continue;
      }
      const holders = locks.filter((lock) => !stale.includes(lock));
      if (past) throw busy(wait, holders);
      if (!told)
        wait.note(`waiting for another update of tenant ${wait.tenant}'s stack to finish (${describeLocks(holders)})`);
      told = true;
      if (!(await paused(Math.min(pauseMs, Math.max(0, deadline - Date.now())), wait.signal))) throw error;
      pauseMs = Math.min(pauseMs * 2, 2000);
    }
  }
}

/** The stack's locks now; none when they cannot be read (the wait goes on without judging them, and says so). */
async function listedLocks(wait: LockWait): Promise<StackLock[]> {
  try {
    return (await wait.locks?.list()) ?? [];
  } catch (error) {
    wait.note(`the stack's locks could not be read (${(error as Error).message}); waiting without judging them`);
    return [];
  }
}

/**
 * The error of a wait that ran out, naming the holders left (never a lock it removed). When one of
 * them, or the backend, cannot be judged from here, it says how to remove the lock by hand instead.
 */
function busy(wait: LockWait, holders: readonly StackLock[]): StackBusyError {
  const judged = wait.locks !== undefined && holders.length > 0 && holders.every(isLive);
  const recovery = judged
    ? undefined
    : `if that update is gone (this machine cannot tell), remove its lock with \`${wait.cancelCommand}\`; it removes every lock of the stack, so first make sure no update of tenant ${wait.tenant} runs`;
  return new StackBusyError(wait.tenant, wait.timeoutMs, describeLocks(holders), recovery);
}

/** Pauses `ms`; false when `signal` ended the pause (its listener goes with it). */
async function paused(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await pause(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
