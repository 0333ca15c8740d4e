/**
 * The server's setup, which `kubespaces server` calls: it runs the reconciler of Tenant resources,
 * the API and the portal until SIGINT or SIGTERM. With
 * `--context` it reaches that host with that context's credentials (give it the server's
 * ServiceAccount); with none, in a checkout, it uses the local test bed: it installs the Tenant API
 * there with the test bed's admin credentials and then runs as the server's ServiceAccount, holding
 * only the RBAC it installed; with none in a pod, the cluster it runs in, as the pod's
 * ServiceAccount. Tenants live in stacks of project `kubespaces-server` in its backend.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { parse } from "yaml";
import { inClusterHost } from "../hosts/inClusterHost";
import { chooseHost, hostKind } from "../hosts/hostChoice";
import { serviceAccountHost } from "../hosts/serviceAccountHost";
import { parsePlatformPolicy, problemLines } from "../model/platformPolicyValue";
import { AutomationStacks } from "../tenants/automation/automationStacks";
import { ProblemError } from "../util/problemError";
import { shownText } from "../util/terminalText";
import { readingUserFile } from "../util/userFiles";
import { startLocalDex } from "./auth/localDex";
import { MIN_SESSION_KEY_BYTES, sessionKeys, type SessionKeys } from "./auth/sessionSeal";
import { signInConfigSchema } from "./auth/signInConfig";
import { CALLBACK_PATH, discoverSignIn, type SignInParts } from "./auth/signInParts";
import { runServer, type GoneReplicas } from "./kubespacesServer";
import { serverConfigSchema, type ServerConfig } from "./serverConfig";
import { serverLogger, type LogLevel } from "./serverLog";
import { installTenantApi, SERVER_SERVICE_ACCOUNT } from "./kube/tenantApiInstall";

/** How the server is started (the command's flags). */
export interface ServerMainOptions {
  /** The host's kubeconfig context; none means the local test bed. */
  readonly context?: string;
  /** The kubeconfig file of that context. */
  readonly kubeconfig?: string;
  /** The server's configuration file (YAML). */
  readonly config?: string;
  /** The Pulumi state backend URL. */
  readonly backend?: string;
  /** This replica's identity among the replicas (its Lease's holder). */
  readonly id?: string;
  /** Where the API and portal listen, over the configuration's `http.listen`. */
  readonly listen?: string;
  /** Where `/metrics` is served, over the configuration's `metricsListen`. */
  readonly metricsListen?: string;
}

/** The Pulumi project that holds the server's stacks, one per tenant. */
export const SERVER_PROJECT = "kubespaces-server";

/** Where the server keeps its files: the starting command's home. */
export interface ServerHome {
  /** The folder `parts` under the home, made (owner-only) if missing. */
  dir(...parts: string[]): string;
  /** The file that holds the stacks' passphrase. */
  passphraseFile(): string;
}

/** Where the server writes: the audit lines on `stdout`, its log on `stderr`. */
export interface ServerStreams {
  /** The audit log, one JSON line per action. */
  readonly stdout: { write(text: string): unknown };
  /** The server's log. */
  readonly stderr: { write(text: string): unknown };
}

/** Runs the server until it is told to stop. */
export async function serverMain(io: ServerStreams, home: ServerHome, options: ServerMainOptions): Promise<void> {
  const config = serverConfigOf(options.config, options);
  const identity = options.id ?? `${os.hostname()}-${process.pid}`;
  const naming = { context: options.context, kubeconfig: options.kubeconfig };
  const kind = hostKind(naming);
  // In a pod (no checkout, no test bed there): the cluster it runs in, as its own ServiceAccount.
  const inCluster = kind === "none" ? inClusterHost() : undefined;
  if (kind === "none" && !inCluster)
    throw new ProblemError(
      "no host cluster: pass --context NAME (a context of your kubeconfig), or run it in a pod of the host",
      "invalid",
    );
  const host =
    inCluster ??
    (kind === "testbed"
      ? serviceAccountHost(
          chooseHost(naming),
          { namespace: config.namespace, name: SERVER_SERVICE_ACCOUNT },
          (admin, say) => installTenantApi(admin, config, say),
        )
      : chooseHost(naming));
  // A lock left by a gone replica's update is removed: in a pod, a replica's identity is its host name.
  const stacks = (replicas: GoneReplicas) =>
    new AutomationStacks({
      backendUrl: options.backend ?? `file://${home.dir("server", "state")}`,
      project: SERVER_PROJECT,
      workRoot: home.dir("server", "engine", safeName(identity)),
      passphrase: () => readFileSync(home.passphraseFile(), "utf8").trim(),
      isHostGone: (hostname) => replicas.isGone(hostname),
    });
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    io.stderr.write(`kubespaces server: ${signal}: stopping\n`);
    stop.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const logger = serverLogger(io.stderr, { replica: identity });
    // The reconciler's lines quote tenants' names and statuses, which other people wrote.
    const log = (line: string, level: LogLevel = "info") => logger[level](shownText(line));
    // The audit log, a stream of its own: one JSON line per action on stdout.
    const audit = (line: string) => void io.stdout.write(`${line}\n`);
    const signIn = signInOf(config, kind === "testbed", { identity, signal: stop.signal, log, home });
    await runServer({ host, stacks, log, logger, audit, signIn, sessionKeys: sessionKeysOf(config, log) }, config, {
      identity,
      signal: stop.signal,
    });
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}

