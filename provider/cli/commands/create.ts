/**
 * `kubespaces tenant create NAME`: the team's request, checked as the Tenant component checks it,
 * written to the tenants folder, and provisioned by an `up` of the tenants stack, with progress
 * until the tenant is Ready or Failed. `--preview` prints the changes instead; `--file` takes a
 * Tenant manifest; `create NAME` alone resumes the request already written.
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { validateRequest } from "../../model/validateTenant";
import { TenantValidationError } from "../../model/validationError";
import { parseTenantDocuments, readTenantFiles, TenantFilesError, type TenantDocument } from "../../tenantFiles/tenantDocuments";
import { writeExclusively } from "../../util/atomicFile";
import { commandContext, type CommandContext } from "../commandContext";
import { CliError, EXIT, readingUserFile } from "../exitCodes";
import { progressDisplay, type ProgressDisplay } from "../progressDisplay";
import { manifestText, proposedFolder, readRequests, requestFileOf } from "../requestFiles";
import { RunJournal } from "../runJournal";
import { interruptHandling, runTenantsUpdate, updateTarget } from "../tenantsUpdate";
import { refuseStrayTeardowns } from "../strayTeardowns";
import { previewProposal } from "./preview";
import { printCreated, type ReadOptions } from "./shared";

/** `create`'s options, as commander parses them. */
export interface CreateOptions extends ReadOptions {
  /** CPU quota (a Kubernetes quantity). */
  readonly cpu?: string;
  /** Memory quota. */
  readonly memory?: string;
  /** Storage quota. */
  readonly storage?: string;
  /** The owner; default: you. */
  readonly owner?: string;
  /** Pod Security level. */
  readonly podSecurity?: string;
  /** The virtual cluster's Kubernetes version. */
  readonly kubernetesVersion?: string;
  /** A Tenant manifest to take the request from. */
  readonly file?: string;
  /** Only show what would change. */
  readonly preview?: boolean;
  /** Seconds to wait for another update's stack lock. */
  readonly lockTimeout: number;
}

/** Whether the command line describes a request (rather than naming a tenant to resume). */
const describesRequest = (o: CreateOptions): boolean =>
  [o.cpu, o.memory, o.storage, o.owner, o.podSecurity, o.kubernetesVersion, o.file].some((value) => value !== undefined);

/** The request the flags describe. */
function requestOfFlags(options: CreateOptions, user: string): TenantRequestInput {
  const resources = Object.fromEntries(Object.entries({ cpu: options.cpu, memory: options.memory, storage: options.storage }).filter(([, v]) => v !== undefined));
  return {
    owner: options.owner ?? user,
    ...(Object.keys(resources).length > 0 && { resources }),
    ...(options.podSecurity && { isolation: { podSecurity: options.podSecurity } }),
    ...(options.kubernetesVersion && { vcluster: { kubernetesVersion: options.kubernetesVersion } }),
  } as TenantRequestInput;
}

/** The one Tenant document of `--file`, its name checked against NAME when both are given. */
function documentOfFile(file: string, name: string | undefined): TenantDocument {
  const text = readingUserFile(`--file ${file}`, () => readFileSync(file, "utf8"));
  const { documents, problems } = parseTenantDocuments(file, text);
  if (problems.length > 0) throw new CliError(`${file} is not a Tenant manifest:\n  - ${problems.join("\n  - ")}`, EXIT.invalid);
  if (documents.length !== 1) throw new CliError(`${file} must hold exactly one Tenant document, it has ${documents.length}`, EXIT.invalid);
  if (name && documents[0].name !== name) throw new CliError(`${file} declares tenant ${documents[0].name}, not ${name}`, EXIT.invalid);
  return documents[0];
}

/** Checks the request under the policy exactly as the component does (same messages). */
function checkRequest(context: CommandContext, name: string, request: TenantRequestInput): void {
  try {
    validateRequest(name, request, context.policy);
  } catch (error) {
    if (error instanceof TenantValidationError) throw new CliError(error.message, EXIT.invalid);
    throw error;
  }
}

