/**
 * The local test bed for end-to-end tests: brought up (and built, the first time) by
 * test/testbed/testbed.sh, whose env file says where the API server, kubeconfig and Pulumi are.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

/** Repository root. */
export const REPO_ROOT = path.resolve(__dirname, "../../..");
const TESTBED_SCRIPT = path.join(REPO_ROOT, "test/testbed/testbed.sh");

/** Runs a testbed.sh command, its progress on the test output. */
export function testbed(...args: string[]): void {
  execFileSync("bash", [TESTBED_SCRIPT, ...args], { stdio: ["ignore", "inherit", "inherit"] });
}

/** The loopback URL on this machine of the running control plane of vCluster `release` (see test/testbed/lib/vclusterPod.sh). */
export function vclusterEndpoint(namespace: string, release: string): string {
  return execFileSync("bash", [TESTBED_SCRIPT, "vcluster-endpoint", namespace, release], { encoding: "utf8" }).trim();
}

/** The environment the test bed's env file sets (KUBECONFIG, PATH with Pulumi, PULUMI_HOME, ...). */
export function testbedEnv(): Record<string, string> {
  const envFile = execFileSync("bash", [TESTBED_SCRIPT, "env"], { encoding: "utf8" }).trim();
  const dump = execFileSync("bash", ["-c", `source '${envFile}' && env -0`], { encoding: "utf8" });
  const env: Record<string, string> = {};
  for (const entry of dump.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** Vitest global setup of the e2e project: the test bed is up before any test file runs. */
export default function setup(): void {
  testbed("up");
}