/**
 * How people sign in: the configured issuer, or, on the local test bed with none configured, the
 * local Dex (a local default, with published passwords) started for this replica.
 */
function signInOf(
  config: ServerConfig,
  onTestbed: boolean,
  run: {
    readonly identity: string;
    readonly signal: AbortSignal;
    readonly log: (line: string) => void;
    readonly home: ServerHome;
  },
): (publicUrl: URL) => Promise<SignInParts> {
  const configured = config.signIn;
  if (configured) {
    const secret = readingUserFile(`signIn.portalClientSecretFile ${configured.portalClientSecretFile}`, () =>
      readFileSync(configured.portalClientSecretFile, "utf8").trim(),
    );
    return (publicUrl) => discoverSignIn(configured, secret, publicUrl, config.adminGroup);
  }
  if (!onTestbed)
    throw new ProblemError(
      "signIn is required in --config off the local test bed: the issuer, the portal's client and its secret file (see docs/self-service.md)",
      "invalid",
    );
  return async (publicUrl) => {
    const dex = await startLocalDex({
      dir: run.home.dir("server", "dex", safeName(run.identity)),
      portalRedirectUris: [new URL(CALLBACK_PATH, publicUrl).href],
      signal: run.signal,
      say: run.log,
    });
    // The schema's defaults (email, groups, the scopes) are what the local Dex gives.
    const local = signInConfigSchema.parse({
      issuer: dex.issuer,
      portalClientId: dex.portalClient.id,
      cliClientId: dex.cliClient.id,
      portalClientSecretFile: "(none: the local Dex's secret is handed over in memory)",
    });
    return discoverSignIn(local, dex.portalClient.secret, publicUrl, config.adminGroup);
  };
}

/** The keys that seal sessions: from the configured file (shared by replicas), or made for this process. */
function sessionKeysOf(config: ServerConfig, log: (line: string) => void): SessionKeys {
  const file = config.http.sessionKeyFile;
  if (!file) {
    log(
      "sessions are sealed with a key of this process: they end when it stops (set http.sessionKeyFile to keep them)",
    );
    return sessionKeys();
  }
  const material = readingUserFile(`http.sessionKeyFile ${file}`, () => readFileSync(file));
  if (material.length < MIN_SESSION_KEY_BYTES)
    throw new ProblemError(
      `http.sessionKeyFile ${file} holds ${material.length} bytes; it must hold at least ${MIN_SESSION_KEY_BYTES} random bytes`,
      "invalid",
    );
  return sessionKeys(material);
}

const safeName = (identity: string) => identity.replace(/[^A-Za-z0-9._-]/g, "_");

/** The configuration in `file` (YAML) with the flags' addresses over it, checked; none gives the defaults. */
function serverConfigOf(
  file: string | undefined,
  flags: Pick<ServerMainOptions, "listen" | "metricsListen">,
): ServerConfig {
  const value =
    (file ? readingUserFile(`--config ${file}`, () => parseYaml(file, readFileSync(file, "utf8"))) : {}) ?? {};
  const parsed = serverConfigSchema.safeParse(withListen(value, flags), { reportInput: true });
  if (!parsed.success)
    throw new ProblemError(
      `${file} is not a valid server configuration: ${problemLines(parsed.error.issues)}`,
      "invalid",
    );
  return { ...parsed.data, platform: parsePlatformPolicy(`${file} (platform)`, parsed.data.platform) };
}

/**
 * The configuration `value` with `--listen` over its `http.listen` and `--metrics-listen` over its
 * `metricsListen`, each only when given (what is no object, the schema refuses).
 */
function withListen(
  value: unknown,
  { listen, metricsListen }: Pick<ServerMainOptions, "listen" | "metricsListen">,
): unknown {
  if (typeof value !== "object" || value === null) return value;
  const { http } = value as { http?: unknown };
  return {
    ...value,
    ...(listen !== undefined && { http: { ...(typeof http === "object" ? http : {}), listen } }),
    ...(metricsListen !== undefined && { metricsListen }),
  };
}

function parseYaml(file: string, text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    throw new ProblemError(`--config ${file} is not valid YAML: ${(error as Error).message.split("\n")[0]}`, "invalid");
  }
}
