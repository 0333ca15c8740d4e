/**
 * One update (or preview) of the tenants stack for a `create` or `delete`: the host reached, the
 * embedded program run over the tenants folder (or a proposed copy of it), every engine event
 * digested per tenant for the progress display and the run journal, the stack lock waited for,
 * and Ctrl-C turned into a graceful cancel.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import type { CommandContext } from "./commandContext";
import { hostTarget, type HostTarget } from "./hostTarget";
import type { ProgressDisplay } from "./progressDisplay";
import type { RunJournal } from "./runJournal";
import { withStackLock } from "./stackLock";
import { refuseStrayTeardowns } from "./strayTeardowns";
import { tenantEventOf, urnName, type TenantEvent } from "./tenantEvents";
import { effectivePolicy, tenantsProgram } from "./tenantsProgram";
import { openTenantsStack, readDeployment, stackPlace, type StackPlace } from "./tenantsStack";
import { deployedTenants, type DeployedTenant } from "./tenantState";

/** A step the engine reported for a resource. */
export interface ResourceStep {
  /** The step: create, update, replace, delete, ... */
  readonly op: string;
  /** The resource's type token. */
  readonly type: string;
  /** The resource's name. */
  readonly name: string;
  /** Changed input keys, for updates. */
  readonly diffs: readonly string[];
}

/** The host and the stack's place, and the Tenants the state holds now. */
export interface UpdateTarget {
  /** The host cluster. */
  readonly host: HostTarget;
  /** Where the stack lives and how its engine runs. */
  readonly place: StackPlace;
  /** The Tenants in the state before the update. */
  readonly deployed: Map<string, DeployedTenant>;
}

/** Reaches the host and reads the state, before anything changes. */
export async function updateTarget(context: CommandContext, display: ProgressDisplay): Promise<UpdateTarget> {
  const host = await hostTarget(context.settings, (line) => display.note(line));
  const place = stackPlace(context.settings, context.stackName, host.engineEnv);
  return { host, place, deployed: deployedTenants(await readDeployment(place)) };
}

/** What an update needs. */
export interface UpdateOptions {
  /** The command's starting point (policy, journals folder). */
  readonly context: CommandContext;
  /** The host and the stack. */
  readonly target: UpdateTarget;
  /** The folder the program reads: the tenants folder, or a proposed copy for a preview. */
  readonly tenantsDir: string;
  /** The tenants the folder requests, as the command read it. */
  readonly requested: ReadonlySet<string>;
  /** The tenant this update deletes, if it is a delete. */
  readonly deleting?: string;
  /** Where progress goes. */
  readonly display: ProgressDisplay;
  /** The run's journal; none for a preview. */
  readonly journal?: RunJournal;
  /** Only preview. */
  readonly preview: boolean;
  /** How long to wait for another update's lock. */
  readonly lockTimeoutMs: number;
  /** The user's interrupt (see interruptHandling). */
  readonly interrupt?: Interrupt;
}

/** What the update did: each resource step, and each tenant event. */
export interface UpdateOutcome {
  readonly steps: ResourceStep[];
  readonly events: TenantEvent[];
}

/** Runs the update; throws the engine's error (its events already shown and journaled). */
export async function runTenantsUpdate(options: UpdateOptions): Promise<UpdateOutcome> {
  const { context, target, display, journal } = options;
  // The tenants the program declares, as it reads the folder under the lock: a command running
  // beside this one may have added or removed a request since this one looked.
  const requested = new Set(options.requested);
  const names = new Set([...requested, ...target.deployed.keys()]);
  let refusal: unknown;
  const checkBeforeDeclaring = async (declared: readonly string[]) => {
    requested.clear();
    for (const name of declared) [requested, names].forEach((set) => set.add(name));
    if (options.preview) return;
    try {
      // Checked again here, under the stack lock, against the state as it is now.
      refuseStrayTeardowns(context.runs, deployedTenants(await readDeployment(target.place)).keys(), requested, options.deleting);
    } catch (error) {
      refusal = error;
      throw error;
    }
  };
  const platform = effectivePolicy(context.policy, target.host.kubeconfig, target.host.chartPath);
  const program = tenantsProgram({ tenantsDir: options.tenantsDir, platform, checkBeforeDeclaring });
  const outcome: UpdateOutcome = { steps: [], events: [] };
  const onEvent = (event: EngineEvent) => {
    const step = event.resourcePreEvent?.metadata;
    if (step && step.op !== "same") outcome.steps.push({ op: step.op, type: step.type, name: urnName(step.urn), diffs: step.diffs ?? [] });
    const tenantEvent = tenantEventOf(event, names, requested);
    if (!tenantEvent) return;
    outcome.events.push(tenantEvent);
    if (!options.preview) display.tenant(tenantEvent);
    journal?.tenant(tenantEvent);
  };
  const signal = options.interrupt?.engineSignal;
  const wait = { stackName: context.stackName, note: (text: string) => display.note(text), timeoutMs: options.lockTimeoutMs, signal: options.interrupt?.waitSignal };
  try {
    // The stack is opened inside the wait too: creating it (the first command ever) also needs the lock.
    await withStackLock<unknown>(wait, async () => {
      const stack: Stack = await openTenantsStack(target.place, program);
      return options.preview ? stack.preview({ onEvent, signal }) : stack.up({ onEvent, signal });
    });
  } catch (error) {
    throw refusal ?? error;
  }
  return outcome;
}

/** The user's Ctrl-C, as an update sees it. */
export interface Interrupt {
  /** Aborted on Ctrl-C when the engine did not get the terminal's SIGINT itself. */
  readonly engineSignal: AbortSignal;
  /** Aborted on Ctrl-C: the command's own waits (the stack lock) end at once. */
  readonly waitSignal: AbortSignal;
  /** Whether the user pressed Ctrl-C. */
  readonly interrupted: () => boolean;
  /** Stops listening. */
  readonly dispose: () => void;
}

/**
 * Ctrl-C during an update. From a terminal the engine (in this command's process group) gets the
 * same SIGINT and cancels gracefully by itself, and a second SIGINT would stop it hard; so it is
 * told through the abort signal only when none of this command's streams is a terminal (a
 * `kill -INT` from a supervisor). A second Ctrl-C stops the command at once.
 */
export function interruptHandling(display: ProgressDisplay, howToGoOn: string): Interrupt {
  const engine = new AbortController();
  const wait = new AbortController();
  const fromTerminal = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  const onSecondInterrupt = () => {
    display.note(`stopped at once; ${howToGoOn}`);
    display.close();
    process.exit(130);
  };
  const onFirstInterrupt = () => {
    display.note("interrupted: the engine finishes the steps in flight, saves the state and stops (Ctrl-C again stops at once)");
    wait.abort();
    if (!fromTerminal) engine.abort();
    process.once("SIGINT", onSecondInterrupt);
  };
  process.once("SIGINT", onFirstInterrupt);
  return {
    engineSignal: engine.signal,
    waitSignal: wait.signal,
    interrupted: () => wait.signal.aborted,
    dispose: () => {
      process.removeListener("SIGINT", onFirstInterrupt);
      process.removeListener("SIGINT", onSecondInterrupt);
    },
  };
}
