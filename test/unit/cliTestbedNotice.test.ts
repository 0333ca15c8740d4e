/**
 * Nothing starts the local test bed without saying so first: what starts, how long its first start
 * takes (a build of 26 to 40 minutes) and how to name a host instead. The test bed's start is a
 * stand-in that records what had been said when it was called, and stops there.
 */
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { localTenantsDoor } from "../../provider/cli/localMode/localDoor";
import { runCli } from "../../provider/cli/runCli";
import { serviceAccountHost } from "../../provider/hosts/serviceAccountHost";
import { testbedHost } from "../../provider/hosts/testbedHost";
import { FileRequestStore } from "../../provider/tenants/local/fileRequestStore";
import { FileRunJournals } from "../../provider/tenants/local/fileRunJournals";
import { HostUnavailableError } from "../../provider/tenants/tenantsErrors";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { FakeTenantStacks } from "./support/fakeTenantStacks";
import { temporaryFolderEach } from "./support/temporaryFolder";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

/** What the notice must say. */
const NOTICE_PARTS = [
  "no host cluster is named: starting the local test bed of this checkout (test/testbed/testbed.sh up)",
  "The first time, it builds",
  "26 to 40 minutes",
  "`kubespaces login --context NAME` (for `kubespaces server`, `--context NAME`)",
];

const home = temporaryFolderEach("kubespaces-notice-");
/** What had been said when the stand-in start was called; undefined: it was not called. */
let saidAtStart: string | undefined;
let said: () => string;

beforeEach(() => {
  saidAtStart = undefined;
  said = () => "";
});

/** The test bed's start, as a stand-in: records what had been said, and stops there. */
async function start(): Promise<void> {
  saidAtStart = said();
  throw new HostUnavailableError("the stand-in test bed was not started");
}

describe("the local test bed's notice", () => {
  it("tenant create --preview with no host named says it on stderr before the test bed starts", async () => {
    const stacks = new FakeTenantStacks();
    const host = testbedHost(start);
    const requests = new FileRequestStore(path.join(home(), "tenants"));
    const runs = new FileRunJournals(path.join(home(), "runs"));
    const service = new TenantsService({ requests, runs, stacks, host }, { policy: {} });
    const actor = { owner: "alice@example.com", groups: [], isAdmin: true };
    const door = localTenantsDoor({ settings: {}, service, actor, requests, host, hostQuota: async () => undefined });
    const stdout = new Captured();
    const stderr = new Captured();
    said = () => stderr.text;
    const env: CommandEnv = { stdout, stderr, door: async () => door };
    const code = await runCli("0", ["node", "kubespaces", "tenant", "create", "atlas", "--cpu", "4", "--preview"], env);
    expect(code).toBe(EXIT.error);
    expect(saidAtStart, stderr.text).toBeDefined();
    for (const part of NOTICE_PARTS) expect(saidAtStart).toContain(part);
    expect(stacks.calls).toEqual([]);
  });

  it("kubespaces server's host on the test bed (as its ServiceAccount) says it to the server's log first", async () => {
    const lines: string[] = [];
    said = () => lines.join("\n");
    const host = serviceAccountHost(testbedHost(start), { namespace: "kubespaces", name: "kubespaces-server" }, () => {
      throw new Error("prepared before the test bed started");
    });
    await expect(host.resolve((line) => lines.push(line))).rejects.toThrow("the stand-in test bed was not started");
    for (const part of NOTICE_PARTS) expect(saidAtStart).toContain(part);
  });
});
