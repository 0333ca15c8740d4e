/**
 * What `kubespaces login` records. In local mode: where the tenants' stacks live (a Pulumi state
 * backend URL and project), the host cluster (a kubeconfig context), who "you" are for `list`, and
 * the platform's policy every request is held to. In server mode: the kubespaces server every
 * tenant command goes through (the sign-in's tokens are kept apart, signInTokens.ts). Kept as JSON
 * in the command's home.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { z } from "zod";
import { problemLines } from "../model/platformPolicyValue";
import { writeAtomically } from "../util/atomicFile";
import { cliHome, homeDir } from "./cliHome";
import { CliError, EXIT } from "./exitCodes";

/** A Pulumi project name, also a folder name under the home: no dots, so never `.` or `..`. */
const PROJECT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;

/** The recorded login. Every field is optional; each has a default. */
const loginSettingsSchema = z.strictObject({
  /** The kubespaces server every tenant command goes through (server mode); none: local mode. */
  server: z
    .string()
    .regex(/^https?:\/\//, "must be an https:// URL")
    .optional(),
  /** Pulumi state backend URL; default `file://<home>/state`. */
  backendUrl: z
    .string()
    .regex(/^[a-z0-9]+:\/\//, "must be a URL such as file:///path, s3://bucket or https://api.pulumi.com")
    .optional(),
  /** Kubeconfig file of the host cluster; default `$KUBECONFIG`, else `~/.kube/config`. */
  kubeconfig: z.string().optional(),
  /** Context of the host cluster in that kubeconfig; none means the local test bed. */
  context: z.string().optional(),
  /** The Pulumi project that holds a stack per tenant; default `kubespaces-self-service`. */
  project: z
    .string()
    .regex(PROJECT_NAME, "must be a Pulumi project name: a letter, then letters, digits, '_' or '-'")
    .optional(),
  /** The single tenants stack of versions before 0.2 (one stack for every tenant); only read to point at its tenants. */
  stack: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/, "must be a Pulumi stack name (letters, digits, '_', '.', '-')")
    .optional(),
  /** Who you are: the owner of the tenants you create, and the filter of `list`. */
  user: z.string().optional(),
  /** The platform's policy every request of this tenants stack is held to. */
  platform: z.record(z.string(), z.unknown()).optional(),
});

/** The recorded login, as stored. */
export type LoginSettings = z.infer<typeof loginSettingsSchema>;

const settingsFile = () => path.join(cliHome(), "settings.json");

/** The recorded login; empty before the first `login`. */
export function readLoginSettings(): LoginSettings {
  let text: string;
  try {
    text = readFileSync(settingsFile(), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  const parsed = loginSettingsSchema.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new CliError(
      `${settingsFile()} is not a valid login: ${problemLines(parsed.error.issues)}; run \`kubespaces login --reset\``,
      EXIT.invalid,
    );
  return parsed.data;
}

/** Records `settings` (checked first: a bad one is refused with the rule), replacing the file in one step. */
export function writeLoginSettings(settings: LoginSettings): void {
  const parsed = loginSettingsSchema.safeParse(settings);
  if (!parsed.success)
    throw new CliError(
      `login refused: ${problemLines(parsed.error.issues, { backendUrl: "--backend", server: "--server", project: "--project" })}`,
      EXIT.invalid,
    );
  homeDir();
  writeAtomically(settingsFile(), `${JSON.stringify(parsed.data, null, 2)}\n`, 0o600);
}

/** Who you are: the login's user, else `git config user.email`, else the login name. */
export function currentUser(settings: LoginSettings): string {
  if (settings.user) return settings.user;
  try {
    const email = execFileSync("git", ["config", "user.email"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (email) return email;
  } catch {
    // no git, or no email configured
  }
  return os.userInfo().username;
}

/** The default project of the tenants' stacks. */
export const DEFAULT_PROJECT = "kubespaces-self-service";

/** The project of the tenants' stacks. */
export const projectOf = (settings: LoginSettings): string => settings.project ?? DEFAULT_PROJECT;
