/**
 * `kubespaces tenant delete NAME`: removes the tenant's request and tears the tenant down with an
 * `up` of the tenants stack (the TenantSet no longer declares it, so the engine deletes all of it in
 * the edge table's order, objects outside its namespace included), then says what was removed.
 */
import { commandContext, deployedNow, readPlace, type CommandContext } from "../commandContext";
import { CliError, EXIT, tenantNotFound } from "../exitCodes";
import { progressDisplay, type ProgressDisplay } from "../progressDisplay";
import { readRequests, removeRequest } from "../requestFiles";
import { RunJournal } from "../runJournal";
import type { TenantDocument } from "../../tenantFiles/tenantDocuments";
import { engineErrorSummary } from "../engineErrors";
import { refuseStrayTeardowns } from "../strayTeardowns";
import { isProviderType } from "../tenantEvents";
import { interruptHandling, runTenantsUpdate, updateTarget, type ResourceStep, type UpdateTarget } from "../tenantsUpdate";
import { previewProposal } from "./preview";

/** `delete`'s options. */
export interface DeleteOptions {
  /** Only show what would be removed. */
  readonly preview?: boolean;
  /** Seconds to wait for another update's stack lock. */
  readonly lockTimeout: number;
}

/** Runs `delete`. */
export async function deleteTenant(name: string, options: DeleteOptions): Promise<number> {
  const context = commandContext();
  const requests = readRequests(context.tenantsDir);
  const display = progressDisplay();
  try {
    const target = await updateTarget(context, display);
    const doc = requests.get(name);
    if (!doc && !target.deployed.has(name)) throw tenantNotFound(name);
    if (options.preview) return await previewProposal(context, target, name, undefined, options.lockTimeout, display);
    if (!target.deployed.has(name)) return withdrawRequest(doc!, context, display);
    const requested = new Set([...requests.keys()].filter((other) => other !== name));
    refuseStrayTeardowns(context.runs, target.deployed.keys(), requested, name);
    const steps = await tearDown(context, target, name, doc, requested, options, display);
    return await reportRemoved(context, name, steps, display);
  } finally {
    display.close();
  }
}

/** A tenant that was requested but never provisioned: only its request goes. */
function withdrawRequest(doc: TenantDocument, context: CommandContext, display: ProgressDisplay): number {
  removeRequest(doc, context.tenantsDir);
  display.close();
  process.stdout.write(`tenant ${doc.name} deleted: it was never provisioned, and its request (${doc.file}) is removed\n`);
  return EXIT.ok;
}

/** Removes the request and runs the update; returns its resource steps. */
async function tearDown(
  context: CommandContext,
  target: UpdateTarget,
  name: string,
  doc: TenantDocument | undefined,
  requested: ReadonlySet<string>,
  options: DeleteOptions,
  display: ProgressDisplay,
): Promise<ResourceStep[]> {
  const journal = new RunJournal(context.runs, `delete ${name}`, name);
  const howToFinish = `run \`kubespaces tenant delete ${name}\` again to finish the teardown`;
  const interrupt = interruptHandling(display, `the request is removed: ${howToFinish}`);
  try {
    if (doc) removeRequest(doc, context.tenantsDir);
    display.note(`request of ${name} removed; tearing it down on ${target.host.description}`);
    const lockTimeoutMs = options.lockTimeout * 1000;
    const { steps } = await runTenantsUpdate({ context, target, tenantsDir: context.tenantsDir, requested, deleting: name, display, journal, preview: false, lockTimeoutMs, interrupt });
    journal.end(true);
    return steps;
  } catch (error) {
    journal.end(false);
    if (interrupt.interrupted()) throw new CliError(`delete of ${name} was interrupted: ${howToFinish}`, EXIT.interrupted);
    if (error instanceof CliError) throw error;
    throw new CliError(`the teardown of tenant ${name} failed; ${howToFinish}:\n${engineErrorSummary(error)}`, EXIT.error);
  } finally {
    interrupt.dispose();
  }
}

/** Says what the teardown removed, after checking the state no longer holds the tenant. */
async function reportRemoved(context: CommandContext, name: string, steps: readonly ResourceStep[], display: ProgressDisplay): Promise<number> {
  if ((await deployedNow(readPlace(context))).has(name)) throw new CliError(`tenant ${name} is still in the tenants stack's state after the update`, EXIT.error);
  const removed = steps.filter((s) => s.op === "delete" && !isProviderType(s.type));
  display.close();
  if (removed.length === 0) {
    process.stdout.write(`tenant ${name} deleted (an update running beside this one removed its resources)\n`);
    return EXIT.ok;
  }
  const lines = removed.map((s) => `  - ${s.type.split(":").pop()} ${s.name}`).join("\n");
  process.stdout.write(`tenant ${name} deleted: ${removed.length} resource(s) removed, its namespace and everything in it included:\n${lines}\n`);
  return EXIT.ok;
}
