/**
 * `kubespaces login`: records where the tenants' stacks live (`--server`, a Pulumi state backend
 * URL, `file://` in the command's home by default, and `--project`), the host cluster (`--context`
 * of `--kubeconfig`; none means the local test bed), who you are, and the platform's policy
 * (`--platform FILE`). With no flags it shows what is recorded.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT, readingUserFile } from "../exitCodes";
import { formatted, type Column } from "../formatOutput";
import { describeHost, kubeconfigFileOf } from "../hostChoice";
import { oneContext } from "../hostKubeconfig";
import { defaultBackendUrl } from "../localDoor";
import {
  currentUser,
  parsePlatformPolicy,
  projectOf,
  readLoginSettings,
  writeLoginSettings,
  type LoginSettings,
} from "../loginSettings";
import type { ReadOptions } from "../tenantPrint";

/** `login`'s options. */
export interface LoginOptions extends ReadOptions {
  /** The Pulumi state backend URL. */
  readonly server?: string;
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

const SETTING_COLUMNS: readonly Column<{ setting: string; value: string }>[] = [
  { heading: "SETTING", value: (r) => r.setting },
  { heading: "VALUE", value: (r) => r.value },
];

/** Runs `login`. */
export async function login(env: CommandEnv, options: LoginOptions): Promise<number> {
  const before = options.reset ? {} : readLoginSettings();
  const changes: LoginSettings = {
    ...(options.server !== undefined && { backendUrl: options.server }),
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
  const shown = {
    backend: settings.backendUrl ?? `${defaultBackendUrl()} (default)`,
    project: projectOf(settings),
    host: describeHost(settings),
    user: currentUser(settings),
    platform: settings.platform ? "set" : "the defaults",
  };
  const rows = Object.entries(shown).map(([setting, value]) => ({ setting, value }));
  env.stdout.write(formatted({ rows, columns: SETTING_COLUMNS, document: shown, names: [] }, options.output));
  return EXIT.ok;
}
