/**
 * The Python path end to end: a tenant declared with the generated Python SDK
 * (test/e2e/python/tenants.py, an Automation API inline program: no Python language host is
 * served here) is constructed by the kubespaces provider plugin (dist/plugin), waits through the
 * plugin's TenantReadiness, hands back a working secret kubeconfig, and leaves nothing on destroy.
 * The assertions are the TypeScript suite's (support/tenantAssertions). Before that, the plugin
 * tarball `npm run build:plugin` makes installs the way a user installs it.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectNoPlaintextKubeconfig,
  expectNothingLeft,
  expectReadyStatus,
  expectTenantOnHost,
  expectWorkingKubeconfig,
} from "./support/tenantAssertions";
import { REPO_ROOT, testbedEnv } from "./support/testbed";
import { PLATFORM_DEFAULT_QUOTA } from "../expected/platformDefaultQuota";

// hostKubeconfig: the platform's host access is set, secret, from the test bed's kubeconfig.
const TENANT = { name: "team-python", resources: { cpu: "3", memory: "6Gi", storage: "10Gi" }, hostKubeconfig: true };
const STACK = "python-e2e";
let python = "";

/** Runs a command with the test bed's environment plus `extra`; returns stdout, throws with stderr on failure. */
function runWith(extra: Record<string, string>, command: string, args: string[]): string {
  const env = { ...process.env, ...testbedEnv(), ...extra };
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const run = (command: string, args: string[]) => runWith({}, command, args);

const tenantsPy = (...args: string[]) =>
  JSON.parse(run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), ...args, "--stack", STACK]));

beforeAll(() => {
  run("bash", ["scripts/buildPlugin.sh"]);
  python = run("bash", ["test/e2e/python/venv.sh"]).trim();
  run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
});

afterAll(() => {
  if (python) run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
});

describe("the provider plugin", () => {
  it("installs from the build:plugin tarball with pulumi plugin install, and starts", () => {
    const version = (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
      .version;
    const home = mkdtempSync(path.join(os.tmpdir(), "kubespaces-plugin-home-"));
    const tarball = path.join(REPO_ROOT, `dist/pulumi-resource-kubespaces-v${version}-linux-amd64.tar.gz`);
    const env = { PULUMI_HOME: home };
    runWith(env, "pulumi", ["plugin", "install", "resource", "kubespaces", `v${version}`, "--file", tarball]);
    const installed = JSON.parse(runWith(env, "pulumi", ["plugin", "ls", "--json"])) as {
      name: string;
      version: string;
      kind: string;
    }[];
    expect(installed).toContainEqual(expect.objectContaining({ name: "kubespaces", kind: "resource", version }));
    // A plugin prints the port it serves on; any engine address will do for that.
    const binary = path.join(home, "plugins", `resource-kubespaces-v${version}`, "pulumi-resource-kubespaces");
    const started = spawnSync(binary, ["127.0.0.1:1"], { encoding: "utf8", timeout: 20_000 });
    expect(started.stdout.trim()).toMatch(/^\d+$/);
  });
});

describe("a tenant declared in Python", () => {
  it("is constructed by the plugin and waits for readiness through the plugin's TenantReadiness", () => {
    const result = tenantsPy("up", "--tenants", JSON.stringify([TENANT]));
    expect(result.result).toBe("succeeded");
    const created = (result.steps as { op: string; type: string; name: string }[])
      .filter((s) => s.op === "create")
      .map((s) => s.type);
    expect(created).toContain("kubespaces:index:Tenant");
    expect(created).toContain("kubespaces:index:TenantReadiness");
    expect(created).toContain("kubespaces:index:TenantCleanup");
    expect(created.filter((t) => t.startsWith("pulumi-nodejs:dynamic"))).toEqual([]);
  });

  it("creates the same host objects as a TypeScript tenant", async () => {
    await expectTenantOnHost("team-python", "team-python@example.com", {
      "requests.cpu": "3",
      "limits.cpu": "3",
      "requests.memory": "6Gi",
      "limits.memory": "6Gi",
      "requests.storage": "10Gi",
      ...PLATFORM_DEFAULT_QUOTA,
    });
  });

  it("hands back a secret kubeconfig that works; neither it nor the host kubeconfig is in state in plaintext", async () => {
    const outputs = tenantsPy("outputs");
    expect(outputs.kubeconfigs.secret).toBe(true);
    expectReadyStatus(outputs.statuses.value["team-python"]);
    const kubeconfig: string = outputs.kubeconfigs.value["team-python"];
    await expectWorkingKubeconfig(
      kubeconfig,
      "team-python",
      "https://team-python.kubespaces-tenant-team-python.svc:443",
    );
    const state = run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "export", "--stack", STACK]);
    expectNoPlaintextKubeconfig(state, kubeconfig);
    expectNoPlaintextKubeconfig(state, readFileSync(testbedEnv().KUBECONFIG, "utf8"));
  });

  it("leaves nothing labelled for the tenant after destroy", async () => {
    run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
    await expectNothingLeft("team-python");
  });
});
