/** The tenants stack's lock: who holds it, read from the engine's refusal, and whether that holder is gone. */
import { spawnSync } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { describeHolders, lockHolders, staleLockHolders, type LockHolder } from "../../provider/cli/stackLock";

/**
 * The diy backend's refusal, as pkg/backend/diy/lock.go writes it: one sentence, then a line per lock
 * file `"\n  " + fmt.Sprintf("%v: created by %v@%v (pid %v) at %v", url, user, host, pid, RFC3339 time)`.
 */
function lockedMessage(locks: readonly string[]): string {
  return (
    `the stack is currently locked by ${locks.length} lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.` +
    locks.map((lock, i) => `\n  file:///x/.pulumi/locks/organization/kubespaces-tenants/tenants/${i}.json: created by ${lock}`).join("")
  );
}

describe("lockHolders", () => {
  it.each<[string, string, LockHolder[]]>([
    ["one lock", lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"]), [{ user: "root", hostname: "host1", pid: 1234, since: "2026-11-30T23:00:00Z" }]],
    [
      "two locks, one with a time zone offset",
      lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z", "alice@laptop.local (pid 99) at 2026-12-01T08:15:00+01:00"]),
      [
        { user: "root", hostname: "host1", pid: 1234, since: "2026-11-30T23:00:00Z" },
        { user: "alice", hostname: "laptop.local", pid: 99, since: "2026-12-01T08:15:00+01:00" },
      ],
    ],
    [
      "the Automation API's error around it",
      `code: 255\n stdout: \n stderr: error: ${lockedMessage(["ci@runner-7 (pid 42) at 2026-01-02T03:04:05Z"])}\n`,
      [{ user: "ci", hostname: "runner-7", pid: 42, since: "2026-01-02T03:04:05Z" }],
    ],
    ["a user name with an @ (the host is after the last one)", lockedMessage(["a@corp@host1 (pid 7) at 2026-01-02T03:04:05Z"]), [{ user: "a@corp", hostname: "host1", pid: 7, since: "2026-01-02T03:04:05Z" }]],
    [
      "a lock the Automation API's error repeats (its stdout and its stderr)",
      `${lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"])}\n${lockedMessage(["root@host1 (pid 1234) at 2026-11-30T23:00:00Z"])}`,
      [{ user: "root", hostname: "host1", pid: 1234, since: "2026-11-30T23:00:00Z" }],
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
  const holder = (hostname: string, pid: number): LockHolder => ({ user: "root", hostname, pid, since: "2026-11-30T23:00:00Z" });

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
    expect(describeHolders([{ user: "root", hostname: "host1", pid: 1234, since: "2026-11-30T23:00:00Z" }])).toBe("pid 1234 of root@host1 since 2026-11-30T23:00:00Z");
    expect(describeHolders([])).toBe("holder unknown");
  });
});
