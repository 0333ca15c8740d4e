/**
 * The host cluster the tenants stack provisions into: the context `kubespaces login --context`
 * recorded, else (with no cluster configured, as for `npm start`) the local test bed of this
 * checkout, brought up if needed. Either way the host's kubeconfig goes to the tenants as the
 * platform's `hostKubeconfig` (a secret), so that the Kubernetes provider and the lifecycle checks
 * read the same cluster, whatever `$KUBECONFIG` the user's own kubectl uses.
 */
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { parsingSecret } from "../util/redactedErrors";
import { CliError, EXIT } from "./exitCodes";
import { userKubeconfigFile } from "./kubeconfigMerge";
import type { LoginSettings } from "./loginSettings";

/** Where tenants go, and what the engine needs to reach it. */
export interface HostTarget {
  /** For people: "context X of FILE" or "the local test bed". */
  readonly description: string;
  /** The host kubeconfig (one context, made current), for the tenants' `platform.hostKubeconfig`. */
  readonly kubeconfig: string;
  /** Environment for the Pulumi engine (the test bed's PATH with its pulumi, PULUMI_HOME, ...). */
  readonly engineEnv: Record<string, string>;
  /** The vCluster chart to use instead of the policy's, when the host has its own (the test bed's packaged chart). */
  readonly chartPath?: string;
}

/** The repository's test bed script, present when this package runs from a checkout. */
const TESTBED_SCRIPT = path.resolve(__dirname, "../../test/testbed/testbed.sh");

/** Whether the host is the local test bed: no context recorded, and a checkout that has one. */
const usesTestbed = (settings: LoginSettings): boolean => !settings.context && existsSync(TESTBED_SCRIPT);

/** The host the login names, or the test bed (brought up first; Ctrl-C stops that too). */
export async function hostTarget(settings: LoginSettings, progress: (line: string) => void): Promise<HostTarget> {
  if (settings.context) return loginContext(settings.context, hostKubeconfigFile(settings));
  if (!usesTestbed(settings)) {
    throw new CliError("no host cluster is configured: run `kubespaces login --context NAME` (a context of your kubeconfig)", EXIT.invalid);
  }
  progress("no host cluster configured: using the local test bed (bringing it up if needed)");
  await bringTestbedUp();
  // The admin kubeconfig reaches the tenants as hostKubeconfig, not as the engine's KUBECONFIG.
  const { KUBECONFIG: adminKubeconfig, ...env } = testbedEnv();
  return {
    description: "the local test bed",
    kubeconfig: oneContext(adminKubeconfig, currentContextOf(adminKubeconfig)),
    engineEnv: env,
    chartPath: env.KUBESPACES_VCLUSTER_CHART,
  };
}

/** `testbed.sh up`, its progress on stderr as it happens. */
async function bringTestbedUp(): Promise<void> {
  const child = spawn("bash", [TESTBED_SCRIPT, "up"], { stdio: ["ignore", process.stderr, process.stderr] });
  const [code] = (await once(child, "close")) as [number | null];
  if (code !== 0) throw new CliError(`the local test bed did not come up (testbed.sh up exited ${code}); its messages are above`, EXIT.error);
}

/** The kubeconfig file the login's context is in: `--kubeconfig`, else the first of `$KUBECONFIG`, else `~/.kube/config`. */
export function hostKubeconfigFile(settings: LoginSettings): string {
  return settings.kubeconfig ?? userKubeconfigFile();
}

function loginContext(context: string, kubeconfigFile: string): HostTarget {
  return { description: `context ${context} of ${kubeconfigFile}`, kubeconfig: oneContext(kubeconfigFile, context), engineEnv: {} };
}

/** Context `context` of `file` alone, flattened and made current. */
export function oneContext(file: string, context: string): string {
  if (!existsSync(file)) throw new CliError(`kubeconfig ${file} does not exist (--kubeconfig names another)`, EXIT.invalid);
  const config = new KubeConfig();
  parsingSecret(`kubeconfig ${file}`, () => config.loadFromString(readFileSync(file, "utf8")));
  const ctx = config.getContextObject(context);
  if (!ctx) {
    throw new CliError(`kubeconfig ${file} has no context ${context} (it has: ${config.getContexts().map((c) => c.name).join(", ") || "none"})`, EXIT.invalid);
  }
  const only = new KubeConfig();
  only.loadFromOptions({
    clusters: config.getClusters().filter((c) => c.name === ctx.cluster),
    users: config.getUsers().filter((u) => u.name === ctx.user),
    contexts: [ctx],
    currentContext: context,
  });
  return only.exportConfig();
}

/**
 * The engine's environment for commands that only read the stack: the test bed's (for its pulumi
 * CLI) when it is the host and has run before, without bringing it up.
 */
export function engineEnvForReads(settings: LoginSettings): Record<string, string> {
  if (!usesTestbed(settings) || !existsSync(testbedEnvFile())) return {};
  const { KUBECONFIG: _admin, ...env } = testbedEnv();
  return env;
}

/**
 * The loopback URL on this machine of tenant `name`'s API server, when the host is the test bed:
 * its tenants' API names do not resolve here, and it forwards one port per control plane.
 */
export function localEndpointOf(settings: LoginSettings): ((namespace: string, name: string) => string) | undefined {
  if (!usesTestbed(settings)) return undefined;
  return (namespace, name) => execFileSync("bash", [TESTBED_SCRIPT, "vcluster-endpoint", namespace, name], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function currentContextOf(file: string): string {
  const config = new KubeConfig();
  config.loadFromFile(file);
  return config.getCurrentContext();
}

const testbedEnvFile = (): string => execFileSync("bash", [TESTBED_SCRIPT, "env"], { encoding: "utf8" }).trim();

/** Variables bash sets for itself, not the env file's. */
const SHELL_OWN = new Set(["_", "SHLVL", "PWD", "OLDPWD"]);

/**
 * What the test bed's env file changes in this environment (its pulumi on PATH, PULUMI_HOME, its
 * admin kubeconfig, its chart), less the passphrase: the command keeps its own.
 */
function testbedEnv(): Record<string, string> {
  const dump = execFileSync("bash", ["-c", 'source "$1" && env -0', "env", testbedEnvFile()], { encoding: "utf8" });
  const env: Record<string, string> = {};
  for (const entry of dump.split("\0")) {
    const eq = entry.indexOf("=");
    const [key, value] = [entry.slice(0, eq), entry.slice(eq + 1)];
    if (eq > 0 && process.env[key] !== value && !SHELL_OWN.has(key) && !key.startsWith("PULUMI_CONFIG_PASSPHRASE")) env[key] = value;
  }
  return env;
}
