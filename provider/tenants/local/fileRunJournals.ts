/**
 * Run journals as files: each run of a tenant (a create or a delete) is one JSON line per event in
 * `<dir>/<tenant>/<start time>-<pid>.jsonl`, appended as it happens, so that another process
 * follows it live (`get --wait`) and reads its outcome afterwards. A run counts as running while
 * the process that wrote it runs: the same pid with the same start time.
 */
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  watch,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { DNS_LABEL } from "../../model/tenantArgsSchema";
import type { RunJournals, RunOutcome, RunRecord, RunRecorder } from "../ports";
import type { TenantEvent } from "../tenantObject";
import { isStillRunning, thisProcess, type ProcessIdentity } from "./processIdentity";

/** One line of a journal. */
type JournalEntry =
  | {
      readonly kind: "start";
      readonly at: string;
      readonly operation: RunRecord["operation"];
      readonly generation: number;
      readonly process: ProcessIdentity;
    }
  | ({ readonly kind: "event"; readonly at: string } & TenantEvent)
  | { readonly kind: "end"; readonly at: string; readonly outcome: RunOutcome };

/** How many journals of a tenant are kept (only the newest is read). */
const KEPT_RUNS = 5;

/** How often a follower checks that the writer still runs (a process killed hard writes no end line). */
const LIVENESS_CHECK_MS = 2000;

/** Journals under `dir`. */
export class FileRunJournals implements RunJournals {
  constructor(readonly dir: string) {}

  start(name: string, operation: RunRecord["operation"], generation: number): RunRecorder {
    const folder = this.folderOf(name);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    prune(folder);
    const me = thisProcess();
    const file = newJournalFile(folder, me.pid);
    const append = (entry: JournalEntry) => appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
    writeFileSync(
      file,
      `${JSON.stringify({ kind: "start", at: now(), operation, generation, process: me } satisfies JournalEntry)}\n`,
      { flag: "wx", mode: 0o600 },
    );
    return {
      event: (event) => append({ kind: "event", at: now(), ...event }),
      end: (outcome) => append({ kind: "end", at: now(), outcome }),
    };
  }

  async latest(name: string): Promise<RunRecord | undefined> {
    const file = newestJournal(this.folderOf(name));
    return file ? recordOf(readEntries(file)) : undefined;
  }

  follow(name: string, signal?: AbortSignal): AsyncIterable<TenantEvent> {
    return followJournal(this.folderOf(name), signal);
  }

  async forget(name: string): Promise<void> {
    // A run still going (a create that waited behind this delete) keeps its journal.
    const folder = this.folderOf(name);
    for (const file of journals(folder)) if (!recordOf(readEntries(file))?.running) rmSync(file, { force: true });
    if (journals(folder).length === 0) rmSync(folder, { recursive: true, force: true });
  }

  /** The tenant's folder; the name is checked, so that no other path is ever read or removed. */
  private folderOf(name: string): string {
    if (!DNS_LABEL.test(name)) throw new Error(`not a tenant name: ${JSON.stringify(name)}`);
    return path.join(this.dir, name);
  }
}

const now = () => new Date().toISOString();

/** Runs this process started, so that two runs in one millisecond get files of their own. */
let runsStarted = 0;

