/**
 * kubectl's `--context` and `--kubeconfig` on the tenant commands: the host cluster of one run,
 * over the one `login` recorded and never changing it; refused through a server. And `tenant
 * kubeconfig`, where `--context` named the written context before `--context-name`: the rule that
 * reads it (commands/kubeconfig.ts).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { CliError, EXIT } from "../../provider/cli/exitCodes";
import { readLoginSettings, writeLoginSettings } from "../../provider/cli/loginSettings";
import { loginOfRun, openDoor } from "../../provider/cli/openDoor";
import { runCli } from "../../provider/cli/runCli";
import type { TenantsDoor } from "../../provider/cli/tenantsDoor";
import { hostOfRun, type HostNaming } from "../../provider/hosts/hostChoice";
import { retargeted } from "../../provider/kubeconfig/kubeconfigMerge";
import { ProblemError } from "../../provider/util/problemError";
import { tenantKubeconfig } from "./support/kubeconfigFixtures";
import { temporaryFolderEach } from "./support/temporaryFolder";
import { thrownBy } from "./support/thrown";

const home = temporaryFolderEach("kubespaces-hostflags-");
const saved = { home: process.env.KUBESPACES_HOME, kubeconfig: process.env.KUBECONFIG };

beforeEach(() => {
  process.env.KUBESPACES_HOME = home();
  process.env.KUBECONFIG = path.join(home(), "config");
});
afterEach(() => {
  for (const [key, value] of [
    ["KUBESPACES_HOME", saved.home],
    ["KUBECONFIG", saved.kubeconfig],
  ] as const)
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
});

/** A captured stream. */
class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

/** The host each opened door was asked for. */
let hosts: (HostNaming | undefined)[];
beforeEach(() => {
  hosts = [];
});

/** A door that records the host it is opened on and answers for a Ready tenant atlas. */
async function recordingDoor(host?: HostNaming): Promise<TenantsDoor> {
  hosts.push(host && { context: host.context, kubeconfig: host.kubeconfig });
  return {
    tenants: {
      kubeconfig: async () => tenantKubeconfig,
      get: async () => ({ status: { namespace: "kubespaces-tenant-atlas" } }),
      history: async () => [],
      list: async () => [],
    },
    actor: { owner: "alice@example.com", groups: [], isAdmin: true },
  } as unknown as TenantsDoor;
}

/** Runs `kubespaces ...args` in-process with `door`. */
async function kubespaces(
  door: CommandEnv["door"],
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], { stdout, stderr, door });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A kubeconfig file with the user's own context `platform-prod`, where `$KUBECONFIG` points. */
function writeUserKubeconfig(): void {
  writeFileSync(
    process.env.KUBECONFIG!,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "prod", cluster: { server: "https://prod.example.com" } }],
      users: [{ name: "prod", user: { token: "t" } }],
      contexts: [{ name: "platform-prod", context: { cluster: "prod", user: "prod" } }],
      "current-context": "platform-prod",
    }),
  );
}

describe("the host of one run (hostOfRun)", () => {
  const recorded = { context: "recorded", kubeconfig: "/etc/recorded.kubeconfig" };

  it("is the recorded host when the run names none", () => {
    expect(hostOfRun(recorded, {})).toEqual(recorded);
  });

  it("is --context of the default kubeconfig, as kubectl reads it, not of the recorded file", () => {
    expect(hostOfRun(recorded, { context: "staging" })).toEqual({ context: "staging", kubeconfig: undefined });
    expect(hostOfRun(recorded, { context: "staging", kubeconfig: "/tmp/k" })).toEqual({
      context: "staging",
      kubeconfig: "/tmp/k",
    });
  });

  it("with --kubeconfig alone, is the recorded context read from that file, and is refused with none recorded", () => {
    expect(hostOfRun(recorded, { kubeconfig: "/tmp/k" })).toEqual({ context: "recorded", kubeconfig: "/tmp/k" });
    const error = thrownBy(() => hostOfRun({}, { kubeconfig: "/tmp/k" }));
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).message).toContain("add --context NAME");
  });
});

