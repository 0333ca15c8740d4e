/** A tenant stack's lock: the lock files found by listing the stack's lock folder, which of them are stale, and the wait for the rest. */
import { spawnSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  cancelCommand,
  describeLocks,
  fileLocks,
  isStale,
  listLocks,
  lockFolder,
  withStackLock,
  type LockWait,
  type StackLock,
} from "../../provider/tenants/automation/stackLock";
import { processStartedAtMs } from "../../provider/tenants/local/processIdentity";
import { StackBusyError } from "../../provider/tenants/tenantsErrors";
import { temporaryFolderEach } from "./support/temporaryFolder";

/**
 * The wait's pauses, on a fake clock: only Date is faked, and each pause the lock wait asks for
 * moves it on by that long, then goes to Node's own timers/promises pause for 0 ms (so that an
 * abort signal is handled, and its listener removed, by Node's code, not by a stand-in).
 */
const clock = vi.hoisted(() => ({ pauses: [] as number[], onPause: undefined as (() => void) | undefined }));
vi.mock("node:timers/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:timers/promises")>();
  return {
    ...actual,
    setTimeout: (ms: number, value?: unknown, options?: { signal?: AbortSignal }) => {
      clock.pauses.push(ms);
      vi.setSystemTime(Date.now() + ms);
      clock.onPause?.();
      return actual.setTimeout(0, value, options);
    },
  };
});

const here = os.hostname();
/** The pid of a process that has exited. */
const deadPid = spawnSync("true").pid!;
/** Before this process started: a lock "taken" then by this pid was taken by another process. */
const beforeThisProcess = new Date(processStartedAtMs(process.pid)! - 3_600_000).toISOString();

/** A stand-in for the engine's "stack is locked" refusal (the Automation API's ConcurrentUpdateError). */
class EngineLockedError extends Error {}

