/**
 * A file state backend whose folder is not there: `kubespaces login --backend` refuses it, naming
 * the folder and the fix, and records nothing; a folder removed after the login is named by the
 * stacks before the engine runs, and `tenant create` prints that, not the engine's text. The
 * command runs in-process, its home a temporary folder; no engine runs.
 */
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { localTenantsDoor } from "../../provider/cli/localMode/localDoor";
import { readLoginSettings } from "../../provider/cli/loginSettings";
import { runCli } from "../../provider/cli/runCli";
import { AutomationStacks } from "../../provider/tenants/automation/automationStacks";
import { fileBackendFolder } from "../../provider/tenants/automation/fileBackend";
import { FileRequestStore } from "../../provider/tenants/local/fileRequestStore";
import { FileRunJournals } from "../../provider/tenants/local/fileRunJournals";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { FakeHost } from "./support/fakeTenantStacks";
import { temporaryFolderEach } from "./support/temporaryFolder";

/** A captured stream, not a terminal. */
class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const home = temporaryFolderEach("kubespaces-backend-");
const savedHome = process.env.KUBESPACES_HOME;
beforeEach(() => {
  process.env.KUBESPACES_HOME = path.join(home(), "kubespaces");
});
afterEach(() => {
  if (savedHome === undefined) delete process.env.KUBESPACES_HOME;
  else process.env.KUBESPACES_HOME = savedHome;
});

/** Runs `kubespaces ...args` in-process with `door` as the login's door. */
async function kubespaces(door: CommandEnv["door"], ...args: string[]) {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], { stdout, stderr, door });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const noDoor: CommandEnv["door"] = () => Promise.reject(new Error("no door in these tests"));

describe("fileBackendFolder", () => {
  it.each([
    ["file:///var/kubespaces/state", "/var/kubespaces/state"],
    ["file:///var/kubespaces/state/?no_tmp_dir=false", "/var/kubespaces/state"],
    ["file:///srv/my%20state", "/srv/my state"],
    ["file://~", os.homedir()],
    ["file://~/.kubespaces/state", path.join(os.homedir(), ".kubespaces/state")],
  ])("of %s is %s", (url, folder) => {
    expect(fileBackendFolder(url)).toBe(folder);
  });

  it.each(["s3://tenants-state", "https://api.pulumi.com", "file://state", "file://./state", "file:///a%2Fb"])(
    "of %s is none: another backend, a relative folder or no folder's name",
    (url) => {
      expect(fileBackendFolder(url)).toBeUndefined();
    },
  );
});

describe("login --backend", () => {
  it("refuses a file backend whose folder does not exist, naming it and mkdir -p, and records nothing", async () => {
    const folder = path.join(home(), "no-such-state");
    const run = await kubespaces(noDoor, "login", "--backend", `file://${folder}`);
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toBe(
      `kubespaces: --backend file://${folder}: there is no folder ${folder}; create it first (mkdir -p ${folder}), or name the backend you meant\n`,
    );
    expect(existsSync(folder)).toBe(false);
    expect(readLoginSettings()).toEqual({});
  });

  it("refuses a relative file backend, which the engine would read from its own working folder", async () => {
    const run = await kubespaces(noDoor, "login", "--backend", "file://state");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain(
      "--backend file://state: a file backend names an absolute folder (file:///path, or file://~/path in your home)",
    );
    expect(readLoginSettings()).toEqual({});
  });

  it("records a file backend whose folder is there or that the engine is asked to create, and any other backend as it is", async () => {
    const folder = path.join(home(), "state");
    mkdirSync(folder);
    for (const url of [
      `file://${folder}`,
      `file://${home()}/made-by-the-engine?create_dir=true`,
      "s3://tenants-state",
    ]) {
      const run = await kubespaces(noDoor, "login", "--backend", url);
      expect(run.code, run.stderr).toBe(0);
      expect(readLoginSettings().backendUrl).toBe(url);
    }
  });
});

describe("tenant create when the backend's folder was removed after the login", () => {
  it("names the folder and what to do, before any engine runs, with exit 1", async () => {
    const folder = path.join(home(), "removed-state");
    const backendUrl = `file://${folder}`;
    const door = async () => {
      const requests = new FileRequestStore(path.join(home(), "tenants"));
      const stacks = new AutomationStacks({
        backendUrl,
        project: "kubespaces-self-service",
        workRoot: path.join(home(), "engine"),
        passphrase: () => "stand-in",
      });
      const service = new TenantsService(
        { requests, runs: new FileRunJournals(path.join(home(), "runs")), stacks, host: new FakeHost() },
        { policy: {} },
      );
      const actor = { owner: "alice@example.com", groups: [], isAdmin: true };
      return localTenantsDoor({
        settings: { backendUrl },
        service,
        actor,
        requests,
        host: new FakeHost(),
        hostQuota: async () => undefined,
      });
    };
    const run = await kubespaces(door, "tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toContain(
      `kubespaces: the state backend's folder ${folder} (${backendUrl}) is not there, and the tenants' stacks are kept in it: was it removed? Put it back, or create it empty (mkdir -p ${folder}) to start with no stacks\n`,
    );
    expect(existsSync(path.join(home(), "engine"))).toBe(false);
  });
});
