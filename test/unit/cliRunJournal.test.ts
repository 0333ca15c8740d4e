/** The run journal: what an update does to each tenant, written as it happens, and read by `get`, `list` and `get --wait`. */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { activeJournals, followTenant, livePhases, readFailures, RunJournal, runsDir, tenantsBeingDeleted, type JournalEntry } from "../../provider/cli/runJournal";
import type { TenantEvent } from "../../provider/cli/tenantEvents";

let home: string;
const savedHome = process.env.KUBESPACES_HOME;

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), "kubespaces-home-"));
  process.env.KUBESPACES_HOME = home;
});
afterEach(() => {
  vi.useRealTimers();
  if (savedHome === undefined) delete process.env.KUBESPACES_HOME;
  else process.env.KUBESPACES_HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

/**
 * A journal started at second `second` of the clock: a journal's file is named after its start time
 * and the process, so two journals of this one process need two start times.
 */
function journalAt(second: number, dir: string, operation: string, deleting?: string): RunJournal {
  vi.setSystemTime(new Date(Date.UTC(2026, 0, 1, 0, 0, second)));
  try {
    return new RunJournal(dir, operation, deleting);
  } finally {
    vi.useRealTimers();
  }
}

/** A journal another process started and never ended (killed): its start line alone. */
function journalOfProcess(dir: string, pid: number): string {
  const file = path.join(dir, `2026-01-01T00-00-00-000Z-${pid}.jsonl`);
  const start: JournalEntry = { kind: "start", pid, at: "2026-01-01T00:00:00.000Z", operation: "create atlas" };
  appendFileSync(file, `${JSON.stringify(start)}\n`);
  return file;
}

/** The pid of a process that has exited. */
const deadPid = () => spawnSync("true").pid;

const entriesOf = (file: string) =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as JournalEntry);

const phaseOf = ({ name, phase, detail }: TenantEvent) => ({ name, phase, detail });

describe("RunJournal", () => {
  it("writes its start, each tenant event and its end as JSON lines, owner-only, under the stack's runs folder", () => {
    const dir = runsDir("tenants");
    expect(dir).toBe(path.join(home, "runs", "tenants"));
    const journal = new RunJournal(dir, "create atlas");
    journal.tenant({ name: "atlas", phase: "Pending" });
    journal.tenant({ name: "atlas", detail: "creating Namespace atlas-namespace" });
    journal.end(true);
    expect(path.dirname(journal.file)).toBe(dir);
    expect(path.basename(journal.file)).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z-${process.pid}\\.jsonl$`));
    expect(statSync(journal.file).mode & 0o777).toBe(0o600);
    expect(entriesOf(journal.file).map(({ at: _at, ...entry }) => entry)).toEqual([
      { kind: "start", pid: process.pid, operation: "create atlas" },
      { kind: "tenant", name: "atlas", phase: "Pending" },
      { kind: "tenant", name: "atlas", detail: "creating Namespace atlas-namespace" },
      { kind: "end", ok: true },
    ]);
  });

  it("keeps each tenant's last failure until a later run settles it, and a run that succeeds clears them all", () => {
    const dir = runsDir("tenants");
    expect(readFailures(dir)).toEqual({});
    const first = journalAt(1, dir, "create atlas");
    for (const name of ["atlas", "borealis", "cygnus"]) first.tenant({ name, phase: "Failed", detail: `${name} failed` });
    first.tenant({ name: "dorado", phase: "Ready" });
    expect(readFailures(dir)).toEqual({}); // written at the end
    first.end(false);
    expect(readFailures(dir)).toEqual({ atlas: "atlas failed", borealis: "borealis failed", cygnus: "cygnus failed" });
    expect(statSync(path.join(dir, "failures.json")).mode & 0o777).toBe(0o600);

    const second = journalAt(2, dir, "create atlas");
    second.tenant({ name: "atlas", phase: "Ready" });
    second.tenant({ name: "borealis", phase: "Deleted" });
    second.tenant({ name: "cygnus", phase: "Provisioning" });
    second.end(false);
    expect(readFailures(dir)).toEqual({ cygnus: "cygnus failed" });

    const third = journalAt(3, dir, "create cygnus");
    third.tenant({ name: "cygnus", phase: "Failed", detail: "still failing" });
    third.end(false);
    expect(readFailures(dir)).toEqual({ cygnus: "still failing" });

    journalAt(4, dir, "create zeta").end(true);
    expect(readFailures(dir)).toEqual({});
    expect(readdirSync(dir).filter((f) => !f.endsWith(".jsonl"))).toEqual(["failures.json"]);
  });
});

describe("activeJournals and livePhases", () => {
  it("see the runs going on (no end line, process alive), not the ended or the killed ones", () => {
    const dir = runsDir("tenants");
    const ended = journalAt(1, dir, "create borealis");
    ended.tenant({ name: "borealis", phase: "Provisioning" });
    ended.end(true);
    const killed = journalOfProcess(dir, deadPid());
    appendFileSync(killed, `${JSON.stringify({ kind: "tenant", at: "2026-01-01T00:00:01.000Z", name: "cygnus", phase: "Provisioning" })}\n`);
    const running = journalAt(2, dir, "create atlas");
    running.tenant({ name: "atlas", phase: "Pending" });
    running.tenant({ name: "atlas", phase: "Provisioning" });
    running.tenant({ name: "atlas", detail: "creating Release atlas-vcluster" });

    expect(activeJournals(dir)).toEqual([running.file]);
    expect(livePhases(dir)).toEqual(new Map([["atlas", "Provisioning"]]));
    running.end(true);
    expect(activeJournals(dir)).toEqual([]);
    expect(livePhases(dir)).toEqual(new Map());
  });
});

describe("tenantsBeingDeleted", () => {
  it("names the tenant a running delete removes, until that run ends", () => {
    const dir = runsDir("tenants");
    const create = journalAt(1, dir, "create atlas");
    const remove = journalAt(2, dir, "delete borealis", "borealis");
    expect(entriesOf(remove.file)[0]).toEqual(expect.objectContaining({ kind: "start", operation: "delete borealis", deleting: "borealis" }));
    expect(entriesOf(create.file)[0]).not.toHaveProperty("deleting");
    expect(tenantsBeingDeleted(dir)).toEqual(new Set(["borealis"]));
    remove.end(true);
    expect(tenantsBeingDeleted(dir)).toEqual(new Set());
  });
});

describe("journal pruning", () => {
  it("keeps the newest 20 finished journals and every running one when a run starts", () => {
    const dir = runsDir("tenants");
    const oldestRunning = journalAt(0, dir, "create atlas");
    const ended = Array.from({ length: 21 }, (_, i) => {
      const journal = journalAt(i + 1, dir, `create t${i + 1}`);
      journal.end(true);
      return journal.file;
    });
    const next = journalAt(30, dir, "create zeta");
    const journals = readdirSync(dir).filter((file) => file.endsWith(".jsonl")).map((file) => path.join(dir, file)).sort();
    expect(journals).toEqual([oldestRunning.file, ...ended.slice(1), next.file]);
  });
});

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe("followTenant", () => {
  it("delivers the named tenant's events, those written before it and after, until the run ends", async () => {
    const dir = runsDir("tenants");
    const journal = new RunJournal(dir, "create atlas");
    journal.tenant({ name: "atlas", phase: "Pending" });
    const seen: TenantEvent[] = [];
    let delivered = signal();
    const following = followTenant(dir, "atlas", (event) => {
      seen.push(phaseOf(event));
      delivered.resolve();
    });

    await delivered.promise;
    expect(seen).toEqual([{ name: "atlas", phase: "Pending" }]);

    delivered = signal();
    journal.tenant({ name: "borealis", phase: "Provisioning" });
    journal.tenant({ name: "atlas", phase: "Provisioning", detail: "creating Namespace atlas-namespace" });
    await delivered.promise;
    expect(seen).toHaveLength(2);

    journal.tenant({ name: "atlas", phase: "Ready", detail: "done: Tenant atlas" });
    journal.end(true);
    await following;
    expect(seen).toEqual([
      { name: "atlas", phase: "Pending" },
      { name: "atlas", phase: "Provisioning", detail: "creating Namespace atlas-namespace" },
      { name: "atlas", phase: "Ready", detail: "done: Tenant atlas" },
    ]);
  });

  it("resolves at once, delivering nothing, when no run is going on", async () => {
    const dir = runsDir("tenants");
    const ended = new RunJournal(dir, "create atlas");
    ended.tenant({ name: "atlas", phase: "Ready" });
    ended.end(true);
    journalOfProcess(dir, deadPid());
    const seen: TenantEvent[] = [];
    await followTenant(dir, "atlas", (event) => seen.push(event));
    expect(seen).toEqual([]);
  });

  it("stops when the running update's process dies without an end line", async () => {
    const dir = runsDir("tenants");
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
    try {
      await once(child, "spawn");
      const file = journalOfProcess(dir, child.pid!);
      appendFileSync(file, `${JSON.stringify({ kind: "tenant", at: "2026-01-01T00:00:01.000Z", name: "atlas", phase: "Provisioning" })}\n`);
      const seen: TenantEvent[] = [];
      const following = followTenant(dir, "atlas", (event) => seen.push(phaseOf(event)));
      expect(activeJournals(dir)).toEqual([file]);
      child.kill("SIGKILL");
      await once(child, "exit");
      await following;
      expect(seen).toEqual([{ name: "atlas", phase: "Provisioning" }]);
      expect(activeJournals(dir)).toEqual([]);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
