/**
 * `kubespaces login`. With `--server URL` it signs in to that kubespaces server (serverLogin.ts),
 * and every tenant command then goes through it (server mode). Otherwise (local mode) it records
 * where the tenants' stacks live (`--backend`, a Pulumi state backend URL, `file://` in the
 * command's home by default, and `--project`), the host cluster (`--context` of `--kubeconfig`;
 * none means the local test bed), who you are, and the platform's policy (`--platform FILE`). With
 * no flags it shows what is recorded.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { fileBackendFolder, isFileBackend, missingBackendFolder } from "../../tenants/automation/fileBackend";
import { redactedBackendUrl } from "../../tenants/automation/backendUrlPassword";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import { readingUserFile } from "../../util/userFiles";
import { formatted, type Column } from "../formatOutput";
import { describeHost, kubeconfigFileOf } from "../../hosts/hostChoice";
import { oneContext } from "../../kubeconfig/hostKubeconfig";
import { defaultBackendUrl } from "../localMode/localDoor";
import { currentUser, projectOf, readLoginSettings, writeLoginSettings, type LoginSettings } from "../loginSettings";
import { forgetSignIn } from "../serverMode/signInTokens";
import { parsePlatformPolicy } from "../../model/platformPolicyValue";
import type { ReadOptions } from "../tenantPrint";

/** `login`'s options. */
export interface LoginOptions extends ReadOptions {
  /** The kubespaces server to sign in to. */
  readonly server?: string;
  /** The Pulumi state backend URL. */
  readonly backend?: string;
  /** The host cluster's kubeconfig context. */
  readonly context?: string;
  /** The kubeconfig file of that context. */
  readonly kubeconfig?: string;
  /** The Pulumi project of the tenants' stacks. */
  readonly project?: string;
  /** Who you are. */
  readonly user?: string;
  /** A YAML file of the platform's policy. */
  readonly platform?: string;
  /** Forget what was recorded before. */
  readonly reset?: boolean;
}

/** The platform's policy in `file`: missing or unparseable is bad input, like a policy that breaks the schema. */
function policyOfFile(file: string): unknown {
  const text = readingUserFile(`--platform ${file}`, () => readFileSync(file, "utf8"));
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw new CliError(
      `--platform ${file} is not valid YAML: ${(error as Error).message.split("\n")[0]}`,
      EXIT.invalid,
    );
  }
  return parsePlatformPolicy(file, value);
}

/**
 * `--backend URL`, refused when it is a file backend the engine cannot use: a relative folder (the
 * engine would read it from its own working folder) or one that does not exist. A missing folder is
 * not made here: a mistyped path would become an empty backend, where the tenants' stacks look gone.
 */
function checkedBackend(url: string): string {
  if (isFileBackend(url) && fileBackendFolder(url) === undefined)
    throw new CliError(
      `--backend ${redactedBackendUrl(url)}: a file backend names an absolute folder (file:///path, or file://~/path in your home)`,
      EXIT.invalid,
    );
  const missing = missingBackendFolder(url);
  if (missing !== undefined)
    throw new CliError(
      `--backend ${redactedBackendUrl(url)}: there is no folder ${missing}; create it first (mkdir -p ${missing}), or name the backend you meant`,
      EXIT.invalid,
    );
  return url;
}

const SETTING_COLUMNS: readonly Column<{ setting: string; value: string }>[] = [
  { heading: "SETTING", value: (r) => r.setting },
  { heading: "VALUE", value: (r) => r.value },
];

/** The flags that set local mode's settings. */
const LOCAL_FLAGS = ["backend", "project", "context", "kubeconfig", "user", "platform"] as const;

/** The local-mode flags among `options`, as typed. */
const localFlagsOf = (options: LoginOptions): string[] =>
  LOCAL_FLAGS.filter((flag) => options[flag] !== undefined).map((flag) => `--${flag}`);

/**
 * Runs `login`. `--server` signs in to a kubespaces server (server mode); `--backend` or
 * `--context` (or `--reset`) goes back to local mode, forgetting the sign-in; the other local
 * settings are kept while in server mode and apply again in local mode.
 */
export async function login(env: CommandEnv, options: LoginOptions): Promise<number> {
  if (options.server !== undefined) {
    const flags = localFlagsOf(options);
    if (flags.length > 0)
      throw new CliError(
        `--server signs in to a kubespaces server, which holds the stacks, the host and the policy: ${flags.join(", ")} belong to local mode; give them without --server`,
        EXIT.invalid,
      );
    const { signInToServer } = await import("../serverMode/serverLogin");
    env.stdout.write(settingsText(await signInToServer(env, options.server, options.reset === true), options.output));
    return EXIT.ok;
  }
  const recorded = readLoginSettings();
  const leaving =
    recorded.server !== undefined && [options.reset, options.backend, options.context].some((v) => v !== undefined);
  if (recorded.server && !leaving) {
    const flags = localFlagsOf(options);
    if (flags.length > 0)
      throw new CliError(
        `${flags.join(", ")}: local mode's, and you are signed in to ${recorded.server}: switch to local mode with --backend URL or --context NAME, or \`kubespaces login --reset\``,
        EXIT.invalid,
      );
    env.stdout.write(
      settingsText((await import("../serverMode/serverLogin")).serverLoginShown(recorded.server), options.output),
    );
    return EXIT.ok;
  }
  const { server: _server, ...before } = options.reset ? {} : recorded;
  const changes: LoginSettings = {
    ...(options.backend !== undefined && { backendUrl: checkedBackend(options.backend) }),
    ...(options.kubeconfig !== undefined && { kubeconfig: options.kubeconfig }),
    ...(options.context !== undefined && { context: options.context }),
    ...(options.project !== undefined && { project: options.project }),
    ...(options.user !== undefined && { user: options.user }),
    ...(options.platform !== undefined && { platform: policyOfFile(options.platform) as Record<string, unknown> }),
  };
  const settings = { ...before, ...changes };
  // A context is checked now, not at the first create.
  if (settings.context && (changes.context !== undefined || changes.kubeconfig !== undefined))
    await oneContext(kubeconfigFileOf(settings), settings.context);
  if (options.reset || Object.keys(changes).length > 0) writeLoginSettings(settings);
  if ((options.reset || leaving) && (forgetSignIn() || recorded.server))
    env.stderr.write(
      `local mode: signed out${recorded.server ? ` of ${recorded.server}` : ""}; tenant commands run the tenants' stacks from this machine\n`,
    );
  // The settings are printed, and may be pasted or logged: a password the URL holds is left out.
  const shown = {
    backend: settings.backendUrl ? redactedBackendUrl(settings.backendUrl) : `${defaultBackendUrl()} (default)`,
    project: projectOf(settings),
    host: describeHost(settings),
    user: currentUser(settings),
    platform: settings.platform ? "set" : "the defaults",
  };
  env.stdout.write(settingsText(shown, options.output));
  return EXIT.ok;
}

/** Settings as a SETTING / VALUE table, or as a document. */
function settingsText(shown: Readonly<Record<string, string>>, format: LoginOptions["output"]): string {
  const rows = Object.entries(shown).map(([setting, value]) => ({ setting, value }));
  return formatted({ rows, columns: SETTING_COLUMNS, document: shown, names: [] }, format);
}
