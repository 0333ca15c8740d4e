/**
 * The local test bed of this checkout as a host kind the command can choose: brought up on first
 * use (`testbed.sh up`), reached with its admin kubeconfig, its engine environment (its pulumi and
 * plugins on PATH, PULUMI_HOME) and its packaged vCluster chart. It exists only in a checkout of
 * the repository, never in the npm package.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HostPort, HostTarget } from "../tenants/ports";
import { HostUnavailableError, InterruptedError } from "../tenants/tenantsErrors";
import { oneContext } from "../kubeconfig/hostKubeconfig";

/** The repository's test bed script, present when this package runs from a checkout. */
export const TESTBED_SCRIPT = path.resolve(__dirname, "../../test/testbed/testbed.sh");

/** Whether this checkout has a test bed. */
export const hasTestbed = (): boolean => existsSync(TESTBED_SCRIPT);

/**
 * What is said before the test bed is started, so that nobody waits on a build they did not ask
 * for: what starts, how long its first start takes, and how to name a host instead.
 */
export const TESTBED_NOTICE =
  "no host cluster is named: starting the local test bed of this checkout (test/testbed/testbed.sh up). " +
  "The first time, it builds its Kubernetes control plane, vCluster and Pulumi from pinned Go modules: 26 to 40 minutes on 2 cores; " +
  "after that it starts in seconds. To use a cluster of your own instead, name its context: " +
  "`kubespaces login --context NAME` (for `kubespaces server`, `--context NAME`).";

/**
 * The test bed as a host; `start` brings it up (`testbed.sh up`; tests pass a stand-in). The
 * notice goes to `progress` first, which a command prints on stderr and the server logs.
 */
export function testbedHost(start: (signal?: AbortSignal) => Promise<void> = bringUp): HostPort {
  return {
    async resolve(progress, signal) {
      progress(TESTBED_NOTICE);
      await start(signal);
      const { KUBECONFIG: adminKubeconfig, ...env } = testbedEnv();
      if (!adminKubeconfig) throw new HostUnavailableError(`the test bed's env file ${envFile()} sets no KUBECONFIG`);
      const target: HostTarget = {
        description: "the local test bed",
        kubeconfig: await oneContext(adminKubeconfig, undefined),
        engineEnv: env,
        ...(env.KUBESPACES_VCLUSTER_CHART && { chartPath: env.KUBESPACES_VCLUSTER_CHART }),
      };
      return target;
    },
    engineEnvForReads() {
      // Before the test bed's first start there is no env file, and `testbed.sh env` says so by failing.
      let file: string;
      try {
        file = envFile();
      } catch {
        return {};
      }
      if (!existsSync(file)) return {};
      const { KUBECONFIG: _admin, ...env } = testbedEnv(file);
      return env;
    },
  };
}

/** `testbed.sh up`, its progress on stderr as it happens; the signal stops it. */
async function bringUp(signal: AbortSignal | undefined): Promise<void> {
  const child = spawn("bash", [TESTBED_SCRIPT, "up"], { stdio: ["ignore", process.stderr, process.stderr], signal });
  child.on("error", () => {}); // an abort rejects through `once` below
  try {
    const [code] = (await once(child, "close")) as [number | null];
    if (code !== 0)
      throw new HostUnavailableError(
        `the local test bed did not come up (testbed.sh up exited ${code}); its messages are above`,
      );
  } catch (error) {
    if (signal?.aborted)
      throw new InterruptedError("", "interrupted while the local test bed came up; nothing was changed");
    throw error;
  }
}

/** The loopback URL on this machine of a tenant's API server: the test bed forwards one port per control plane. */
export function testbedEndpoint(namespace: string, name: string): string {
  return execFileSync("bash", [TESTBED_SCRIPT, "vcluster-endpoint", namespace, name], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

const envFile = (): string => execFileSync("bash", [TESTBED_SCRIPT, "env"], { encoding: "utf8" }).trim();

/** A PATH that stands for "the PATH of whoever sources the file", to find where the file puts its own dirs. */
const PATH_MARK = "/kubespaces-testbed-path-mark";

/**
 * What the env file sets, whatever the shell this command runs in has already sourced: it is
 * sourced in an empty environment and compared with one that did not source it. Its PATH keeps
 * this process's PATH where the file appends `$PATH`; its passphrase is left out (the command's
 * stacks have their own). Bash runs `bash -c` with a socket as stdin (as Node's pipes are) as if
 * sshd had started it, and sources ~/.bashrc first: with PATH set to the mark, a line there such
 * as `eval "$(pyenv init -)"` printed "/usr/bin/env: 'bash': No such file or directory" to the
 * person's terminal, and what it set leaked into the engine's environment. So the shells read no
 * startup file (`--norc --noprofile`), get no stdin, and their stderr is kept off the terminal.
 */
export function testbedEnv(file = envFile()): Record<string, string> {
  const base = { HOME: os.homedir(), PATH: PATH_MARK };
  const dump = (source: boolean) =>
    parseEnv(
      execFileSync(
        "/usr/bin/env",
        [
          "-i",
          ...Object.entries(base).map(([k, v]) => `${k}=${v}`),
          "/bin/bash",
          "--norc",
          "--noprofile",
          "-c",
          `${source ? 'source "$1" && ' : ""}/usr/bin/env -0`,
          "env",
          file,
        ],
        { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
      ),
    );
  const before = dump(false);
  const after = dump(true);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(after)) {
    if (before[key] === value || key.startsWith("PULUMI_CONFIG_PASSPHRASE") || SHELL_OWN.has(key)) continue;
    env[key] = key === "PATH" ? value.split(PATH_MARK).join(process.env.PATH ?? "") : value;
  }
  return env;
}

/** Variables bash sets for itself, not the env file's. */
const SHELL_OWN = new Set(["_", "SHLVL", "PWD", "OLDPWD"]);

function parseEnv(dump: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of dump.split("\0")) {
    const eq = entry.indexOf("=");
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}
