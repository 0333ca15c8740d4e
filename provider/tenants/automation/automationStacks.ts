/**
 * A stack per tenant through the Pulumi Automation API: project `<project>`, stack `<tenant>`, in
 * the door's state backend, each with its own workspace folder. Updates of one stack are queued
 * inside this process; across processes the engine's lock guards them (waited for, see
 * stackLock.ts). The engine's environment (the host's pulumi on PATH, the passphrase) goes to each
 * workspace; this process's environment is never changed.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import type {
  EngineEvent,
  LocalWorkspaceOptions,
  OutputMap,
  PulumiCommand,
  PulumiFn,
  Stack,
} from "@pulumi/pulumi/automation";
import { writeAtomically } from "../../util/atomicFile";
import type { DeployedOutputs, StackProgram, StackRun, StackUpdate, TenantStacks } from "../ports";
import type { ResourceStep } from "../tenantObject";
import { resourceStepOf, tenantEventOf } from "./engineEvents";
import { assertBackendFolder } from "./fileBackend";
import { cancelCommand, fileLocks, lockFolder, withStackLock, type StackLocks } from "./stackLock";
import { isPostgresBackend, postgresLocks } from "./postgresLocks";
import { emptyProgram, tenantProgram } from "./tenantProgram";
import { stackUpdateOf, withRecord } from "./updateRecord";

/**
 * Writes what the update records of itself into the stack's settings, where the engine takes it
 * into the update's history (updateRecord.ts). A settings file that is not there yet (a stack
 * just made in another workspace) starts empty.
 */
async function recordUpdate(stack: Stack, name: string, program: StackProgram): Promise<void> {
  const settings = await stack.workspace.stackSettings(name).catch(() => ({}));
  await stack.workspace.saveStackSettings(name, withRecord(settings, program.record, program.request));
}

/** The Automation API module, loaded on first use (reads and `--help` never need it). */
type Automation = typeof import("@pulumi/pulumi/automation");
const automation = (): Promise<Automation> => import("@pulumi/pulumi/automation");

/** Where the stacks live and how their engine runs. */
export interface AutomationStacksConfig {
  /** The Pulumi state backend URL (file://, s3://, https://api.pulumi.com, ...). */
  readonly backendUrl: string;
  /** The Pulumi project that holds a stack per tenant. */
  readonly project: string;
  /** A private folder for the workspaces (one Pulumi.yaml per tenant) and the engine link. */
  readonly workRoot: string;
  /** The passphrase of the stacks' secrets (file backends use the passphrase provider). */
  readonly passphrase: () => string;
  /**
   * Whether the machine of host name `hostname` is known gone, so that a lock its update left is
   * removed (stackLock.ts). None: only this machine's locks are judged.
   */
  readonly isHostGone?: (hostname: string) => boolean;
}

