/**
 * The tenants stack through the Automation API: the embedded tenants program as an inline program,
 * its state in the login's backend, its engine reached as the host needs (the test bed's pulumi on
 * PATH). Updates wait for another command's stack lock, and clear the lock of a command that died.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import {
  LocalWorkspace,
  StackAlreadyExistsError,
  StackNotFoundError,
  type Deployment,
  type LocalWorkspaceOptions,
  type PulumiFn,
  type Stack,
} from "@pulumi/pulumi/automation";
import { homeDir, passphraseFile } from "./cliHome";
import { writeAtomically } from "../util/atomicFile";
import type { LoginSettings } from "./loginSettings";

/** The Pulumi project of the embedded tenants program. */
const TENANTS_PROJECT = "kubespaces-tenants";

/** The default state backend: a folder in the command's home. */
export const defaultBackendUrl = (): string => `file://${homeDir("state")}`;

/** Where the stack lives and how the engine runs. */
export interface StackPlace {
  /** The stack's name in the tenants project. */
  readonly stackName: string;
  /** The Pulumi state backend URL. */
  readonly backendUrl: string;
  /** Environment for the engine on top of this process's (see HostTarget.engineEnv). */
  readonly engineEnv: Readonly<Record<string, string>>;
}

/** The place of the login's tenants stack. */
export function stackPlace(settings: LoginSettings, stackName: string, engineEnv: Readonly<Record<string, string>>): StackPlace {
  return { stackName, backendUrl: settings.backendUrl ?? defaultBackendUrl(), engineEnv };
}

/**
 * The folder that `node_modules/@pulumi/pulumi` is in. The engine runs the dynamic providers
 * (readiness, cleanup) in a process started in the workspace folder, which has no node_modules:
 * NODE_PATH lets it find Pulumi and this package (`@kubespaces/pulumi/dynamic-providers`).
 */
function nodeModulesDir(): string {
  return path.resolve(require.resolve("@pulumi/pulumi/package.json"), "../../..");
}

/**
 * Puts the engine's environment in this process's: the Automation API looks the pulumi CLI up on
 * this process's PATH, and runs it with this environment plus the workspace's. The tenants
 * stack's secrets have their own passphrase (the file in the command's home), so a passphrase the
 * user's shell sets for other stacks is taken out.
 */
function useEngineEnv(place: StackPlace): void {
  Object.assign(process.env, place.engineEnv);
  delete process.env.PULUMI_CONFIG_PASSPHRASE;
}

function workspaceOptions(place: StackPlace): LocalWorkspaceOptions {
  useEngineEnv(place);
  const key = createHash("sha256").update(`${place.backendUrl}\n${place.stackName}`).digest("hex").slice(0, 12);
  const workDir = homeDir("workspace", key);
  // Written here in one step rather than by the Automation API (which rewrites it in place each
  // time), so that a command starting beside another never reads it half-written.
  const project = stringify({ name: TENANTS_PROJECT, runtime: "nodejs", backend: { url: place.backendUrl } });
  const projectFile = path.join(workDir, "Pulumi.yaml");
  if (!existsSync(projectFile) || readFileSync(projectFile, "utf8") !== project) writeAtomically(projectFile, project);
  return {
    workDir,
    envVars: {
      ...place.engineEnv,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      NODE_PATH: [nodeModulesDir(), process.env.NODE_PATH].filter(Boolean).join(path.delimiter),
      PULUMI_CONFIG_PASSPHRASE_FILE: passphraseFile(),
    },
  };
}

/** The tenants stack, created if missing (two commands creating it at once both end up selecting it). */
export async function openTenantsStack(place: StackPlace, program: PulumiFn): Promise<Stack> {
  const args = { stackName: place.stackName, projectName: TENANTS_PROJECT, program };
  try {
    return await LocalWorkspace.createOrSelectStack(args, workspaceOptions(place));
  } catch (error) {
    if (error instanceof StackAlreadyExistsError) return LocalWorkspace.selectStack(args, workspaceOptions(place));
    throw error;
  }
}

/** The stack's deployment (secrets revealed, in memory only), or undefined before the stack exists. */
export async function readDeployment(place: StackPlace): Promise<Deployment | undefined> {
  const args = { stackName: place.stackName, projectName: TENANTS_PROJECT, program: async () => {} };
  try {
    const stack = await LocalWorkspace.selectStack(args, workspaceOptions(place));
    return await stack.exportStack();
  } catch (error) {
    if (error instanceof StackNotFoundError) return undefined;
    throw error;
  }
}
