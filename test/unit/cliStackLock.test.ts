/** The tenants stack's lock: who holds it, read from the engine's refusal, and whether that holder is gone. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConcurrentUpdateError } from "@pulumi/pulumi/automation";
import { beforeEach, describe, expect, it } from "vitest";
import { CliError, EXIT } from "../../provider/cli/exitCodes";
import { describeHolders, lockHolders, staleLockHolders, withStackLock, type LockHolder } from "../../provider/cli/stackLock";

/**
 * The diy backend's refusal, as pkg/backend/diy/lock.go writes it: one sentence, then a line per lock
 * file `"\n  " + fmt.Sprintf("%v: created by %v@%v (pid %v) at %v", url, user, host, pid, RFC3339 time)`.
 */
function lockedMessage(locks: readonly string[], lockUrl = lockAt): string {
  return (
    `the stack is currently locked by ${locks.length} lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.` +
    locks.map((lock, i) => `\n  ${lockUrl(i)}: created by ${lock}`).join("")
  );
}

/** The URL of lock `i` in a file backend. */
function lockAt(i: number): string {
  return `file:///x/.pulumi/locks/organization/kubespaces-tenants/tenants/${i}.json`;
}

/** A holder of lock `i`. */
const held = (i: number, user: string, hostname: string, pid: number, since: string): LockHolder => ({ lock: lockAt(i), user, hostname, pid, since });

describe("lockHolders", () => {
  it.each<[string, string, LockHolder[]]>([
    ["one lock", lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"]), [held(0, "root", "host1", 1234, "2026-11-30T23:00:00Z")]],
    [
      "two locks, one with a time zone offset",
      lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z", "alice@laptop.local (pid 99) at 2026-12-01T08:15:00+01:00"]),
      [held(0, "root", "host1", 1234, "2026-11-30T23:00:00Z"), held(1, "alice", "laptop.local", 99, "2026-12-01T08:15:00+01:00")],
    ],
    [
      "the Automation API's error around it",
      `code: 255\n stdout: \n stderr: error: ${lockedMessage(["ci@runner-7 (pid 42) at 2026-01-02T03:04:05Z"])}\n`,
      [held(0, "ci", "runner-7", 42, "2026-01-02T03:04:05Z")],
    ],
    ["a user name with an @ (the host is after the last one)", lockedMessage(["a@corp@host1 (pid 7) at 2026-01-02T03:04:05Z"]), [held(0, "a@corp", "host1", 7, "2026-01-02T03:04:05Z")]],
    [
      "a lock the Automation API's error repeats (its stdout and its stderr)",
      `${lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"])}\n${lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"])}`,
      [held(0, "root", "host1", 1234, "2026-11-30T23:00:00Z")],
    ],
    ["a cloud backend's conflict, which names no holder", "[409] Conflict: Another update is currently in progress.", []],
  ])("%s", (_, message, holders) => {
    expect(lockHolders(message)).toEqual(holders);
  });
});

describe("staleLockHolders", () => {
  const here = os.hostname();
  /** The pid of a process that has exited. */
  const deadPid = spawnSync("true").pid;
  const holder = (hostname: string, pid: number): LockHolder => held(0, "root", hostname, pid, "2026-11-30T23:00:00Z");

  it.each<[string, LockHolder, boolean]>([
    ["a holder on this machine whose process has exited is stale", holder(here, deadPid), true],
    ["a holder on this machine whose process runs is not", holder(here, process.pid), false],
    ["a holder on another machine is never stale", holder(`not-${here}`, deadPid), false],
  ])("%s", (_, lock, stale) => {
    expect(staleLockHolders([lock])).toEqual(stale ? [lock] : []);
  });

  it("keeps only the stale holders of several, on the hostname given", () => {
    const holders = [holder("host1", deadPid), holder("host1", process.pid), holder("host2", deadPid)];
    expect(staleLockHolders(holders, "host1")).toEqual([holders[0]]);
  });
});

describe("describeHolders", () => {
  it("says who holds the lock, or that nobody is known", () => {
    expect(describeHolders([held(0, "root", "host1", 1234, "2026-11-30T23:00:00Z")])).toBe("pid 1234 of root@host1 since 2026-11-30T23:00:00Z");
    expect(describeHolders([])).toBe("holder unknown");
  });
});

describe("withStackLock", () => {
  const deadPid = spawnSync("true").pid;
  /** The engine's refusal as the Automation API throws it. */
  const refusal = (message: string) => new ConcurrentUpdateError({ toString: () => message } as never);
  const wait = (timeoutMs: number, signal?: AbortSignal) => ({ stackName: "tenants", note: (text: string) => notes.push(text), timeoutMs, signal });
  let notes: string[] = [];
  beforeEach(() => {
    notes = [];
  });

  it("removes the one lock file of a dead holder on this machine, says so, and runs the operation again", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-locks-"));
    const [dead, other] = [path.join(dir, "dead.json"), path.join(dir, "other.json")];
    writeFileSync(dead, "{}");
    writeFileSync(other, "{}");
    const attempts: number[] = [];
    const operation = async () => {
      attempts.push(attempts.length);
      if (attempts.length === 1) throw refusal(lockedMessage([`root@${os.hostname()} (pid ${deadPid}) at 2026-11-30T23:00:00Z`], () => pathToFileURL(dead).href));
      return "done";
    };
    expect(await withStackLock(wait(0), operation)).toBe("done");
    expect(attempts).toEqual([0, 1]);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(notes).toEqual([`removing the lock of an update that is gone (pid ${deadPid} of root@${os.hostname()} since 2026-11-30T23:00:00Z)`]);
  });

  it("leaves a dead holder's lock in a remote backend to the user, naming the command that removes it", async () => {
    const message = lockedMessage([`root@${os.hostname()} (pid ${deadPid}) at 2026-11-30T23:00:00Z`], () => "s3://bucket/.pulumi/locks/x.json");
    const error = await withStackLock(wait(0), () => Promise.reject(refusal(message))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe(EXIT.busy);
    expect((error as CliError).message).toContain("`pulumi cancel --stack tenants`");
  });

  it("gives up on a live holder after the timeout with exit code 5, naming the holder", async () => {
    const message = lockedMessage([`root@${os.hostname()} (pid ${process.pid}) at 2026-11-30T23:00:00Z`]);
    const error = await withStackLock(wait(0), () => Promise.reject(refusal(message))).catch((e: unknown) => e);
    expect((error as CliError).code).toBe(EXIT.busy);
    expect((error as CliError).message).toBe(`the tenants stack is still locked by another update after 0s (pid ${process.pid} of root@${os.hostname()} since 2026-11-30T23:00:00Z); try again later, or raise --lock-timeout`);
  });

  it("stops waiting at once when the user interrupts", async () => {
    const interrupt = new AbortController();
    const message = lockedMessage([`root@${os.hostname()} (pid ${process.pid}) at 2026-11-30T23:00:00Z`]);
    const operation = () => {
      interrupt.abort();
      return Promise.reject(refusal(message));
    };
    const error = await withStackLock(wait(60_000, interrupt.signal), operation).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrentUpdateError);
    expect(notes).toEqual([]);
  });

  it("passes other errors through untouched", async () => {
    const failure = new Error("engine failed");
    await expect(withStackLock(wait(0), () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