/** Checks the folder with this request in it as the TenantSet does (duplicates included). */
function checkFolder(context: CommandContext, name: string, text: string): void {
  const proposed = proposedFolder(context.tenantsDir, name, text);
  try {
    readTenantFiles(proposed.dir, context.policy);
  } catch (error) {
    if (error instanceof TenantFilesError) throw new CliError(error.message.split(proposed.dir).join(context.tenantsDir), EXIT.invalid);
    throw error;
  } finally {
    proposed.dispose();
  }
}

/** Runs `create`. */
export async function createTenant(nameArg: string | undefined, options: CreateOptions): Promise<number> {
  const context = commandContext();
  const fromFile = options.file ? documentOfFile(options.file, nameArg) : undefined;
  const name = fromFile?.name ?? nameArg;
  if (!name) throw new CliError("a tenant NAME (or --file with a Tenant manifest) is required", EXIT.invalid);
  const existing = readRequests(context.tenantsDir).get(name);
  const request = existing && !describesRequest(options) ? existing.request : (fromFile?.request ?? requestOfFlags(options, context.user));
  checkRequest(context, name, request);
  if (existing && !isDeepStrictEqual(existing.request, request)) {
    throw new CliError(`tenant ${name} is already requested, differently, in ${existing.file}: delete it first, or run \`kubespaces tenant create ${name}\` alone to resume that request`, EXIT.invalid);
  }
  const text = manifestText(name, request);
  checkFolder(context, name, text);
  const display = progressDisplay();
  try {
    if (options.preview) return await previewProposal(context, await updateTarget(context, display), name, text, options.lockTimeout, display);
    return await provision(context, name, text, existing === undefined, options, display);
  } finally {
    display.close();
  }
}

/** Journals, writes the request and runs `up`; prints the tenant as it ends up. */
async function provision(context: CommandContext, name: string, text: string, isNew: boolean, options: CreateOptions, display: ProgressDisplay): Promise<number> {
  // The journal starts first, so that `get --wait` elsewhere sees this create from its first step.
  const journal = new RunJournal(context.runs, `create ${name}`);
  const pending = { name, phase: "Pending" } as const;
  journal.tenant(pending);
  display.tenant(pending);
  const file = requestFileOf(context.tenantsDir, name);
  const howToGoOn = `the request stays in ${file}: run \`kubespaces tenant create ${name}\` again to finish, or \`kubespaces tenant delete ${name}\` to remove it`;
  const interrupt = interruptHandling(display, howToGoOn);
  let failure: unknown;
  try {
    const target = await updateTarget(context, display);
    const requested = new Set([...readRequests(context.tenantsDir).keys(), name]);
    refuseStrayTeardowns(context.runs, target.deployed.keys(), requested);
    if (isNew) writeRequest(file, text, name);
    display.note(`request written to ${file}; provisioning on ${target.host.description}`);
    await runTenantsUpdate({ context, target, tenantsDir: context.tenantsDir, requested, display, journal, preview: false, lockTimeoutMs: options.lockTimeout * 1000, interrupt });
    // An update succeeds only once every tenant it declares is ready, this one included, even when
    // it had nothing left to do for it (a resumed create).
    const ready = { name, phase: "Ready" } as const;
    journal.tenant(ready);
    display.tenant(ready);
  } catch (error) {
    if (interrupt.interrupted()) throw new CliError(`create of ${name} was interrupted; ${howToGoOn}`, EXIT.interrupted);
    if (error instanceof CliError) throw error;
    failure = error;
  } finally {
    interrupt.dispose();
    // Ended before the tenant is printed: the failures it records are what the printed phase reads.
    journal.end(failure === undefined && !interrupt.interrupted());
  }
  return printCreated(context, name, options, display, failure);
}

/** Writes a new request; a create of the same name that wrote first must have asked for the same. */
function writeRequest(file: string, text: string, name: string): void {
  if (writeExclusively(file, text)) return;
  if (readFileSync(file, "utf8") !== text) {
    throw new CliError(`tenant ${name} was just requested, differently, by another command (${file}); nothing was changed`, EXIT.invalid);
  }
}
