/**
 * The `kubespaces` command in-process: commander with exitOverride, its output captured, its door
 * over the real request files and run journals in a temporary home and stand-ins for the stack
 * and the host (support/fakeTenantStacks.ts). What is asserted is what a user sees: stdout, stderr
 * and the exit code, and that a refusal writes nothing.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT, EXIT_CODES } from "../../provider/cli/exitCodes";
import { localTenantsDoor } from "../../provider/cli/localMode/localDoor";
import type { TenantsDoor } from "../../provider/cli/tenantsDoor";
import { runCli } from "../../provider/cli/runCli";
import { FileRequestStore } from "../../provider/tenants/local/fileRequestStore";
import { FileRunJournals } from "../../provider/tenants/local/fileRunJournals";
import type { LoginSettings } from "../../provider/cli/loginSettings";
import { HostUnavailableError, StackBusyError } from "../../provider/tenants/tenantsErrors";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { TENANT_PHASES } from "../../provider/tenants/tenantObject";
import { HELD_PHASES } from "../../provider/contracts/tenantResourceNames";
import { FakeHost, FakeTenantStacks } from "./support/fakeTenantStacks";
import { temporaryFolderEach } from "./support/temporaryFolder";

const OWNER = "alice@example.com";
const ROOT = path.resolve(__dirname, "../..");

/** A captured stream, not a terminal. */
class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const home = temporaryFolderEach("kubespaces-cli-");
let stacks: FakeTenantStacks;
let host: FakeHost;
let doorsOpened: number;
let settings: LoginSettings;

beforeEach(() => {
  stacks = new FakeTenantStacks();
  host = new FakeHost();
  doorsOpened = 0;
  settings = { context: "stand-in" };
});

/** The door the binary would open in local mode, over stand-ins for the stack and the host. */
async function door(): Promise<TenantsDoor> {
  doorsOpened += 1;
  const requests = new FileRequestStore(path.join(home(), "tenants"));
  const service = new TenantsService(
    { requests, runs: new FileRunJournals(path.join(home(), "runs")), stacks, host },
    { policy: { quota: { ceilings: { cpu: "16" } } } },
  );
  return localTenantsDoor({
    settings,
    service,
    actor: { owner: OWNER, groups: [], isAdmin: true },
    requests,
    host,
    // A stand-in for the host's ResourceQuota: what the quota controller would say of a fresh tenant.
    hostQuota: async (namespace) =>
      namespace === "kubespaces-tenant-team-atlas"
        ? { hard: { "requests.cpu": "8", "requests.memory": "16Gi" }, used: { "requests.cpu": "300m" } }
        : undefined,
  });
}

/** Runs `kubespaces ...args` in-process. */
async function kubespaces(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Captured();
  const stderr = new Captured();
  const env: CommandEnv = { stdout, stderr, door };
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], env);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Starts `kubespaces ...args` in-process; its output can be read while it runs. */
function started(...args: string[]): { stdout: Captured; stderr: Captured; finished: Promise<number> } {
  const stdout = new Captured();
  const stderr = new Captured();
  return { stdout, stderr, finished: runCli("0.0.0-test", ["node", "kubespaces", ...args], { stdout, stderr, door }) };
}

