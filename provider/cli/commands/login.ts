/**
 * `kubespaces login`: records where the tenants stack lives (`--server`, a Pulumi state backend
 * URL; `file://` in the command's home by default), the host cluster (`--context` of
 * `--kubeconfig`; none means the local test bed), the stack, who you are, and the platform's
 * policy (`--platform FILE`). With no flags it shows what is recorded.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { CliError, EXIT, readingUserFile } from "../exitCodes";
import { formatRows, type Column } from "../formatOutput";
import { hostKubeconfigFile, oneContext } from "../hostTarget";
import { currentUser, parsePlatformPolicy, readLoginSettings, stackNameOf, writeLoginSettings, type LoginSettings } from "../loginSettings";
import { defaultBackendUrl } from "../tenantsStack";
import type { ReadOptions } from "./shared";

/** `login`'s options. */
export interface LoginOptions extends ReadOptions {
  /** The Pulumi state backend URL. */
  readonly server?: string;
  /** The host cluster's kubeconfig context. */
  readonly context?: string;
  /** The kubeconfig file of that context. */
  readonly kubeconfig?: string;
  /** The tenants stack's name. */
  readonly stack?: string;
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
    throw new CliError(`--platform ${file} is not valid YAML: ${(error as Error).message.split("\n")[0]}`, EXIT.invalid);
  }
  return parsePlatformPolicy(file, value);
}

const SETTING_COLUMNS: readonly Column<{ setting: string; value: string }>[] = [
  { heading: "SETTING", value: (r) => r.setting },
  { heading: "VALUE", value: (r) => r.value },
];

/** Runs `login`. */
export async function login(options: LoginOptions): Promise<number> {
  const format = options.output;
  const before = options.reset ? {} : readLoginSettings();
  const changes: LoginSettings = {
    ...(options.server !== undefined && { backendUrl: options.server }),
    ...(options.kubeconfig !== undefined && { kubeconfig: options.kubeconfig }),
    ...(options.context !== undefined && { context: options.context }),
    ...(options.stack !== undefined && { stack: options.stack }),
    ...(options.user !== undefined && { user: options.user }),
    ...(options.platform !== undefined && { platform: policyOfFile(options.platform) as Record<string, unknown> }),
  };
  const settings = { ...before, ...changes };
  // A context is checked now, not at the first create.
  if (settings.context && (changes.context !== undefined || changes.kubeconfig !== undefined)) oneContext(hostKubeconfigFile(settings), settings.context);
  if (options.reset || Object.keys(changes).length > 0) writeLoginSettings(settings);
  const shown = {
    backend: settings.backendUrl ?? `${defaultBackendUrl()} (default)`,
    host: settings.context ? `context ${settings.context}${settings.kubeconfig ? ` of ${settings.kubeconfig}` : ""}` : "the local test bed (default)",
    stack: stackNameOf(settings),
    user: currentUser(settings),
    platform: settings.platform ? "set" : "the defaults",
  };
  const rows = Object.entries(shown).map(([setting, value]) => ({ setting, value }));
  process.stdout.write(formatRows(rows, SETTING_COLUMNS, format, shown));
  return EXIT.ok;
}
