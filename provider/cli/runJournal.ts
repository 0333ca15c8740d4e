/**
 * The run journal: what a command's update does to each tenant, written as it happens (one JSON
 * line per digested engine event) to `<home>/runs/<stack>/<run>.jsonl`, so that `get --wait` in
 * another terminal follows a create live. The last failure of each tenant is kept beside it in
 * `failures.json` until an update gets that tenant to Ready or removes it.
 */
import { appendFileSync, closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, watch } from "node:fs";
import path from "node:path";
import { homeDir } from "./cliHome";
import { isProcessAlive } from "./isProcessAlive";
import { writeAtomically } from "../util/atomicFile";
import type { TenantEvent } from "./tenantEvents";

/** One line of a journal. */
export type JournalEntry =
  | { readonly kind: "start"; readonly pid: number; readonly at: string; readonly operation: string; readonly deleting?: string }
  | ({ readonly kind: "tenant"; readonly at: string } & TenantEvent)
  | { readonly kind: "end"; readonly at: string; readonly ok: boolean };

/** The journals' folder of a stack. */
export const runsDir = (stack: string): string => homeDir("runs", stack);

/** Writes one run's journal, and the failures file at its end. */
export class RunJournal {
  readonly file: string;
  private readonly failures = new Map<string, string | undefined>();

  /**
   * @param dir the stack's journals folder.
   * @param operation what the run is for, for people ("create team-atlas").
   * @param deleting the tenant the run deletes: other commands must not take its missing request for a stray.
   */
  constructor(
    private readonly dir: string,
    operation: string,
    deleting?: string,
  ) {
    pruneJournals(dir);
    this.file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.jsonl`);
    this.append({ kind: "start", pid: process.pid, at: now(), operation, ...(deleting && { deleting }) });
  }

  /** Records what an event did to a tenant. */
  tenant(event: TenantEvent): void {
    this.append({ kind: "tenant", at: now(), ...event });
    if (event.phase === "Failed") this.failures.set(event.name, event.detail);
    if (event.phase === "Ready" || event.phase === "Deleted") this.failures.set(event.name, undefined);
  }

  /**
   * Ends the run. A run that succeeded leaves no tenant failed (an update succeeds only when every
   * tenant it declares is ready); one that failed updates the tenants it settled.
   */
  end(ok: boolean): void {
    const failures = ok ? {} : readFailures(this.dir);
    for (const [name, message] of ok ? [] : this.failures) {
      if (message === undefined) delete failures[name];
      else failures[name] = message;
    }
    writeAtomically(path.join(this.dir, "failures.json"), `${JSON.stringify(failures, null, 2)}\n`, 0o600);
    this.append({ kind: "end", at: now(), ok });
  }

  private append(entry: JournalEntry): void {
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }
}

const now = () => new Date().toISOString();

/** The last failure of each tenant whose last update failed. */
export function readFailures(dir: string): Record<string, string> {
  const file = path.join(dir, "failures.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
}


/** A journal's entries; none when another command has just pruned it. */
function readJournal(file: string): JournalEntry[] {
  try {
    return entriesOf(readFileSync(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The journal's complete lines: a line still being appended (no newline yet) is left for the next read. */
function entriesOf(text: string): JournalEntry[] {
  return text
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as JournalEntry);
}

/** Whether the journal is of a run still going: no end line, and its process alive. */
function isRunning(entries: readonly JournalEntry[]): boolean {
  const start = entries.find((e) => e.kind === "start");
  return start?.kind === "start" && !entries.some((e) => e.kind === "end") && isProcessAlive(start.pid);
}

/** The journals of the runs going on now. */
export function activeJournals(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".jsonl"))
    .map((file) => path.join(dir, file))
    .filter((file) => isRunning(readJournal(file)));
}

/** How many finished journals are kept (they are only read while their run goes on). */
const KEPT_JOURNALS = 20;

/** Removes the oldest finished journals beyond the newest KEPT_JOURNALS. */
function pruneJournals(dir: string): void {
  const journals = readdirSync(dir).filter((file) => file.endsWith(".jsonl")).sort();
  const active = new Set(activeJournals(dir));
  for (const file of journals.slice(0, Math.max(0, journals.length - KEPT_JOURNALS))) {
    const full = path.join(dir, file);
    if (!active.has(full)) rmSync(full, { force: true });
  }
}

/** The tenants that running updates are deleting. */
export function tenantsBeingDeleted(dir: string): Set<string> {
  const deleting = new Set<string>();
  for (const file of activeJournals(dir)) {
    const start = readJournal(file).find((entry) => entry.kind === "start");
    if (start?.kind === "start" && start.deleting) deleting.add(start.deleting);
  }
  return deleting;
}

/** The phase the running updates have put each tenant in (their latest word on it). */
export function livePhases(dir: string): Map<string, TenantEvent["phase"] & string> {
  const live = new Map<string, TenantEvent["phase"] & string>();
  for (const file of activeJournals(dir)) {
    for (const entry of readJournal(file)) if (entry.kind === "tenant" && entry.phase) live.set(entry.name, entry.phase);
  }
  return live;
}

/**
 * Follows the running updates' journals, calling `onEvent` for each event of tenant `name` as it is
 * written (those already written first), until no update runs. Woken by file-system events; a run
 * whose process died without an end line is noticed by a liveness check every two seconds.
 */
export function followTenant(dir: string, name: string, onEvent: (event: TenantEvent) => void): Promise<void> {
  const offsets = new Map<string, number>();
  const finished = new Set<string>();
  return new Promise((resolve, reject) => {
    const readNew = () => {
      for (const file of new Set([...activeJournals(dir), ...offsets.keys()])) {
        if (finished.has(file)) continue;
        const entries = entriesOf(readFrom(file, offsets));
        for (const entry of entries) if (entry.kind === "tenant" && entry.name === name) onEvent(entry);
        if (!isRunning(readJournal(file))) finished.add(file);
      }
      return activeJournals(dir).length === 0;
    };
    const watcher = watch(dir);
    const timer = setInterval(() => check(), 2000);
    const stop = (error?: unknown) => {
      watcher.close();
      clearInterval(timer);
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      try {
        if (readNew()) stop();
      } catch (error) {
        stop(error);
      }
    };
    watcher.on("change", check);
    watcher.on("error", stop);
    check();
  });
}

/** The text of `file` after the offset read last time, moving the offset on (whole lines only). */
function readFrom(file: string, offsets: Map<string, number>): string {
  const start = offsets.get(file) ?? 0;
  if (!existsSync(file)) return ""; // pruned by another command once its run ended
  const fd = openSync(file, "r");
  try {
    const chunks: Buffer[] = [];
    const buffer = Buffer.alloc(64 * 1024);
    let position = start;
    for (let read = readSync(fd, buffer, 0, buffer.length, position); read > 0; read = readSync(fd, buffer, 0, buffer.length, position)) {
      chunks.push(Buffer.from(buffer.subarray(0, read)));
      position += read;
    }
    const text = Buffer.concat(chunks).toString("utf8");
    const complete = text.slice(0, text.lastIndexOf("\n") + 1);
    offsets.set(file, start + Buffer.byteLength(complete));
    return complete;
  } finally {
    closeSync(fd);
  }
}