/** The tenants' stacks. */
export class AutomationStacks implements TenantStacks {
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly config: AutomationStacksConfig) {}

  async up(name: string, program: StackProgram, run: StackRun): Promise<DeployedOutputs> {
    return this.queued(name, () =>
      this.locked(name, run, async () => {
        const { stack, existed } = await this.openStack(name, run.host.engineEnv);
        await recordUpdate(stack, name, program);
        try {
          const result = await withAttemptSignal(run, (signal) =>
            stack.up({
              program: tenantProgram(name, program),
              onEvent: this.digest(name, run, false),
              signal,
              refresh: run.refresh,
            }),
          );
          const kubeconfig = result.outputs.kubeconfig?.value;
          if (typeof kubeconfig === "string") run.onKubeconfig?.(kubeconfig);
          return deployedOutputs(result.outputs);
        } catch (error) {
          // A stack this update made and left holding nothing (its program refused before declaring
          // anything) goes again: left, it would read as a tenant nobody requested.
          if (!existed) await removeIfEmpty(stack, name);
          throw error;
        }
      }),
    );
  }

  async preview(name: string, program: StackProgram | undefined, run: StackRun): Promise<ResourceStep[]> {
    const steps: ResourceStep[] = [];
    const collecting: StackRun = { ...run, onStep: (step) => steps.push(step), onEvent: () => {} };
    const existing = await this.selectStack(name, run.host.engineEnv);
    if (!existing && !program) return steps;
    const declared = program ? tenantProgram(name, program) : emptyProgram;
    if (existing) {
      // The stack selected once: its preview runs the declared program, given with the preview.
      const onEvent = this.digest(name, collecting, program === undefined);
      await this.queued(name, () =>
        this.locked(name, run, () =>
          withAttemptSignal(run, (signal) =>
            existing.preview({ program: declared, onEvent, signal, refresh: run.refresh }),
          ),
        ),
      );
      return steps;
    }
    // A tenant with no stack yet is previewed on a stack of its own that no tenant can be named
    // (a DNS label has no dots), removed afterwards: the tenant's own stack is never made or removed here.
    const scratch = `preview.${name}.${randomBytes(4).toString("hex")}`;
    const stack = await this.makeStack(scratch, declared, run.host.engineEnv);
    try {
      await withAttemptSignal(run, (signal) =>
        stack.preview({ onEvent: this.digest(name, collecting, false), signal }),
      );
    } finally {
      await stack.workspace.removeStack(scratch).catch(() => undefined);
    }
    return steps;
  }

  async destroy(name: string, run: StackRun): Promise<ResourceStep[]> {
    const steps: ResourceStep[] = [];
    const recording: StackRun = { ...run, onStep: (step) => (steps.push(step), run.onStep(step)) };
    await this.queued(name, () =>
      this.locked(name, run, async () => {
        const stack = await this.selectStack(name, run.host.engineEnv);
        if (!stack) return;
        await withAttemptSignal(run, (signal) =>
          stack.destroy({ onEvent: this.digest(name, recording, true), signal }),
        );
        await stack.workspace.removeStack(name);
      }),
    );
    return steps;
  }

  async exists(name: string, engineEnv: Readonly<Record<string, string>>): Promise<boolean> {
    return (await this.selectStack(name, engineEnv)) !== undefined;
  }

  async history(name: string, engineEnv: Readonly<Record<string, string>>): Promise<StackUpdate[]> {
    const stack = await this.selectStack(name, engineEnv);
    if (!stack) return [];
    // Newest first. A DIY backend numbers no update (every version is 0): there, an update's
    // version is its place from the first one, which stays as later updates are added.
    const summaries = await stack.history();
    return summaries.map((summary, index) =>
      stackUpdateOf(summary.version > 0 ? summary : { ...summary, version: summaries.length - index }),
    );
  }

  async kubeconfig(name: string, engineEnv: Readonly<Record<string, string>>): Promise<string | undefined> {
    const stack = await this.selectStack(name, engineEnv);
    const value = stack ? (await stack.outputs()).kubeconfig?.value : undefined;
    return typeof value === "string" ? value : undefined;
  }

  /** Runs `work` after the earlier operations of this process on the same stack. */
  private queued<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(name) ?? Promise.resolve();
    const next = before.then(work, work);
    const tail = next.catch(() => undefined);
    this.queues.set(name, tail);
    void tail.then(() => this.queues.get(name) === tail && this.queues.delete(name));
    return next;
  }

  /** Runs `work`, waiting for another process's lock of the stack. */
  private async locked<T>(name: string, run: StackRun, work: () => Promise<T>): Promise<T> {
    const { ConcurrentUpdateError } = await automation();
    const wait = {
      tenant: name,
      locks: stackLocksOf(this.config.backendUrl, this.config.project, name),
      cancelCommand: cancelCommand(this.config.backendUrl, this.config.project, name),
      isLocked: (error: unknown) => error instanceof ConcurrentUpdateError,
      note: run.onNote,
      timeoutMs: run.lockTimeoutMs,
      signal: run.signal,
      isHostGone: this.config.isHostGone,
    };
    return withStackLock(wait, work);
  }

  /** The engine's events digested for the run. */
  private digest(name: string, run: StackRun, tearingDown: boolean): (event: EngineEvent) => void {
    return (event) => {
      const step = resourceStepOf(event);
      if (step) run.onStep(step);
      const tenantEvent = tenantEventOf(event, name, tearingDown);
      if (tenantEvent) run.onEvent(tenantEvent);
    };
  }

  /** Tenant `name`'s stack, or undefined when there is none. Its updates are given their program. */
  private async selectStack(name: string, engineEnv: Readonly<Record<string, string>>): Promise<Stack | undefined> {
    const { LocalWorkspace, StackNotFoundError } = await automation();
    const options = await this.workspaceOptions(name, engineEnv);
    try {
      return await LocalWorkspace.selectStack(this.inline(name, emptyProgram), options);
    } catch (error) {
      if (error instanceof StackNotFoundError) return undefined;
      throw error;
    }
  }

  /** Makes stack `name` (`stack init`), whose updates run `program` unless given another. */
  private async makeStack(
    name: string,
    program: PulumiFn,
    engineEnv: Readonly<Record<string, string>>,
  ): Promise<Stack> {
    const { LocalWorkspace } = await automation();
    return LocalWorkspace.createStack(this.inline(name, program), await this.workspaceOptions(name, engineEnv));
  }

  /**
   * Tenant `name`'s stack, made when there is none, and whether it was there before: one start of
   * the CLI when it is (`stack select`), two when it is not (`stack init` after it). Each start is a
   * process and a read of the backend, so no update asks twice.
   */
  private async openStack(
    name: string,
    engineEnv: Readonly<Record<string, string>>,
  ): Promise<{ stack: Stack; existed: boolean }> {
    const selected = await this.selectStack(name, engineEnv);
    if (selected) return { stack: selected, existed: true };
    const { StackAlreadyExistsError } = await automation();
    try {
      return { stack: await this.makeStack(name, emptyProgram, engineEnv), existed: false };
    } catch (error) {
      if (!(error instanceof StackAlreadyExistsError)) throw error;
      // Another process made it in between: this update runs on it, as on any existing stack.
      const made = await this.selectStack(name, engineEnv);
      if (!made) throw error;
      return { stack: made, existed: true };
    }
  }

  /** The Automation API's arguments for stack `name` of this project, running `program`. */
  private inline(name: string, program: PulumiFn) {
    return { stackName: name, projectName: this.config.project, program };
  }

  private async workspaceOptions(
    name: string,
    engineEnv: Readonly<Record<string, string>>,
  ): Promise<LocalWorkspaceOptions> {
    // Before every engine call: a file backend's folder removed since it was chosen is named, not the engine's text.
    assertBackendFolder(this.config.backendUrl);
    const key = createHash("sha256")
      .update(`${this.config.backendUrl}\n${this.config.project}\n${name}`)
      .digest("hex")
      .slice(0, 16);
    const workDir = path.join(this.config.workRoot, "workspaces", key);
    writeProjectFile(workDir, this.config.project, this.config.backendUrl);
    return {
      workDir,
      pulumiCommand: await this.pulumiCommand(engineEnv),
      envVars: {
        ...engineEnv,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        // The engine runs the dynamic providers (host check, readiness, cleanup) in a process started
        // in the workspace folder, which has no node_modules: NODE_PATH lets it find Pulumi and this
        // package (`@kubespaces/pulumi/dynamic-providers`).
        NODE_PATH: [nodeModulesDir(), engineEnv.NODE_PATH ?? process.env.NODE_PATH]
          .filter(Boolean)
          .join(path.delimiter),
        // Set here, so that a backend or passphrase the user's shell holds for other stacks is not
        // used (the engine takes PULUMI_BACKEND_URL over the project's backend).
        PULUMI_BACKEND_URL: this.config.backendUrl,
        PULUMI_CONFIG_PASSPHRASE: this.config.passphrase(),
      },
    };
  }

  private readonly commands = new Map<string, Promise<PulumiCommand>>();

  /**
   * The pulumi CLI on the engine's PATH. The Automation API looks a CLI up on this process's PATH
   * unless given an installation root (`<root>/bin/pulumi`), so a link to the host's CLI is made
   * in such a root once.
   */
  private pulumiCommand(engineEnv: Readonly<Record<string, string>>): Promise<PulumiCommand> {
    const binary = findOnPath("pulumi", engineEnv.PATH ?? process.env.PATH ?? "");
    let command = this.commands.get(binary);
    if (!command) {
      const root = path.join(
        this.config.workRoot,
        "engine",
        createHash("sha256").update(binary).digest("hex").slice(0, 16),
      );
      linkOnce(binary, path.join(root, "bin", "pulumi"));
      command = automation().then(({ PulumiCommand }) => PulumiCommand.get({ root, skipVersionCheck: true }));
      this.commands.set(binary, command);
    }
    return command;
  }
}

