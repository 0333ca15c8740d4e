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
  ConcurrentUpdateError,
  LocalWorkspace,
  StackAlreadyExistsError,
  StackNotFoundError,
  type Deployment,
  type EngineEvent,
  type LocalWorkspaceOptions,
  type PulumiFn,
  type Stack,
} from "@pulumi/pulumi/automation";
import { homeDir, passphraseFile } from "./cliHome";
import { CliError, EXIT } from "./exitCodes";
import { writeAtomically } from "../util/atomicFile";
import { staleLockHolders, lockHolders, describeHolders } from "./stackLock";
import type { LoginSettings } from "./loginSettings";

/** The Pulumi project of the embedded tenants program. */
export const TENANTS_PROJECT = "kubespaces-tenants";

/** The default state backend: a folder in the command's home. */
export const defaultBackendUrl = (): string => `file://${homeDir("state")}`;

/** Where the stack lives and how the engine runs. */
export interface StackPlace {
  readonly stackName: string;
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

function workspaceOptions(place: StackPlace): LocalWorkspaceOptions {
  // The tenants stack's secrets have their own passphrase (the file in the command's home), whatever
  // passphrase the user's shell sets for other stacks.
  delete process.env.PULUMI_CONFIG_PASSPHRASE;
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
  // The Automation API looks the pulumi CLI up on this process's PATH.
  Object.assign(process.env, place.engineEnv);
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
  Object.assign(process.env, place.engineEnv);
  const args = { stackName: place.stackName, projectName: TENANTS_PROJECT, program: async () => {} };
  try {
    const stack = await LocalWorkspace.selectStack(args, workspaceOptions(place));
    return await stack.exportStack();
  } catch (error) {
    if (error instanceof StackNotFoundError || /no stack named|not found/i.test(String((error as Error).message))) return undefined;
    throw error;
  }
}

/** How an update reports and may be stopped. */
export interface UpdateHooks {
  readonly onEvent: (event: EngineEvent) => void;
  /** Progress of the command's own (waiting for the lock, a stale lock removed). */
  readonly note: (text: string) => void;
  readonly signal?: AbortSignal;
  /** How long to wait for another update's lock. */
  readonly lockTimeoutMs: number;
}

/**
 * Runs `operation` (an up or a preview of `stack`); while another update holds the stack's lock,
 * waits for it (retrying with a growing pause, since a lock in a remote backend cannot be watched),
 * and removes a lock whose holder died on this machine.
 */
export async function withStackLock<T>(stack: Stack, hooks: UpdateHooks, operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + hooks.lockTimeoutMs;
  let pause = 250;
  let told = false;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof ConcurrentUpdateError)) throw error;
      const holders = lockHolders(error.message);
      const stale = staleLockHolders(holders);
      if (holders.length > 0 && stale.length === holders.length) {
        hooks.note(`removing the lock of an update that is gone (${describeHolders(stale)})`);
        await stack.cancel();
        continue;
      }
      if (Date.now() >= deadline) {
        throw new CliError(
          `the tenants stack is still locked by another update after ${Math.round(hooks.lockTimeoutMs / 1000)}s (${describeHolders(holders)}); try again later, or raise --lock-timeout`,
          EXIT.busy,
        );
      }
      if (!told) hooks.note(`waiting for another update of the tenants stack to finish (${describeHolders(holders)})`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 2000);
    }
  }
}