describe("the login of one run (loginOfRun)", () => {
  it("takes the run's host over the recorded one and writes nothing", () => {
    writeLoginSettings({ context: "recorded", kubeconfig: "/etc/recorded.kubeconfig", user: "bob@example.com" });
    const before = readFileSync(path.join(home(), "settings.json"), "utf8");
    expect(loginOfRun({ context: "staging" })).toEqual({ context: "staging", user: "bob@example.com" });
    expect(loginOfRun({})).toEqual(readLoginSettings());
    expect(readFileSync(path.join(home(), "settings.json"), "utf8")).toBe(before);
  });

  it("refuses --context and --kubeconfig through a server, naming the flag and the server (exit 2)", () => {
    writeLoginSettings({ server: "https://kubespaces.example.com" });
    const error = thrownBy(() => loginOfRun({ context: "staging" }));
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe(EXIT.invalid);
    expect((error as CliError).message).toMatch(
      /^--context names a host cluster of local mode, and your login goes through the kubespaces server https:\/\/kubespaces\.example\.com/,
    );
    expect((thrownBy(() => loginOfRun({ kubeconfig: "/tmp/k" })) as CliError).message).toMatch(/^--kubeconfig /);
  });
});

describe("--context and --kubeconfig on the tenant commands", () => {
  it.each([
    ["create", ["tenant", "create", "atlas", "--defaults"]],
    ["get", ["tenant", "get", "atlas"]],
    ["list", ["tenant", "list"]],
    ["delete", ["tenant", "delete", "atlas"]],
    ["kubeconfig", ["tenant", "kubeconfig", "atlas"]],
    ["history", ["tenant", "history", "atlas"]],
  ])("tenant %s opens its door on the host they name", async (_verb, args) => {
    await kubespaces(recordingDoor, ...args, "--context", "staging", "--kubeconfig", "/tmp/k");
    expect(hosts[0]).toEqual({ context: "staging", kubeconfig: "/tmp/k" });
  });

  it("through a server, tenant get --context is a usage error that says the login goes through the server", async () => {
    writeLoginSettings({ server: "https://kubespaces.example.com" });
    const { code, stdout, stderr } = await kubespaces(openDoor, "tenant", "get", "atlas", "--context", "staging");
    expect(code).toBe(EXIT.invalid);
    expect(stdout).toBe("");
    expect(stderr).toContain("kubespaces: --context names a host cluster of local mode");
    expect(stderr).toContain("goes through the kubespaces server https://kubespaces.example.com");
  });
});

describe("tenant kubeconfig: --context-name and --context", () => {
  it("--context-name names the written context, and the host stays the recorded one", async () => {
    const { code, stdout, stderr } = await kubespaces(
      recordingDoor,
      "tenant",
      "kubeconfig",
      "atlas",
      "--context-name",
      "team",
    );
    expect(code).toBe(EXIT.ok);
    expect(parse(stdout)["current-context"]).toBe("team");
    expect(hosts[0]).toEqual({ context: undefined, kubeconfig: undefined });
    expect(stderr).toBe("");
  });

  it("--context naming a context of the kubeconfig picks the host cluster; the written context keeps the tenant's name", async () => {
    writeUserKubeconfig();
    const { code, stdout, stderr } = await kubespaces(
      recordingDoor,
      "tenant",
      "kubeconfig",
      "atlas",
      "--context",
      "platform-prod",
    );
    expect(code).toBe(EXIT.ok);
    expect(hosts[0]).toEqual({ context: "platform-prod", kubeconfig: undefined });
    expect(parse(stdout)["current-context"]).toBe("atlas");
    expect(stderr).toBe("");
  });

  it("--context with --kubeconfig is always the host, even one the file lacks", async () => {
    await kubespaces(recordingDoor, "tenant", "kubeconfig", "atlas", "--context", "team", "--kubeconfig", "/tmp/k");
    expect(hosts[0]).toEqual({ context: "team", kubeconfig: "/tmp/k" });
  });

  it("--merge --context NAME of no context of the file still names the merged context, with a note to use --context-name, run after run", async () => {
    writeUserKubeconfig();
    for (const run of [1, 2]) {
      // The second run finds the context the first merged: kubespaces' own for a tenant, never a host.
      const { code, stderr } = await kubespaces(
        recordingDoor,
        "tenant",
        "kubeconfig",
        "atlas",
        "--merge",
        "--context",
        "team",
      );
      expect(code, `run ${run}`).toBe(EXIT.ok);
      expect(hosts[run - 1]).toEqual({ context: undefined, kubeconfig: undefined });
      expect(stderr).toContain(
        `--context team is no context of ${process.env.KUBECONFIG}, so it is read as the name of the context to write`,
      );
      expect(stderr).toContain("use --context-name team");
      expect(stderr).toContain("merged context team into");
    }
    const merged = parse(readFileSync(process.env.KUBECONFIG!, "utf8"));
    expect(merged.contexts.map((c: { name: string }) => c.name)).toEqual(["platform-prod", "team"]);
    expect(merged.contexts[1]).toEqual(
      retargeted(tenantKubeconfig, { contextName: "team", tenant: "atlas", hostNamespace: "kubespaces-tenant-atlas" })
        .contexts![0],
    );
  });
});
