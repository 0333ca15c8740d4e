/** Run journals as files: each run of a tenant written as it happens, read by `get` and followed live by `watch`. */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FileRunJournals } from "../../provider/tenants/local/fileRunJournals";
import { processStartedAtMs, type ProcessIdentity } from "../../provider/tenants/local/processIdentity";
import type { TenantEvent } from "../../provider/tenants/tenantObject";
import { temporaryFolderEach } from "./support/temporaryFolder";

const dir = temporaryFolderEach("kubespaces-runs-");
let journals: FileRunJournals;
beforeEach(() => {
  journals = new FileRunJournals(path.join(dir(), "runs"));
});
afterEach(() => {
  vi.useRealTimers();
});

const me = (): ProcessIdentity => ({ pid: process.pid, startedAtMs: processStartedAtMs(process.pid) });
/** The pid of a process that has exited. */
const deadPid = () => spawnSync("true").pid!;

/** Runs started second `second` of the clock: a journal is named after its start time, so two runs of a tenant need two. */
function startAt(second: number, name: string, operation: "create" | "delete" = "create", generation = 1) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 1, 0, 0, second) });
  try {
    return journals.start(name, operation, generation);
  } finally {
    vi.useRealTimers();
  }
}

const folderOf = (name: string) => path.join(journals.dir, name);
const filesOf = (name: string) => (existsSync(folderOf(name)) ? readdirSync(folderOf(name)).sort() : []);
const linesOf = (file: string) =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A journal written by hand, as process `process` would: its start line, then `rest` as raw lines. */
function journalOf(name: string, writer: ProcessIdentity, rest: readonly string[] = []): string {
  mkdirSync(folderOf(name), { recursive: true });
  const file = path.join(folderOf(name), `2026-01-01T00-00-00-000Z-${writer.pid}.jsonl`);
  const start = { kind: "start", at: "2026-01-01T00:00:00.000Z", operation: "create", generation: 1, process: writer };
  writeFileSync(file, [JSON.stringify(start), ...rest].map((line) => `${line}\n`).join(""));
  return file;
}
const eventLine = (event: TenantEvent) => JSON.stringify({ kind: "event", at: "2026-01-01T00:00:01.000Z", ...event });

describe("start", () => {
  it("writes the start, each event and the end as JSON lines, owner-only, in the tenant's folder", () => {
    const run = startAt(7, "atlas", "create", 3);
    run.event({ name: "atlas", phase: "Pending" });
    run.event({ name: "atlas", detail: "creating Namespace atlas-namespace" });
    run.end({ ok: true, message: "ready" });
    const [file] = filesOf("atlas");
    expect(file).toMatch(new RegExp(`^2026-01-01T00-00-07-000Z-${process.pid}-\\d{6}\\.jsonl$`));
    expect(statSync(path.join(folderOf("atlas"), file)).mode & 0o777).toBe(0o600);
    expect(statSync(folderOf("atlas")).mode & 0o777).toBe(0o700);
    expect(linesOf(path.join(folderOf("atlas"), file)).map(({ at: _at, ...line }) => line)).toEqual([
      { kind: "start", operation: "create", generation: 3, process: me() },
      { kind: "event", name: "atlas", phase: "Pending" },
      { kind: "event", name: "atlas", detail: "creating Namespace atlas-namespace" },
      { kind: "end", outcome: { ok: true, message: "ready" } },
    ]);
  });

  it("keeps the newest five journals of a tenant, and leaves other tenants' alone", () => {
    startAt(0, "borealis").end({ ok: true, message: "ready" });
    for (let second = 1; second <= 7; second++) startAt(second, "atlas").end({ ok: true, message: "ready" });
    expect(filesOf("atlas").map((file) => file.replace(/-\d{6}\.jsonl$/, ".jsonl"))).toEqual(
      [3, 4, 5, 6, 7].map((s) => `2026-01-01T00-00-0${s}-000Z-${process.pid}.jsonl`),
    );
    expect(filesOf("borealis")).toHaveLength(1);
  });

  // A journal's name has a sequence number beside the start time and pid.
  it("records two runs started in the same millisecond as two runs", async () => {
    startAt(1, "atlas").end({ ok: false, reason: "QuotaFailed", message: "exceeded quota" });
    startAt(1, "atlas").end({ ok: true, message: "ready" });
    expect((await journals.latest("atlas"))?.outcome).toEqual({ ok: true, message: "ready" });
  });
});

