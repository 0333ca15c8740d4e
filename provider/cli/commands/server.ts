/**
 * `kubespaces server`: runs the reconciler of Tenant resources until SIGINT or SIGTERM. With
 * `--context` it reaches that host with that context's credentials (give it the server's
 * ServiceAccount); with none, in a checkout, it uses the local test bed: it installs the Tenant API
 * there with the test bed's admin credentials and then runs as the server's ServiceAccount, holding
 * only the RBAC it installed. Tenants live in stacks of project `kubespaces-server` in its backend.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import { parse } from "yaml";
import { AutomationStacks } from "../../tenants/automation/automationStacks";
import { runServer } from "../../server/kubespacesServer";
import { serverConfigSchema, type ServerConfig } from "../../server/serverConfig";
import { serviceAccountHost } from "../../server/serviceAccountHost";
import { installTenantApi, SERVER_SERVICE_ACCOUNT } from "../../server/tenantApiInstall";
import { homeDir, passphraseFile } from "../cliHome";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT, readingUserFile } from "../exitCodes";
import { chooseHost, hostKind } from "../hostChoice";
import { parsePlatformPolicy, problemLines } from "../loginSettings";

/** `server`'s options. */
export interface ServerOptions {
  /** The host's kubeconfig context; none means the local test bed. */
  readonly context?: string;
  /** The kubeconfig file of that context. */
  readonly kubeconfig?: string;
  /** The server's configuration file (YAML). */
  readonly config?: string;
  /** The Pulumi state backend URL. */
  readonly backend?: string;
  /** This replica's identity in the leader election. */
  readonly id?: string;
}

/** The Pulumi project that holds the server's stacks, one per tenant. */
export const SERVER_PROJECT = "kubespaces-server";

/** Runs `server` until it is told to stop. */
export async function runServerCommand(env: CommandEnv, options: ServerOptions): Promise<number> {
  const config = serverConfigOf(options.config);
  const identity = options.id ?? `${os.hostname()}-${process.pid}`;
  const naming = { context: options.context, kubeconfig: options.kubeconfig };
  const kind = hostKind(naming);
  if (kind === "none")
    throw new CliError("no host cluster: pass --context NAME (a context of your kubeconfig)", EXIT.invalid);
  const host =
    kind === "testbed"
      ? serviceAccountHost(
          chooseHost(naming),
          { namespace: config.namespace, name: SERVER_SERVICE_ACCOUNT },
          (admin, say) => installTenantApi(admin, config, say),
        )
      : chooseHost(naming);
  const stacks = new AutomationStacks({
    backendUrl: options.backend ?? `file://${homeDir("server", "state")}`,
    project: SERVER_PROJECT,
    workRoot: homeDir("server", "engine", identity.replace(/[^A-Za-z0-9._-]/g, "_")),
    passphrase: () => readFileSync(passphraseFile(), "utf8").trim(),
  });
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    env.stderr.write(`kubespaces server: ${signal}: giving up the lead and stopping\n`);
    stop.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    await runServer({ host, stacks, log: (line) => env.stderr.write(`kubespaces server: ${line}\n`) }, config, {
      identity,
      signal: stop.signal,
    });
    return EXIT.ok;
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}

/** The configuration in `file` (YAML), checked; none gives the defaults. */
function serverConfigOf(file: string | undefined): ServerConfig {
  const value = file ? readingUserFile(`--config ${file}`, () => parseYaml(file, readFileSync(file, "utf8"))) : {};
  const parsed = serverConfigSchema.safeParse(value ?? {}, { reportInput: true });
  if (!parsed.success)
    throw new CliError(
      `${file} is not a valid server configuration: ${problemLines(parsed.error.issues)}`,
      EXIT.invalid,
    );
  return { ...parsed.data, platform: parsePlatformPolicy(`${file} (platform)`, parsed.data.platform) };
}

function parseYaml(file: string, text: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    throw new CliError(`--config ${file} is not valid YAML: ${(error as Error).message.split("\n")[0]}`, EXIT.invalid);
  }
}
