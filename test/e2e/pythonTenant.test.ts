/**
 * The Python path end to end: a tenant declared with the generated Python SDK
 * (test/e2e/python/tenants.py, an Automation API inline program: no Python language host is
 * served here) is constructed by the kubespaces provider plugin (dist/plugin), waits through the
 * plugin's TenantReadiness, hands back a working secret kubeconfig, and leaves nothing on destroy.
 * The assertions are the TypeScript suite's (support/tenantAssertions).
 */
import { spawnSync } from "node:child_process";
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

const TENANT = { name: "team-python", resources: { cpu: "3", memory: "6Gi", storage: "10Gi" } };
const STACK = "python-e2e";
let python = "";

/** Runs a command with the test bed's environment; returns stdout, throws with stderr on failure. */
function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...testbedEnv() }, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

const tenantsPy = (...args: string[]) => JSON.parse(run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), ...args, "--stack", STACK]));

beforeAll(() => {
  run("bash", ["scripts/buildPlugin.sh"]);
  python = run("bash", ["test/e2e/python/venv.sh"]).trim();
  run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
});

afterAll(() => {
  if (python) run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
});

describe("a tenant declared in Python", () => {
  it("is constructed by the plugin and waits for readiness through the plugin's TenantReadiness", () => {
    const result = tenantsPy("up", "--tenants", JSON.stringify([TENANT]));
    expect(result.result).toBe("succeeded");
    const created = (result.steps as { op: string; type: string; name: string }[]).filter((s) => s.op === "create").map((s) => s.type);
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
    });
  });

  it("hands back a secret kubeconfig that works, kept out of state in plaintext", async () => {
    const outputs = tenantsPy("outputs");
    expect(outputs.kubeconfigs.secret).toBe(true);
    expectReadyStatus(outputs.statuses.value["team-python"]);
    const kubeconfig: string = outputs.kubeconfigs.value["team-python"];
    await expectWorkingKubeconfig(kubeconfig, "team-python", "https://team-python.kubespaces-tenant-team-python.svc:443");
    expectNoPlaintextKubeconfig(run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "export", "--stack", STACK]), kubeconfig);
  });

  it("leaves nothing labelled for the tenant after destroy", async () => {
    run(python, [path.join(REPO_ROOT, "test/e2e/python/tenants.py"), "destroy", "--stack", STACK]);
    await expectNothingLeft("team-python");
  });
});