const folder = temporaryFolderEach("kubespaces-locks-");
let notes: string[];
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  notes = [];
  clock.pauses = [];
  clock.onPause = undefined;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Writes lock file `name` as the engine would (pkg/backend/diy/lock.go's lockContent), plus `extra`. */
function writeLock(
  name: string,
  holder: { pid?: number; hostname?: string; timestamp?: string },
  extra: object = {},
): string {
  const file = path.join(folder(), name);
  writeFileSync(
    file,
    JSON.stringify({
      pid: holder.pid,
      username: "root",
      hostname: holder.hostname,
      timestamp: holder.timestamp,
      ...extra,
    }),
  );
  return file;
}
const now = () => new Date().toISOString();
const staleLock = (name: string, extra?: object) =>
  writeLock(name, { pid: deadPid, hostname: here, timestamp: now() }, extra);
const liveLock = (name: string) => writeLock(name, { pid: process.pid, hostname: here, timestamp: now() });

/** What the wait's error names as the way to remove a lock by hand. */
const CANCEL = "PULUMI_BACKEND_URL=s3://bucket pulumi cancel --stack organization/kubespaces/atlas";

const waitFor = (timeoutMs: number, options: Partial<LockWait> = {}): LockWait => ({
  tenant: "atlas",
  locks: fileLocks(folder()),
  cancelCommand: CANCEL,
  isLocked: (error) => error instanceof EngineLockedError,
  note: (text) => notes.push(text),
  timeoutMs,
  ...options,
});

/** An operation refused `refusals` times, then done; counts its attempts. */
function refusedTimes(refusals: number, before: () => void = () => {}) {
  const operation = vi.fn(async () => {
    before();
    if (operation.mock.calls.length <= refusals)
      throw new EngineLockedError("the stack is currently locked by 1 lock(s)");
    return "done";
  });
  return operation;
}

describe("lockFolder", () => {
  it.each<[string, string | undefined]>([
    ["file:///var/state", "/var/state/.pulumi/locks/organization/tenants/atlas"],
    ["file:///var/state/", "/var/state/.pulumi/locks/organization/tenants/atlas"],
    ["s3://bucket/state", undefined],
    ["https://api.pulumi.com", undefined],
  ])("of %s is %s", (url, expected) => {
    expect(lockFolder(url, "tenants", "atlas")).toBe(expected);
  });

  // Pulumi's home-folder form of a file backend.
  it("of file://~/state is in the home folder", () => {
    expect(lockFolder("file://~/state", "tenants", "atlas")).toBe(
      path.join(os.homedir(), "state", ".pulumi", "locks", "organization", "tenants", "atlas"),
    );
  });
});

describe("listLocks", () => {
  it("lists the regular .json files of the folder with what they say, and nothing else", () => {
    const live = liveLock("a.json");
    const broken = path.join(folder(), "b.json");
    writeFileSync(broken, "{not json");
    writeFileSync(path.join(folder(), "c.json"), JSON.stringify({ pid: "12", hostname: 7 }));
    writeFileSync(path.join(folder(), "notes.txt"), "{}");
    writeFileSync(
      path.join(folder(), "huge.json"),
      JSON.stringify({ pid: deadPid, hostname: here, timestamp: now(), pad: "x".repeat(5000) }),
    );
    mkdirSync(path.join(folder(), "dir.json"));
    symlinkSync(live, path.join(folder(), "link.json"));
    expect(listLocks(folder()).sort((x, y) => x.file.localeCompare(y.file))).toEqual([
      { file: live, pid: process.pid, username: "root", hostname: here, timestamp: expect.any(String) },
      { file: broken },
      {
        file: path.join(folder(), "c.json"),
        pid: undefined,
        username: undefined,
        hostname: undefined,
        timestamp: undefined,
      },
    ]);
  });

  it.each([undefined, "/nonexistent/kubespaces-locks"])("finds none in %s", (where) => {
    expect(listLocks(where)).toEqual([]);
  });
});

describe("isStale", () => {
  const lock = (fields: Partial<StackLock>): StackLock => ({
    file: "/locks/x.json",
    username: "root",
    hostname: here,
    pid: deadPid,
    timestamp: now(),
    ...fields,
  });
  it.each<[string, Partial<StackLock>, boolean]>([
    ["this machine's, its process gone", {}, true],
    ["this machine's, its process running", { pid: process.pid }, false],
    [
      "this machine's, its pid now a process that started after the lock was taken",
      { pid: process.pid, timestamp: beforeThisProcess },
      true,
    ],
    ["another machine's, its pid gone here", { hostname: `not-${here}` }, false],
    ["without a hostname", { hostname: undefined }, false],
    ["without a pid", { pid: undefined }, false],
    ["without a timestamp", { timestamp: undefined }, false],
    ["with a timestamp that is no time", { timestamp: "yesterday" }, false],
  ])("a lock %s: %s", (_, fields, stale) => {
    expect(isStale(lock(fields))).toBe(stale);
  });

  it("compares with the hostname given", () => {
    expect(isStale(lock({ hostname: "host1" }), "host1")).toBe(true);
    expect(isStale(lock({}), "host1")).toBe(false);
  });
});

describe("describeLocks", () => {
  it("quotes what the files say as data, and says when nobody is known", () => {
    const odd: StackLock = {
      file: "/x.json",
      pid: 7,
      username: 'a"b\nc',
      hostname: "h",
      timestamp: "2026-01-01T00:00:00Z",
    };
    expect(describeLocks([odd])).toBe(`pid 7 of ${JSON.stringify('a"b\nc@h')} since 2026-01-01T00:00:00Z`);
    expect(describeLocks([{ file: "/y.json" }])).toBe('pid ? of "?@?" since ?');
    expect(describeLocks([])).toBe("holder unknown");
  });
});

describe("cancelCommand", () => {
  it.each<[string, string]>([
    ["file:///var/state", "PULUMI_BACKEND_URL=file:///var/state pulumi cancel --stack organization/tenants/atlas"],
    ["s3://bucket/state", "PULUMI_BACKEND_URL=s3://bucket/state pulumi cancel --stack organization/tenants/atlas"],
    [
      "s3://bucket?region=eu-west-1&awssdk=v2",
      "PULUMI_BACKEND_URL='s3://bucket?region=eu-west-1&awssdk=v2' pulumi cancel --stack organization/tenants/atlas",
    ],
    [
      "postgres://kube:s3cret@db.example.com/state",
      "PULUMI_BACKEND_URL=postgres://kube:PASSWORD@db.example.com/state pulumi cancel --stack organization/tenants/atlas",
    ],
    [
      "https://api.pulumi.com",
      "PULUMI_BACKEND_URL=https://api.pulumi.com pulumi cancel --stack <organization>/tenants/atlas",
    ],
    [
      "postgres://kube@db.example.com/state?sslmode=require&password=s3cret",
      "PULUMI_BACKEND_URL='postgres://kube@db.example.com/state?sslmode=require&password=PASSWORD' pulumi cancel --stack organization/tenants/atlas",
    ],
    [
      "postgres://kube:s3cret@db.example.com/state?Password=s3cret&pass%77ord=s3cret",
      "PULUMI_BACKEND_URL='postgres://kube:PASSWORD@db.example.com/state?Password=PASSWORD&pass%77ord=PASSWORD' pulumi cancel --stack organization/tenants/atlas",
    ],
  ])("for %s is %s", (url, expected) => {
    expect(cancelCommand(url, "tenants", "atlas")).toBe(expected);
  });
});

describe("withStackLock", () => {
  it("removes the lock file of a gone holder on this machine, that file only, says so, and runs again at once", async () => {
    const dead = staleLock("dead.json");
    const other = liveLock("other.json");
    const [deadLock] = listLocks(folder()).filter((l) => l.file === dead);
    const operation = refusedTimes(1);
    expect(await withStackLock(waitFor(60_000), operation)).toBe("done");
    expect(operation).toHaveBeenCalledTimes(2);
    expect([existsSync(dead), existsSync(other)]).toEqual([false, true]);
    expect(notes).toEqual([`removing the lock of an update that is gone (${describeLocks([deadLock])})`]);
    expect(clock.pauses).toEqual([]);
  });

  it.each<[string, number, () => void]>([
    ["with no wait at all (--lock-timeout 0)", 0, () => {}],
    ["when the deadline was spent before the refusal", 60_000, () => vi.setSystemTime(Date.now() + 61_000)],
  ])("tries again after removing a dead holder's lock, %s", async (_, timeoutMs, slowAttempt) => {
    const dead = staleLock("dead.json");
    const operation = refusedTimes(1, slowAttempt);
    expect(await withStackLock(waitFor(timeoutMs), operation)).toBe("done");
    expect(operation).toHaveBeenCalledTimes(2);
    expect(existsSync(dead)).toBe(false);
  });

  it("names only a live holder when it gives up, never the lock it removed", async () => {
    const dead = staleLock("dead.json");
    const [deadLock] = listLocks(folder());
    const live = liveLock("live.json");
    const liveHolder = describeLocks(listLocks(folder()).filter((l) => l.file === live));
    const operation = refusedTimes(Infinity);
    const error = (await withStackLock(waitFor(0), operation).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(StackBusyError);
    expect(operation).toHaveBeenCalledTimes(2);
    expect(error.message).toContain(`(${liveHolder})`);
    expect(error.message).not.toContain(describeLocks([deadLock]));
    expect(error.message).not.toContain("pulumi cancel");
    expect(existsSync(dead)).toBe(false);
  });

  it.each<[string, () => Partial<LockWait>]>([
    ["in a remote backend, where no lock can be listed", () => ({ locks: undefined })],
    [
      "for another machine's lock, which cannot be judged from here",
      () => (writeLock("theirs.json", { pid: deadPid, hostname: `not-${here}`, timestamp: now() }), {}),
    ],
  ])("says how to remove the lock by hand %s, and removes nothing", async (_, setUp) => {
    const options = setUp();
    const before = readdirSync(folder());
    const error = (await withStackLock(waitFor(1000, options), refusedTimes(Infinity)).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(StackBusyError);
    expect(error.message).toContain(`\`${CANCEL}\``);
    expect(readdirSync(folder())).toEqual(before);
  });

  it("waits without judging locks it cannot read (a database that does not answer), and says so", async () => {
    const unreadable = {
      list: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")),
      remove: () => Promise.reject(new Error("never called")),
    };
    const error = await withStackLock(waitFor(1000, { locks: unreadable }), refusedTimes(Infinity)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StackBusyError);
    expect(notes).toContainEqual(
      "the stack's locks could not be read (connect ECONNREFUSED 127.0.0.1:5432); waiting without judging them",
    );
  });

  it("never follows a path a lock file names: only the listed file is removed", async () => {
    const victim = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-victim-")), "victim.json");
    writeFileSync(victim, "{}");
    try {
      const listed = staleLock("dead.json", { file: victim, url: `file://${victim}`, path: victim });
      const operation = vi.fn(async () => {
        if (operation.mock.calls.length === 1)
          throw new EngineLockedError(
            `the stack is currently locked by 1 lock(s).\n  file://${victim}: created by root@${here}`,
          );
        return "done";
      });
      expect(await withStackLock(waitFor(60_000), operation)).toBe("done");
      expect(existsSync(listed)).toBe(false);
      expect(existsSync(victim)).toBe(true);
    } finally {
      rmSync(path.dirname(victim), { recursive: true, force: true });
    }
  });

  it("ignores a symlink in the lock folder: neither it nor what it points at is removed", async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "kubespaces-victim-"));
    try {
      const victim = path.join(elsewhere, "victim.json");
      writeFileSync(victim, JSON.stringify({ pid: deadPid, hostname: here, timestamp: now() }));
      symlinkSync(victim, path.join(folder(), "link.json"));
      expect(await withStackLock(waitFor(60_000), refusedTimes(1))).toBe("done");
      expect(readdirSync(folder())).toEqual(["link.json"]);
      expect(existsSync(victim)).toBe(true);
      expect(notes).toEqual(["waiting for another update of tenant atlas's stack to finish (holder unknown)"]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("leaves another machine's lock alone, though its pid is gone here", async () => {
    const theirs = writeLock("theirs.json", { pid: deadPid, hostname: `not-${here}`, timestamp: now() });
    expect(await withStackLock(waitFor(60_000), refusedTimes(1))).toBe("done");
    expect(existsSync(theirs)).toBe(true);
  });

  it("removes the lock of a machine the caller knows is gone (a replica whose Lease went unrenewed), and leaves a live machine's", async () => {
    const gone = writeLock("gone.json", { pid: 4242, hostname: "replica-gone", timestamp: now() });
    const live = writeLock("live.json", { pid: 4243, hostname: "replica-live", timestamp: now() });
    const isHostGone = (hostname: string) => hostname === "replica-gone";
    expect(await withStackLock(waitFor(60_000, { isHostGone }), refusedTimes(1))).toBe("done");
    expect([existsSync(gone), existsSync(live)]).toEqual([false, true]);
    expect(notes).toEqual([
      expect.stringMatching(/removing the lock of an update that is gone \(pid 4242 of "root@replica-gone"/),
    ]);
  });

  it("never judges a lock of this machine by the gone machines: its process is checked", async () => {
    const mine = liveLock("mine.json");
    expect(await withStackLock(waitFor(60_000, { isHostGone: () => true }), refusedTimes(1))).toBe("done");
    expect(existsSync(mine)).toBe(true);
  });

  it("waits with a growing pause, telling once, and gives up at the deadline with StackBusyError naming the holder", async () => {
    liveLock("live.json");
    const holders = describeLocks(listLocks(folder()));
    const error = await withStackLock(waitFor(5000), refusedTimes(Infinity)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StackBusyError);
    expect(error).toMatchObject({ tenant: "atlas", waitedMs: 5000 });
    expect((error as Error).message).toContain(holders);
    expect(notes).toEqual([`waiting for another update of tenant atlas's stack to finish (${holders})`]);
    const growing = clock.pauses.slice(0, -1);
    expect(growing[0]).toBe(250);
    expect(growing).toEqual([...growing].sort((a, b) => a - b));
    expect(growing[1]).toBeGreaterThan(growing[0]);
    expect(Math.max(...clock.pauses)).toBeLessThanOrEqual(2000);
    // The last pause is cut to the deadline: the wait lasts the timeout, not more.
    expect(clock.pauses.reduce((sum, ms) => sum + ms, 0)).toBe(5000);
  });

  it("gives up in a remote backend too, where no lock can be listed, naming no holder", async () => {
    const error = await withStackLock(waitFor(1000, { locks: undefined }), refusedTimes(Infinity)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StackBusyError);
    expect((error as Error).message).toContain("holder unknown");
  });

  it("checks the deadline after removing a stale lock, so that locks that keep coming back do not spin past it", async () => {
    // Each attempt takes 100 ms and leaves a fresh stale lock (an engine that dies holding it).
    const operation = refusedTimes(Infinity, () => {
      if (operation.mock.calls.length > 100) throw new Error("still retrying long past the deadline");
      staleLock(`dead-${operation.mock.calls.length}.json`);
      vi.setSystemTime(Date.now() + 100);
    });
    const error = await withStackLock(waitFor(1000), operation).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StackBusyError);
    expect(operation.mock.calls.length).toBeLessThanOrEqual(11);
    expect(clock.pauses).toEqual([]);
  });

  it("leaves no abort listener behind after many retries", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      liveLock("live.json");
      const stop = new AbortController();
      const listeners: number[] = [];
      const operation = refusedTimes(40, () => listeners.push(getEventListeners(stop.signal, "abort").length));
      expect(await withStackLock(waitFor(10 * 60_000, { signal: stop.signal }), operation)).toBe("done");
      expect(operation).toHaveBeenCalledTimes(41);
      expect(listeners).toEqual(listeners.map(() => 0));
      expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("stops at once, with the engine's refusal, when interrupted before the wait", async () => {
    liveLock("live.json");
    const stop = new AbortController();
    const refusal = new EngineLockedError("locked");
    const error = await withStackLock(waitFor(60_000, { signal: stop.signal }), async () => {
      stop.abort();
      throw refusal;
    }).catch((e: unknown) => e);
    expect(error).toBe(refusal);
    expect(notes).toEqual([]);
    expect(clock.pauses).toEqual([]);
  });

  it("stops at once, with the engine's refusal, when interrupted during a pause", async () => {
    liveLock("live.json");
    const stop = new AbortController();
    clock.onPause = () => stop.abort();
    const operation = refusedTimes(Infinity);
    const error = await withStackLock(waitFor(60_000, { signal: stop.signal }), operation).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineLockedError);
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it("passes any other error through untouched, also after waiting", async () => {
    const failure = new Error("engine failed");
    await expect(withStackLock(waitFor(0), () => Promise.reject(failure))).rejects.toBe(failure);
    liveLock("live.json");
    const later = vi.fn(async () => {
      if (later.mock.calls.length === 1) throw new EngineLockedError("locked");
      throw failure;
    });
    await expect(withStackLock(waitFor(60_000), later)).rejects.toBe(failure);
    expect(later).toHaveBeenCalledTimes(2);
  });
});