/** Every file under the home: a refusal writes none. */
const filesInHome = () =>
  readdirSync(home(), { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => e.name);

describe("help and usage", () => {
  it("--help lists every exit code of the one table, and opens no door", async () => {
    const run = await kubespaces("--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: kubespaces");
    for (const { code, meaning } of EXIT_CODES) expect(run.stdout).toContain(`  ${String(code).padEnd(5)}${meaning}`);
    expect(doorsOpened).toBe(0);
  });

  it("create --help names the smallest tenant of the default policy", async () => {
    const run = await kubespaces("tenant", "create", "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("at least --cpu 3 --memory 2388Mi --storage 5Gi");
  });

  it("get --help names every phase a tenant takes, Sleeping and the held ones among them", async () => {
    const run = await kubespaces("tenant", "get", "--help");
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, " ");
    for (const phase of [...TENANT_PHASES, ...HELD_PHASES]) expect(help).toContain(phase);
  });

  it.each([
    ["an unknown command", ["tenant", "frobnicate"], "unknown command 'frobnicate'"],
    ["an unknown flag", ["tenant", "create", "ok-name", "--frobnicate"], "unknown option '--frobnicate'"],
    [
      "-w on get, which is --watch and takes no value",
      ["tenant", "get", "x", "--wait=now"],
      "unknown option '--wait=now'",
    ],
  ])("refuses %s with exit code 2", async (_, args, message) => {
    const run = await kubespaces(...args);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(EXIT.invalid);
    expect(filesInHome()).toEqual([]);
  });
});

describe("the walkthrough over stand-ins", () => {
  it("create shows Pending -> Provisioning -> Ready and prints the tenant; get, list and -o name agree", async () => {
    const created = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toMatch(
      /team-atlas: Pending\n[\s\S]*team-atlas: Pending -> Provisioning\n[\s\S]*team-atlas: Provisioning -> Ready/,
    );
    expect(created.stderr).toContain("provisioning on the stand-in host");
    expect(created.stdout).toMatch(/^NAME\s+PHASE\s+API\nteam-atlas\s+Ready\s+https:\/\/team-atlas\./);

    const got = JSON.parse((await kubespaces("tenant", "get", "team-atlas", "-o", "json")).stdout);
    expect(got).toMatchObject({
      kind: "Tenant",
      metadata: { name: "team-atlas" },
      spec: { owner: OWNER },
      status: { phase: "Ready" },
    });
    const listed = await kubespaces("tenant", "list");
    expect(listed.stdout).toMatch(/^NAME\s+OWNER\s+PHASE\s+API\nteam-atlas\s+alice@example\.com\s+Ready/);
    expect((await kubespaces("tenant", "list", "-o", "name")).stdout).toBe("tenant/team-atlas\n");
  });

  it("get and list -o wide add NAMESPACE, REVISION and EXPIRES, get its quota use and awake hours; the hint stays beside the table", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    const got = await kubespaces("tenant", "get", "team-atlas", "-o", "wide");
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(
      /^NAME\s+PHASE\s+API\s+NAMESPACE\s+REVISION\s+EXPIRES\s+CPU\s+MEMORY\s+STORAGE\s+AWAKE\(30D\)\nteam-atlas\s+Ready\s+https:\/\/team-atlas\S+\s+kubespaces-tenant-team-atlas\s+-\s+-\s+300m\/8\s+0\/16Gi\s+-\s+\d+(\.\d)?h\n$/,
    );
    expect(got.stderr).toContain("tenant team-atlas is not exposed outside the host cluster");
    const listed = await kubespaces("tenant", "list", "-o", "wide");
    expect(listed.stdout).toMatch(
      /^NAME\s+OWNER\s+PHASE\s+API\s+NAMESPACE\s+REVISION\s+EXPIRES\nteam-atlas\s+alice@example\.com\s+Ready\s+\S+\s+kubespaces-tenant-team-atlas\s+-\s+-\n$/,
    );
  });

  it("get of a Ready tenant that is not exposed says on stderr how to reach it, beside the table only", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    const got = await kubespaces("tenant", "get", "team-atlas");
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/team-atlas\s+Ready\s+https:\/\/team-atlas\.kubespaces-tenant-team-atlas\.svc:443/);
    expect(got.stderr).toBe(
      "tenant team-atlas is not exposed outside the host cluster: its API server answers only inside it, at the URL its kubeconfig names. To reach it from this machine, forward a port to its Service (this needs access to its host namespace):\n" +
        "  kubectl port-forward -n kubespaces-tenant-team-atlas svc/team-atlas 8443:443\n" +
        "then, while it runs, use the kubeconfig through that port (TLS still checks team-atlas.kubespaces-tenant-team-atlas.svc):\n" +
        "  kubespaces tenant kubeconfig team-atlas --merge --server https://127.0.0.1:8443\n",
    );
    expect((await kubespaces("tenant", "get", "team-atlas", "-o", "json")).stderr).toBe("");
  });

  it("delete tears the stack down and lists what went; get is then exit 4", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    const deleted = await kubespaces("tenant", "delete", "team-atlas");
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toMatch(/tenant team-atlas deleted: \d+ resource\(s\) removed/);
    expect(deleted.stderr).toContain("team-atlas: Deleting -> Deleted");
    expect(stacks.has("team-atlas")).toBe(false);
    expect((await kubespaces("tenant", "get", "team-atlas")).code).toBe(EXIT.notFound);
  });

  it("--preview of create and of delete prints the steps and changes nothing", async () => {
    const creating = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--preview");
    expect(creating.code, creating.stderr).toBe(0);
    expect(creating.stdout).toMatch(/^Preview of creating tenant team-atlas; nothing was changed\.\n/);
    expect(creating.stdout).toMatch(/ create +kubernetes:core\/v1:Namespace +team-atlas-namespace\n/);
    expect(stacks.has("team-atlas")).toBe(false);
    expect(filesInHome()).toEqual([]);

    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8");
    const deleting = await kubespaces("tenant", "delete", "team-atlas", "--preview");
    expect(deleting.code, deleting.stderr).toBe(0);
    expect(deleting.stdout).toMatch(/^Preview of deleting tenant team-atlas; nothing was changed\.\n/);
    expect(deleting.stdout).toMatch(/ delete +kubernetes:core\/v1:Namespace +team-atlas-namespace\n/);
    expect(stacks.has("team-atlas")).toBe(true);
  });

  it("a failed tenant: create and get exit 3 with the reason, and the row shows Failed", async () => {
    stacks.failNextUp("team-fail", { reason: "QuotaFailed", detail: "exceeded quota: team-fail-quota" });
    const created = await kubespaces("tenant", "create", "team-fail", "--cpu", "4", "--memory", "8Gi");
    expect(created.code).toBe(EXIT.failed);
    expect(created.stdout).toMatch(/team-fail\s+Failed/);
    expect(created.stderr).toContain(
      "kubespaces: tenant team-fail failed (QuotaFailed): exceeded quota: team-fail-quota",
    );
    const got = await kubespaces("tenant", "get", "team-fail");
    expect(got.code).toBe(EXIT.failed);
    expect(got.stderr).toContain("tenant team-fail failed (QuotaFailed): exceeded quota");
  });

  it("a host that is not there is exit 1 with the host's message", async () => {
    host.failWith(new HostUnavailableError("the local test bed did not come up"));
    const run = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(run.code).toBe(EXIT.error);
    expect(run.stderr).toContain("kubespaces: the local test bed did not come up");
  });

  it("a lock that outlasts --lock-timeout is exit 5, with the service's word on how to remove it, said once", async () => {
    const cancel =
      "PULUMI_BACKEND_URL='s3://tenants-state' pulumi cancel --stack organization/kubespaces-self-service/team-atlas";
    host.failWith(
      new StackBusyError(
        "team-atlas",
        600_000,
        'pid 4242 of "bob@build-7" since 2025-01-01T00:00:00Z',
        `remove it with \`${cancel}\``,
      ),
    );
    const run = await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(run.code).toBe(EXIT.busy);
    expect(run.stderr).toContain(
      `kubespaces: tenant team-atlas's stack is still locked by another update after 600s (pid 4242 of "bob@build-7" since 2025-01-01T00:00:00Z); try again later, or remove it with \`${cancel}\`\n`,
    );
    expect(run.stderr.split("pulumi cancel")).toHaveLength(2);
  });

  it("a stack this door did not make is refused by delete with exit 2, and not destroyed", async () => {
    stacks.addStray("someone-else");
    const run = await kubespaces("tenant", "delete", "someone-else");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("no request in this door's store");
    expect(stacks.has("someone-else")).toBe(true);
  });
});

