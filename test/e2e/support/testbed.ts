/**
 * The local test bed for end-to-end tests: brought up (and built, the first time) by
 * test/testbed/testbed.sh, whose env file says where the API server, kubeconfig and Pulumi are.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
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

/**
 * The state backend URL of the test bed's PostgreSQL, started (and installed with apt-get, the
 * first time) if it does not run; `down` stops it. The URL holds the test bed's password.
 */
export function testbedPostgres(): string {
  return execFileSync("bash", [TESTBED_SCRIPT, "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .at(-1)!;
}

/** Stops the test bed's PostgreSQL at once, as a crash would; `testbedPostgres()` starts it again. */
export function crashTestbedPostgres(): void {
  testbed("postgres-crash");
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

/**
 * The server's `snapshots.s3` for the test bed's S3-compatible store (which checks no keys): its
 * URL and bucket from the env file, and keys in files, as a mounted Secret would hold them.
 */
export function testbedSnapshotStore() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-snapshot-keys-"));
  writeFileSync(path.join(dir, "access-key-id"), "testbed-access-key\n", { mode: 0o600 });
  writeFileSync(path.join(dir, "secret-access-key"), "testbed-secret-key\n", { mode: 0o600 });
  const env = testbedEnv();
  return {
    bucket: env.KUBESPACES_TESTBED_S3_BUCKET,
    url: env.KUBESPACES_TESTBED_S3_URL,
    forcePathStyle: true,
    accessKeyIdFile: path.join(dir, "access-key-id"),
    secretAccessKeyFile: path.join(dir, "secret-access-key"),
  };
}

/** The run dir of the test bed the tier runs on (testbed.sh's rule). */
const RUN_DIR = process.env.KUBESPACES_TESTBED_DIR ?? path.join(REPO_ROOT, ".testbed");

/**
 * What the test bed's logs say of one tenant namespace, for a failure's message: the vCluster
 * runner's lines about it, and the end of its newest control plane's log. A failure on CI leaves
 * only its output behind, so the evidence travels with the error.
 */
export function testbedEvidence(namespace: string, lines = 25): string {
  const logs = path.join(RUN_DIR, "logs");
  const tail = (file: string, keep: (line: string) => boolean) =>
    existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(keep).slice(-lines).join("\n") : "(no log)";
  const runner = tail(
    path.join(logs, "vcluster-runner.log"),
    (line) => line.includes(namespace) || line.includes("watch"),
  );
  const controlPlanes = existsSync(logs)
    ? readdirSync(logs)
        .filter((name) => name.startsWith(`vcluster-${namespace}-`))
        .map((name) => path.join(logs, name))
        .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
    : [];
  const newest = controlPlanes.at(-1);
  const controlPlane = newest
    ? `${path.basename(newest)}:\n${tail(newest, () => true)}`
    : "(no control plane was started)";
  return `vCluster runner, on ${namespace}:\n${runner}\nits newest control plane, ${controlPlane}`;
}

/** Whether the test bed runs whole and healthy (`testbed.sh status`). */
function testbedRunning(): boolean {
  try {
    execFileSync("bash", [TESTBED_SCRIPT, "status"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Vitest global setup of the e2e project: the test bed is up before any test file runs, and down
 * after the last (`testbed.sh down` fails, naming them, when processes of it still run then).
 * It stays up when KUBESPACES_KEEP_TESTBED=1, or when it was running before the tier started:
 * whoever brought it up (`testbed.sh up`, `npm start`) asked for it, and brings it down.
 */
export default function setup(): () => void {
  const keep = process.env.KUBESPACES_KEEP_TESTBED === "1";
  const wasRunning = testbedRunning();
  // Every process the tests start inherits it, so that `down` finds one a test left behind.
  process.env.KUBESPACES_TESTBED_DIR = RUN_DIR;
  const teardown = () => {
    if (keep || wasRunning) {
      const why = keep ? "KUBESPACES_KEEP_TESTBED=1" : "it was running before the tests started";
      process.stderr.write(`[testbed] left running (${why}); stop it with: bash test/testbed/testbed.sh down\n`);
      return;
    }
    testbed("down");
  };
  try {
    testbed("up");
  } catch (error) {
    // Vitest runs no teardown for a setup that failed: what `up` started goes now.
    try {
      teardown();
    } catch {
      // `down` said what it could not stop; the failure to report is up's.
    }
    throw error;
  }
  return teardown;
}