/** A journal file name no other run has: the start time (names sort by it), the pid, a sequence number. */
function newJournalFile(folder: string, pid: number): string {
  runsStarted += 1;
  const sequence = String(runsStarted).padStart(6, "0");
  return path.join(folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${pid}-${sequence}.jsonl`);
}

/** The journal files of a tenant's folder, oldest first (their names start with the start time). */
function journals(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((file) => file.endsWith(".jsonl"))
      .sort()
      .map((file) => path.join(folder, file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

const newestJournal = (folder: string): string | undefined => journals(folder).at(-1);

/** Removes all but the newest KEPT_RUNS - 1 journals before a new one starts; a running run's journal stays. */
function prune(folder: string): void {
  const all = journals(folder);
  for (const file of all.slice(0, Math.max(0, all.length - (KEPT_RUNS - 1)))) {
    if (!recordOf(readEntries(file))?.running) rmSync(file, { force: true });
  }
}

/** The journal's complete, well-formed lines (a line still being written, or a damaged one, is passed over). */
function entriesOf(text: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of text.split("\n").slice(0, -1)) {
    try {
      const entry = JSON.parse(line) as JournalEntry;
      if (entry && typeof entry === "object" && typeof entry.kind === "string") entries.push(entry);
    } catch {
      // not ours to interpret
    }
  }
  return entries;
}

function readEntries(file: string): JournalEntry[] {
  try {
    return entriesOf(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The run a journal tells of; undefined for one without a start line. */
function recordOf(entries: readonly JournalEntry[]): RunRecord | undefined {
  const start = entries.find((e) => e.kind === "start");
  if (start?.kind !== "start") return undefined;
  const end = entries.find((e) => e.kind === "end");
  const events = entries.flatMap((e) =>
    e.kind === "event" ? [{ name: e.name, phase: e.phase, reason: e.reason, detail: e.detail }] : [],
  );
  return {
    operation: start.operation,
    startedAt: start.at,
    generation: start.generation,
    running: end === undefined && isStillRunning(start.process),
    events: events.map(withoutUndefined),
    ...(end?.kind === "end" && { outcome: end.outcome }),
  };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The events of the running run in `folder` as they are written, until it ends (or its writer
 * dies). Woken by file-system events; the liveness check catches a writer killed hard.
 */
async function* followJournal(folder: string, signal?: AbortSignal): AsyncGenerator<TenantEvent> {
  const file = newestJournal(folder);
  if (!file || !recordOf(readEntries(file))?.running) return;
  const wake = wakeUps(folder, signal);
  let offset = 0;
  try {
    for (;;) {
      const { text, next } = readFrom(file, offset);
      offset = next;
      for (const entry of entriesOf(text))
        if (entry.kind === "event")
          yield withoutUndefined({ name: entry.name, phase: entry.phase, reason: entry.reason, detail: entry.detail });
      if (signal?.aborted || !recordOf(readEntries(file))?.running) {
        // The end line may have come with the last events: read them before stopping.
        const rest = readFrom(file, offset);
        for (const entry of entriesOf(rest.text))
          if (entry.kind === "event")
            yield withoutUndefined({
              name: entry.name,
              phase: entry.phase,
              reason: entry.reason,
              detail: entry.detail,
            });
        return;
      }
      await wake.next();
    }
  } finally {
    wake.close();
  }
}

/** Resolves `next()` on a change in `folder`, on the liveness period, or when `signal` aborts. */
function wakeUps(folder: string, signal?: AbortSignal): { next: () => Promise<void>; close: () => void } {
  let pending: (() => void) | undefined;
  let woken = false;
  const wakeUp = () => {
    woken = true;
    pending?.();
    pending = undefined;
  };
  const watcher = watch(folder, wakeUp);
  watcher.on("error", wakeUp);
  const timer = setInterval(wakeUp, LIVENESS_CHECK_MS);
  signal?.addEventListener("abort", wakeUp, { once: true });
  return {
    next: () =>
      new Promise<void>((resolve) => {
        if (woken) {
          woken = false;
          resolve();
        } else
          pending = () => {
            woken = false;
            resolve();
          };
      }),
    close: () => {
      watcher.close();
      clearInterval(timer);
      signal?.removeEventListener("abort", wakeUp);
    },
  };
}

/** The complete lines of `file` after `offset`, and the offset after them. */
function readFrom(file: string, offset: number): { text: string; next: number } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return { text: "", next: offset };
  }
  try {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    let position = offset;
    for (
      let read = readSync(fd, buffer, 0, buffer.length, position);
      read > 0;
      read = readSync(fd, buffer, 0, buffer.length, position)
    ) {
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      position += read;
    }
    const text = Buffer.concat(chunks).toString("utf8");
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    return { text: complete, next: offset + Buffer.byteLength(complete) };
  } finally {
    closeSync(fd);
  }
}