describe("refusals before anything is stored", () => {
  const manifest = (name: string, text: string) => {
    const file = path.join(os.tmpdir(), `kubespaces-manifest-${process.pid}-${name}`);
    writeFileSync(file, text);
    return file;
  };

  it.each<[string, () => string[], string[]]>([
    [
      "a name that is no DNS label, with the component's message",
      () => ["tenant", "create", "Bad_Name", "--owner", "a@b.c"],
      [
        'kubespaces:index:Tenant "Bad_Name" has an invalid input; nothing was created',
        "name: must be a DNS-1123 label",
      ],
    ],
    [
      "a quantity that is none, naming the field",
      () => ["tenant", "create", "ok-name", "--memory", "lots"],
      ["resources.memory: must be a Kubernetes quantity"],
    ],
    [
      "a quota above the policy's ceiling",
      () => ["tenant", "create", "ok-name", "--cpu", "32"],
      ["resources.cpu: 32 is above the platform's ceiling"],
    ],
    [
      "a quota below the vCluster's own limits, naming them",
      () => ["tenant", "create", "ok-name", "--cpu", "1", "--memory", "1Gi"],
      ["resources.memory: 1Gi is less than the limits of the vCluster's own containers (2388Mi"],
    ],
    [
      "a manifest of another apiVersion",
      () => [
        "tenant",
        "create",
        "--file",
        manifest(
          "v2.yaml",
          "apiVersion: kubespaces.io/v2\nkind: Tenant\nmetadata: {name: ok-name}\nspec: {owner: a@b.c}\n",
        ),
      ],
      [
        "is not a Tenant manifest",
        "must be apiVersion kubespaces.io/v1alpha1, kind Tenant (got kubespaces.io/v2, Tenant)",
      ],
    ],
    [
      "a manifest that sets the platform's policy",
      () => [
        "tenant",
        "create",
        "--file",
        manifest(
          "platform.yaml",
          "apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata: {name: ok-name}\nspec:\n  owner: a@b.c\n  platform: {allowUnsafeOverrides: true}\n",
        ),
      ],
      ['unknown field(s) "platform"', "the rest is the platform's policy"],
    ],
    [
      "--file naming a folder",
      () => ["tenant", "create", "--file", os.tmpdir()],
      [`--file ${os.tmpdir()} is a folder; name a file`],
    ],
    [
      "--file naming nothing",
      () => ["tenant", "create", "--file", path.join(os.tmpdir(), "no-such-manifest.yaml")],
      ["does not exist"],
    ],
  ])("refuses %s with exit code 2, storing nothing and running nothing", async (_, args, messages) => {
    const run = await kubespaces(...args());
    for (const message of messages) expect(run.stderr).toContain(message);
    expect(run.code).toBe(EXIT.invalid);
    expect(filesInHome()).toEqual([]);
    expect(stacks.calls).toEqual([]);
  });
});