describe("latest", () => {
  it.each(["create", "delete"] as const)("tells a running %s, then how it ended", async (operation) => {
    const run = startAt(5, "atlas", operation, 2);
    run.event({ name: "atlas", phase: operation === "create" ? "Provisioning" : "Deleting", detail: "step" });
    const running = await journals.latest("atlas");
    expect(running).toEqual({
      operation,
      startedAt: "2026-01-01T00:00:05.000Z",
      generation: 2,
      running: true,
      events: [{ name: "atlas", phase: operation === "create" ? "Provisioning" : "Deleting", detail: "step" }],
    });
    run.end({ ok: false, interrupted: true, message: "interrupted" });
    expect(await journals.latest("atlas")).toEqual({
      ...running,
      running: false,
      outcome: { ok: false, interrupted: true, message: "interrupted" },
    });
  });

  it("reads the newest run of several, and nothing for a tenant without runs", async () => {
    startAt(1, "atlas").end({ ok: false, reason: "QuotaFailed", message: "exceeded quota" });
    startAt(2, "atlas").end({ ok: true, message: "ready" });
    expect((await journals.latest("atlas"))?.outcome).toEqual({ ok: true, message: "ready" });
    expect(await journals.latest("borealis")).toBeUndefined();
  });

  it.each<[string, () => ProcessIdentity, boolean]>([
    ["this process, with its start time", me, true],
    [
      "this pid with another start time (the pid was reused)",
      () => ({ pid: process.pid, startedAtMs: me().startedAtMs! - 60_000 }),
      false,
    ],
    ["this pid, where the start time was not known", () => ({ pid: process.pid }), true],
    ["a process that has exited", () => ({ pid: deadPid() }), false],
    ["pid 0", () => ({ pid: 0 }), false],
    ["a negative pid", () => ({ pid: -1 }), false],
  ])("counts a run without an end line as running while its writer runs: %s", async (_, writer, running) => {
    journalOf("atlas", writer());
    expect((await journals.latest("atlas"))?.running).toBe(running);
  });

  it("passes over malformed lines and a line still being written", async () => {
    const file = journalOf("atlas", me(), [
      "not json",
      "42",
      "null",
      '{"no":"kind"}',
      eventLine({ name: "atlas", phase: "Provisioning" }),
    ]);
    appendFileSync(file, '{"kind":"end","at":"2026-01-01T00:00:02.000Z","outcome":{"ok":tr');
    expect(await journals.latest("atlas")).toMatchObject({
      running: true,
      events: [{ name: "atlas", phase: "Provisioning" }],
    });
    expect((await journals.latest("atlas"))?.outcome).toBeUndefined();
  });

  it("finds no run in a journal without a start line", async () => {
    mkdirSync(folderOf("atlas"), { recursive: true });
    writeFileSync(
      path.join(folderOf("atlas"), "2026-01-01T00-00-00-000Z-1.jsonl"),
      `${eventLine({ name: "atlas", phase: "Ready" })}\n`,
    );
    expect(await journals.latest("atlas")).toBeUndefined();
  });
});

describe("forget", () => {
  it("removes a tenant's journals only", async () => {
    startAt(1, "atlas").end({ ok: true, message: "ready" });
    startAt(1, "borealis").end({ ok: true, message: "ready" });
    await journals.forget("atlas");
    expect(existsSync(folderOf("atlas"))).toBe(false);
    expect(await journals.latest("borealis")).toBeDefined();
  });
});