/** Removes stack `name` when its state holds no resource but the stack's own. */
async function removeIfEmpty(stack: Stack, name: string): Promise<void> {
  try {
    const resources =
      ((await stack.exportStack()).deployment as { resources?: { type: string }[] } | undefined)?.resources ?? [];
    if (resources.every((resource) => resource.type === "pulumi:pulumi:Stack"))
      await stack.workspace.removeStack(name, { force: true });
  } catch {
    // Best effort: the update's own error is what the caller needs.
  }
}

/** The non-secret outputs of an update. */
function deployedOutputs(outputs: OutputMap): DeployedOutputs {
  const plain = (key: string) =>
    outputs[key] && !outputs[key].secret && typeof outputs[key].value === "string"
      ? (outputs[key].value as string)
      : undefined;
  const status = outputs.status?.secret
    ? undefined
    : (outputs.status?.value as { message?: string; phase?: string } | undefined);
  return {
    ...(plain("namespace") && { namespace: plain("namespace") }),
    ...(plain("apiServerUrl") && { apiServerUrl: plain("apiServerUrl") }),
    ...(plain("appsDomain") && { appsDomain: plain("appsDomain") }),
    ...(status?.message && { readyMessage: status.message }),
    ...((status?.phase === "Ready" || status?.phase === "Sleeping") && { phase: status.phase }),
  };
}