describe("start-up", () => {
  // One process, to see what `--help` really loads: the built binary is not there in the unit tier,
  // so the source runs through tsx, as the other fresh-process test does.
  it("--help loads neither the Tenant component nor the Automation API nor the tenants service", () => {
    const script = `
      const { runCli } = require("./provider/cli/runCli");
      const env = { stdout: { write() {} }, stderr: { write() {} }, door: () => { throw new Error("door opened"); } };
      runCli("0", ["node", "kubespaces", "--help"], env).then((code) => {
        const loaded = Object.keys(require.cache);
        const has = (part) => loaded.some((file) => file.includes(part));
        console.log(JSON.stringify({ code, component: has("provider/component/"), automation: has("@pulumi/pulumi/automation"), pulumi: has("@pulumi/pulumi/"), service: has("provider/tenants/tenantsService") }));
      });`;
    const result = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { cwd: ROOT, encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      code: 0,
      component: false,
      automation: false,
      pulumi: false,
      service: false,
    });
  });
});

describe("create NAME alone", () => {
  it("resumes a stored request", async () => {
    await kubespaces("tenant", "create", "team-sized", "--cpu", "4", "--memory", "8Gi");
    const resumed = await kubespaces("tenant", "create", "team-sized");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(stacks.callsOf("up", "team-sized").map((call) => call.program?.request)).toEqual([
      { owner: OWNER, resources: { cpu: "4", memory: "8Gi" } },
      { owner: OWNER, resources: { cpu: "4", memory: "8Gi" } },
    ]);
  });

  it.each([[[]], [["--preview"]]])(
    "refuses a name with no stored request (%j), saying how to ask for one, and stores and runs nothing",
    async (flags) => {
      const run = await kubespaces("tenant", "create", "team-typo", ...flags);
      expect(run.code).toBe(EXIT.notFound);
      expect(run.stderr).toContain("kubespaces: tenant team-typo has no stored request to resume");
      expect(run.stderr).toContain("`kubespaces tenant create team-typo --cpu 4 --memory 8Gi`");
      expect(run.stderr).toContain("`kubespaces tenant create team-typo --defaults`");
      expect(filesInHome()).toEqual([]);
      expect(stacks.calls).toEqual([]);
    },
  );

  it("--defaults requests the platform's defaults (owner: you), and is refused beside request flags", async () => {
    const created = await kubespaces("tenant", "create", "team-defaults", "--defaults");
    expect(created.code, created.stderr).toBe(0);
    const got = JSON.parse((await kubespaces("tenant", "get", "team-defaults", "-o", "json")).stdout);
    expect(got.spec).toEqual({ owner: OWNER });
    const both = await kubespaces("tenant", "create", "team-both", "--defaults", "--cpu", "4");
    expect(both.code).toBe(EXIT.invalid);
    expect(both.stderr).toContain(
      "--defaults asks for the platform's defaults: give no request flags nor --file with it",
    );
  });
});

describe("get -w", () => {
  it("goes on following a tenant no run is changing, until Ctrl-C (exit 130)", async () => {
    await kubespaces("tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    const before = process.listeners("SIGINT");
    const watching = started("tenant", "get", "team-atlas", "-w");
    await vi.waitFor(() => expect(watching.stdout.text).toMatch(/^NAME\s+PHASE\s+API\nteam-atlas\s+Ready/));
    // The Ctrl-C stand-in: what the process would call at the first SIGINT.
    const interrupt = process.listeners("SIGINT").filter((l) => !before.includes(l));
    expect(interrupt).toHaveLength(1);
    interrupt[0]("SIGINT");
    expect(await watching.finished).toBe(EXIT.interrupted);
    expect(watching.stdout.text.split("\n").filter(Boolean)).toHaveLength(2);
  });
});