describe("names that are not tenant names", () => {
  it.each(["../victim", "..", "Atlas", "a/b", "", "-atlas"])(
    "%j is refused by every operation, touching nothing outside",
    async (name) => {
      const victim = path.join(dir(), "victim");
      mkdirSync(victim);
      writeFileSync(path.join(victim, "keep.jsonl"), "{}\n");
      expect(() => journals.start(name, "create", 1)).toThrow(/not a tenant name/);
      await expect(journals.latest(name)).rejects.toThrow(/not a tenant name/);
      await expect(journals.forget(name)).rejects.toThrow(/not a tenant name/);
      expect(() => journals.follow(name)).toThrow(/not a tenant name/);
      expect(readdirSync(victim)).toEqual(["keep.jsonl"]);
      expect(existsSync(journals.dir)).toBe(false);
    },
  );
});

describe("follow", () => {
  it("delivers the tenant's events, those written before it and after, until the run ends", async () => {
    const run = journals.start("atlas", "create", 1);
    const other = journals.start("borealis", "create", 1);
    run.event({ name: "atlas", phase: "Pending" });
    const following = journals.follow("atlas")[Symbol.asyncIterator]();
    expect(await following.next()).toEqual({ done: false, value: { name: "atlas", phase: "Pending" } });

    other.event({ name: "borealis", phase: "Provisioning" });
    run.event({ name: "atlas", phase: "Provisioning", detail: "creating Namespace atlas-namespace" });
    expect(await following.next()).toEqual({
      done: false,
      value: { name: "atlas", phase: "Provisioning", detail: "creating Namespace atlas-namespace" },
    });

    run.event({ name: "atlas", phase: "Ready" });
    run.end({ ok: true, message: "ready" });
    expect(await following.next()).toEqual({ done: false, value: { name: "atlas", phase: "Ready" } });
    expect(await following.next()).toEqual({ done: true, value: undefined });
    other.end({ ok: true, message: "ready" });
  });

  it.each<[string, () => void]>([
    ["no journal", () => {}],
    ["an ended run", () => startAt(1, "atlas").end({ ok: true, message: "ready" })],
    [
      "a run whose writer is gone",
      () => journalOf("atlas", { pid: deadPid() }, [eventLine({ name: "atlas", phase: "Provisioning" })]),
    ],
  ])("ends at once, delivering nothing, with %s", async (_, given) => {
    given();
    const following = journals.follow("atlas")[Symbol.asyncIterator]();
    expect(await following.next()).toEqual({ done: true, value: undefined });
  });

  it("ends when its signal aborts", async () => {
    const run = journals.start("atlas", "create", 1);
    run.event({ name: "atlas", phase: "Pending" });
    const stop = new AbortController();
    const following = journals.follow("atlas", stop.signal)[Symbol.asyncIterator]();
    expect((await following.next()).value).toEqual({ name: "atlas", phase: "Pending" });
    const next = following.next();
    stop.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    run.end({ ok: true, message: "ready" });
  });

  it("ends when the writer dies without an end line, at the next liveness check", async () => {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      await once(child, "spawn");
      journalOf("atlas", { pid: child.pid!, startedAtMs: processStartedAtMs(child.pid!) }, [
        eventLine({ name: "atlas", phase: "Provisioning" }),
      ]);
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      const following = journals.follow("atlas")[Symbol.asyncIterator]();
      expect(await following.next()).toEqual({ done: false, value: { name: "atlas", phase: "Provisioning" } });
      let ended = false;
      const next = following.next().finally(() => (ended = true));
      child.kill("SIGKILL");
      await once(child, "exit");
      await vi.advanceTimersByTimeAsync(1000);
      expect(ended).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      expect(await next).toEqual({ done: true, value: undefined });
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("forget", () => {
  it("keeps the journal of a run still going (a create that waited behind the delete) and removes the rest", async () => {
    const ended = journals.start("atlas", "delete", 1);
    ended.end({ ok: true, message: "tenant atlas deleted" });
    const going = journals.start("atlas", "create", 1);
    going.event({ name: "atlas", phase: "Pending" });
    await journals.forget("atlas");
    const latest = await journals.latest("atlas");
    expect(latest).toMatchObject({ operation: "create", running: true });
    going.end({ ok: true, message: "ready" });
    await journals.forget("atlas");
    expect(await journals.latest("atlas")).toBeUndefined();
  });
});
