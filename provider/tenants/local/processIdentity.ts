/**
 * Whether a process recorded earlier is still the one running: a pid alone is not enough, since
 * pids are reused, so the process's start time (Linux `/proc/<pid>/stat`) is compared too.
 */
import { readFileSync } from "node:fs";

/** A process as recorded: its pid and, where the system tells, when it started (ms since the epoch). */
export interface ProcessIdentity {
  /** The process id. */
  readonly pid: number;
  /** When it started, rounded to the clock's ticks; absent where /proc is not there. */
  readonly startedAtMs?: number;
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on every Linux architecture in use). */
const USER_HZ = 100;

/** The boot time in ms since the epoch, from /proc/stat's btime. */
function bootTimeMs(): number | undefined {
  try {
    const btime = readFileSync("/proc/stat", "utf8").match(/^btime (\d+)$/m)?.[1];
    return btime === undefined ? undefined : Number(btime) * 1000;
  } catch {
    return undefined;
  }
}

/** When process `pid` started (ms since the epoch), or undefined when it is gone or /proc is not there. */
export function processStartedAtMs(pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]); // field 22 overall: starttime
  const boot = bootTimeMs();
  return boot === undefined || !Number.isFinite(ticks) ? undefined : boot + (ticks * 1000) / USER_HZ;
}

/** This process's identity. */
export const thisProcess = (): ProcessIdentity => ({ pid: process.pid, startedAtMs: processStartedAtMs(process.pid) });

/** Whether a process of that pid is alive (signal 0 probes without signalling; EPERM means it runs as another user). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether `recorded` still runs: its pid is alive and, where known, started when it was recorded. */
export function isStillRunning(recorded: ProcessIdentity): boolean {
  if (!Number.isInteger(recorded.pid) || recorded.pid <= 0 || !pidAlive(recorded.pid)) return false;
  if (recorded.startedAtMs === undefined) return true;
  const now = processStartedAtMs(recorded.pid);
  // Start times are in ticks (10 ms); a second's slack covers rounding of the boot time.
  return now === undefined || Math.abs(now - recorded.startedAtMs) < 1000;
}

/**
 * Whether process `pid` could have written something at `writtenAtMs`: it is alive and started
 * before then. A process that started later has only reused the pid.
 */
export function couldHaveWritten(pid: number, writtenAtMs: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return false;
  const started = processStartedAtMs(pid);
  return started === undefined || started <= writtenAtMs + 1000;
}