/** Writes the workspace's Pulumi.yaml in one step when it differs (a process beside this one may read it). */
function writeProjectFile(workDir: string, project: string, backendUrl: string): void {
  const text = stringify({ name: project, runtime: "nodejs", backend: { url: backendUrl } });
  const file = path.join(workDir, "Pulumi.yaml");
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeAtomically(file, text);
}

/** The folder that holds `node_modules/@pulumi/pulumi`. */
const nodeModulesDir = (): string => path.resolve(require.resolve("@pulumi/pulumi/package.json"), "../../..");

/** The first executable `name` on `searchPath`. */
function findOnPath(name: string, searchPath: string): string {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    `no ${name} CLI on the engine's PATH (${searchPath || "empty"}); install the Pulumi CLI, or use the local test bed, which builds one`,
  );
}

/** Makes `link` point at `target` unless it already does. */
function linkOnce(target: string, link: string): void {
  mkdirSync(path.dirname(link), { recursive: true, mode: 0o700 });
  try {
    symlinkSync(target, link);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/**
 * Runs one engine call with a signal of its own that follows the run's engine signal: the
 * Automation API adds a listener to the signal it is given on every call, and a lock wait may
 * call many times.
 */
async function withAttemptSignal<T>(run: StackRun, call: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  const outer = run.engineSignal ?? run.signal;
  if (!outer) return call(undefined);
  const attempt = new AbortController();
  const follow = () => attempt.abort();
  if (outer.aborted) attempt.abort();
  else outer.addEventListener("abort", follow, { once: true });
  try {
    return await call(attempt.signal);
  } finally {
    outer.removeEventListener("abort", follow);
  }
}

/** The locks of stack `name` where the backend lets them be listed: a file backend's, a PostgreSQL one's. */
function stackLocksOf(backendUrl: string, project: string, name: string): StackLocks | undefined {
  if (isPostgresBackend(backendUrl)) return postgresLocks(backendUrl, project, name);
  return fileLocks(lockFolder(backendUrl, project, name));
}
