/**
 * The host cluster the tenants stack provisions into: the context `kubespaces login --context`
 * recorded, else (with no cluster configured, as for `npm start`) the local test bed of this
 * checkout, brought up if needed. Either way the host's kubeconfig goes to the tenants as the
 * platform's `hostKubeconfig` (a secret), so that the Kubernetes provider and the lifecycle checks
 * read the same cluster, whatever `$KUBECONFIG` the user's own kubectl uses.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { parsingSecret } from "../util/redactedErrors";
import { userKubeconfigFile } from "./kubeconfigMerge";
import { CliError, EXIT } from "./exitCodes";
import type { LoginSettings } from "./loginSettings";

/** Where tenants go, and what the engine needs to reach it. */
export interface HostTarget {
  /** For people: "context X in FILE" or "the local test bed". */
  readonly description: string;
  /** The host kubeconfig (one context, made current), for the tenants' `platform.hostKubeconfig`. */
  readonly kubeconfig: string;
  /** Environment for the Pulumi engine (the test bed's PATH with its pulumi, PULUMI_HOME, ...). */
  readonly engineEnv: Record<string, string>;
  /** The vCluster chart to use instead of the policy's, when the host has its own (the test bed's packaged chart). */
  readonly chartPath?: string;
  /**
   * The loopback URL on this machine of tenant `name`'s API server, when its public name does not
   * resolve here (the test bed forwards one port per control plane).
   */
  readonly localEndpoint?: (namespace: string, name: string) => string;
}

/** The repository's test bed script, when this package runs from a checkout that has it. */
export const TESTBED_SCRIPT = path.resolve(__dirname, "../../test/testbed/testbed.sh");

/** The host the login names, or the test bed. */
export function hostTarget(settings: LoginSettings, progress: (line: string) => void): HostTarget {
  if (settings.context) return loginContext(settings.context, hostKubeconfigFile(settings));
  if (!existsSync(TESTBED_SCRIPT)) {
    throw new CliError("no host cluster is configured: run `kubespaces login --context NAME` (a context of your kubeconfig)", EXIT.invalid);
  }
  return testbedTarget(progress);
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
  if (!config.getContextObject(context)) {
    throw new CliError(`kubeconfig ${file} has no context ${context} (it has: ${config.getContexts().map((c) => c.name).join(", ") || "none"})`, EXIT.invalid);
  }
  config.setCurrentContext(context);
  const only = new KubeConfig();
  const ctx = config.getContextObject(context)!;
  only.loadFromOptions({
    clusters: config.getClusters().filter((c) => c.name === ctx.cluster),
    users: config.getUsers().filter((u) => u.name === ctx.user),
    contexts: [ctx],
    currentContext: context,
  });
  return only.exportConfig();
}

function testbedTarget(progress: (line: string) => void): HostTarget {
  progress("no host cluster configured: using the local test bed (bringing it up if needed)");
  // The test bed prints its own progress on stderr; the user sees it as it happens.
  execFileSync("bash", [TESTBED_SCRIPT, "up"], { stdio: ["ignore", process.stderr, process.stderr] });
  // The admin kubeconfig reaches the tenants as hostKubeconfig, not as the engine's KUBECONFIG.
  const { KUBECONFIG: adminKubeconfig, ...env } = testbedEnv();
  return {
    description: "the local test bed",
    kubeconfig: oneContext(adminKubeconfig, currentContextOf(adminKubeconfig)),
    engineEnv: env,
    chartPath: env.KUBESPACES_VCLUSTER_CHART,
    localEndpoint: testbedEndpoint,
  };
}

/**
 * The engine's environment for commands that only read the stack: the test bed's (for its pulumi
 * CLI) when it is the host and has run before, without bringing it up.
 */
export function engineEnvForReads(settings: LoginSettings): Record<string, string> {
  if (settings.context || !existsSync(TESTBED_SCRIPT)) return {};
  const envFile = execFileSync("bash", [TESTBED_SCRIPT, "env"], { encoding: "utf8" }).trim();
  if (!existsSync(envFile)) return {};
  const { KUBECONFIG: _admin, ...env } = testbedEnv();
  return env;
}

/** The test bed's loopback endpoint of tenant control planes, when the test bed is the host. */
export function localEndpointOf(settings: LoginSettings): HostTarget["localEndpoint"] {
  return settings.context || !existsSync(TESTBED_SCRIPT) ? undefined : testbedEndpoint;
}

function testbedEndpoint(namespace: string, name: string): string {
  return execFileSync("bash", [TESTBED_SCRIPT, "vcluster-endpoint", namespace, name], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function currentContextOf(file: string): string {
  const config = new KubeConfig();
  config.loadFromFile(file);
  return config.getCurrentContext();
}

/** Variables bash sets for itself, not the env file's. */
const SHELL_OWN = new Set(["_", "SHLVL", "PWD", "OLDPWD"]);

/**
 * What the test bed's env file changes in this environment (its pulumi on PATH, PULUMI_HOME, its
 * admin kubeconfig, its chart), less the passphrase: the command keeps its own.
 */
function testbedEnv(): Record<string, string> {
  const envFile = execFileSync("bash", [TESTBED_SCRIPT, "env"], { encoding: "utf8" }).trim();
  const dump = execFileSync("bash", ["-c", 'source "$1" && env -0', "env", envFile], { encoding: "utf8" });
  const env: Record<string, string> = {};
  for (const entry of dump.split("\0")) {
    const eq = entry.indexOf("=");
    const [key, value] = [entry.slice(0, eq), entry.slice(eq + 1)];
    if (eq > 0 && process.env[key] !== value && !SHELL_OWN.has(key) && !key.startsWith("PULUMI_CONFIG_PASSPHRASE")) env[key] = value;
  }
  return env;
}
