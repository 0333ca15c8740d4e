/**
 * One update (or preview) of the tenants stack for a `create` or `delete`: the host reached, the
 * embedded program run over the tenants folder (or a proposed copy of it), every engine event
 * digested per tenant for the progress display and the run journal, the stack lock waited for,
 * and Ctrl-C turned into a graceful cancel.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { CliError, EXIT } from "./exitCodes";
import { hostTarget, type HostTarget } from "./hostTarget";
import type { CommandContext } from "./commandContext";
import type { ProgressDisplay } from "./progressDisplay";
import { tenantsBeingDeleted, type RunJournal } from "./runJournal";
import { tenantEventOf, type TenantEvent } from "./tenantEvents";
import { effectivePolicy, tenantsProgram } from "./tenantsProgram";
import { openTenantsStack, readDeployment, stackPlace, withStackLock, type StackPlace } from "./tenantsStack";
import { deployedTenants, type DeployedTenant } from "./tenantState";

/** A step the engine reported for a resource. */
export interface ResourceStep {
  readonly op: string;
  readonly type: string;
  readonly name: string;
  /** Changed input keys, for updates. */
  readonly diffs: readonly string[];
}

/** The host and the stack's place, and the Tenants the state holds now. */
export interface UpdateTarget {
  readonly host: HostTarget;
  readonly place: StackPlace;
  readonly deployed: Map<string, DeployedTenant>;
}

/** Reaches the host and reads the state, before anything changes. */
export async function updateTarget(context: CommandContext, display: ProgressDisplay): Promise<UpdateTarget> {
  const host = hostTarget(context.settings, (line) => display.note(line));
  const place = stackPlace(context.settings, context.stackName, host.engineEnv);
  return { host, place, deployed: deployedTenants(await readDeployment(place)) };
}

/**
 * Refuses an update that would tear down tenants nobody asked to delete: Tenants in the state with
 * no request in the folder, other than `deleting` and those a running `delete` is removing (an
 * interrupted delete, or requests kept elsewhere).
 */
export function refuseStrayTeardowns(context: CommandContext, target: UpdateTarget, requested: ReadonlySet<string>, deleting?: string): void {
  const beingDeleted = tenantsBeingDeleted(context.runs);
  const strays = [...target.deployed.keys()].filter((name) => !requested.has(name) && name !== deleting && !beingDeleted.has(name));
  if (strays.length === 0) return;
  throw new CliError(
    `the tenants stack holds ${strays.join(", ")} but no request for ${strays.length === 1 ? "it" : "them"}, so this update would tear ${strays.length === 1 ? "it" : "them"} down. ` +
      `If ${strays.length === 1 ? "it was" : "they were"} deleted with \`kubespaces tenant delete\` and that was interrupted, run it again to finish; nothing was changed.`,
    EXIT.invalid,
  );
}

/** What an update needs. */
export interface UpdateOptions {
  readonly context: CommandContext;
  readonly target: UpdateTarget;
  /** The folder the program reads: the tenants folder, or a proposed copy for a preview. */
  readonly tenantsDir: string;
  /** The tenants the folder requests. */
  readonly requested: ReadonlySet<string>;
  readonly display: ProgressDisplay;
  readonly journal?: RunJournal;
  readonly preview: boolean;
  readonly lockTimeoutMs: number;
  readonly signal?: AbortSignal;
}

/** What the update did: each resource step, and each tenant event. */
export interface UpdateOutcome {
  readonly steps: ResourceStep[];
  readonly events: TenantEvent[];
}

/** Runs the update; throws the engine's error (its events already shown and journaled). */
export async function runTenantsUpdate(options: UpdateOptions): Promise<UpdateOutcome> {
  const { context, target, display, journal } = options;
  const platform = effectivePolicy(context.policy, target.host.kubeconfig, target.host.chartPath);
  // The tenants the program declares, as it reads the folder: a command running beside this one
  // may have added a request since, and this update then provisions that tenant too.
  const requested = new Set(options.requested);
  const names = new Set([...requested, ...target.deployed.keys()]);
  const onDeclared = (declared: readonly string[]) => {
    requested.clear();
    for (const name of declared) {
      requested.add(name);
      names.add(name);
    }
  };
  const stack: Stack = await openTenantsStack(target.place, tenantsProgram({ tenantsDir: options.tenantsDir, platform, onDeclared }));
  const outcome: UpdateOutcome = { steps: [], events: [] };
  const onEvent = (event: EngineEvent) => {
    const step = event.resourcePreEvent?.metadata;
    if (step && step.op !== "same") outcome.steps.push({ op: step.op, type: step.type, name: step.urn.split("::").pop() ?? "", diffs: step.diffs ?? [] });
    const tenantEvent = tenantEventOf(event, names, requested);
    if (!tenantEvent) return;
    outcome.events.push(tenantEvent);
    if (!options.preview) display.tenant(tenantEvent);
    journal?.tenant(tenantEvent);
  };
  const hooks = { onEvent, note: (text: string) => display.note(text), signal: options.signal, lockTimeoutMs: options.lockTimeoutMs };
  await withStackLock<unknown>(stack, hooks, () => (options.preview ? stack.preview({ onEvent, signal: options.signal }) : stack.up({ onEvent, signal: options.signal })));
  return outcome;
}

/**
 * Ctrl-C during an update. In a terminal the engine (in this command's process group) receives the
 * same SIGINT and cancels gracefully by itself; otherwise (a `kill -INT` of this process) it is
 * told through the abort signal. A second Ctrl-C stops the command at once.
 */
export function interruptHandling(display: ProgressDisplay, howToGoOn: string): { signal: AbortSignal; interrupted: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let interrupted = false;
  const second = () => {
    display.note(`stopped at once; ${howToGoOn}`);
    display.close();
    process.exit(EXIT.interrupted);
  };
  const first = () => {
    interrupted = true;
    display.note("interrupted: the engine finishes the steps in flight, saves the state and stops (Ctrl-C again stops at once)");
    if (!process.stdin.isTTY) controller.abort();
    process.once("SIGINT", second);
  };
  process.once("SIGINT", first);
  return {
    signal: controller.signal,
    interrupted: () => interrupted,
    dispose: () => {
      process.removeListener("SIGINT", first);
      process.removeListener("SIGINT", second);
    },
  };
}
