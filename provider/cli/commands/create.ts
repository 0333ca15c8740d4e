/**
 * `kubespaces tenant create NAME`: the team's request from the flags (or `--file`, a Tenant
 * manifest), provisioned by the tenants service with progress until the tenant is Ready or Failed
 * (`--timeout` bounds the wait; `--wait=false`, through a server, returns once it is asked for).
 * `create NAME` alone resumes the stored request; a name with none is refused, so that a mistyped
 * name provisions nothing: `--defaults` asks for the platform's defaults. `--preview` prints the
 * steps instead. `--owner` is local mode's only: a server takes the owner from the sign-in.
 */
import { readFileSync } from "node:fs";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { parseTenantDocuments, type TenantDocument } from "../../tenantFiles/tenantDocuments";
import type { Actor } from "../../tenants/ports";
import { TenantFailedError, TenantNotFoundError } from "../../tenants/tenantsErrors";
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";
import { readingUserFile } from "../../util/userFiles";
import { operationOptions } from "../interrupts";
import { printPreview } from "../printPreview";
import { tenantText, type ReadOptions } from "../tenantPrint";
import { ability, type TenantOperations, type TenantsDoor } from "../tenantsDoor";
import { asksOf, startWait, timedOut, type WaitOptions } from "../tenantWait";

/** `create`'s options, as commander parses them. */
export interface CreateOptions extends ReadOptions, WaitOptions, HostNaming {
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
  /** Ask for the platform's defaults: a request of the owner alone. */
  readonly defaults?: boolean;
  /** Only show what would change. */
  readonly preview?: boolean;
  /** Seconds to wait for another update's stack lock. */
  readonly lockTimeout: number;
}

/** The request the flags describe, or undefined when they describe none (resume the stored one). */
function requestOfFlags(o: CreateOptions): TenantRequestInput | undefined {
  if ([o.cpu, o.memory, o.storage, o.owner, o.podSecurity, o.kubernetesVersion].every((value) => value === undefined))
    return undefined;
  const resources = Object.fromEntries(
    Object.entries({ cpu: o.cpu, memory: o.memory, storage: o.storage }).filter(([, v]) => v !== undefined),
  );
  return {
    ...(o.owner !== undefined && { owner: o.owner }),
    ...(Object.keys(resources).length > 0 && { resources }),
    ...(o.podSecurity !== undefined && { isolation: { podSecurity: o.podSecurity } }),
    ...(o.kubernetesVersion !== undefined && { vcluster: { kubernetesVersion: o.kubernetesVersion } }),
  } as TenantRequestInput;
}

/** The one Tenant document of `--file`, its name checked against NAME when both are given. */
function documentOfFile(file: string, name: string | undefined): TenantDocument {
  const text = readingUserFile(`--file ${file}`, () => readFileSync(file, "utf8"));
  const { documents, problems } = parseTenantDocuments(file, text);
  if (problems.length > 0)
    throw new CliError(`${file} is not a Tenant manifest:\n  - ${problems.join("\n  - ")}`, EXIT.invalid);
  if (documents.length !== 1)
    throw new CliError(`${file} must hold exactly one Tenant document, it has ${documents.length}`, EXIT.invalid);
  if (name && documents[0].name !== name)
    throw new CliError(`${file} declares tenant ${documents[0].name}, not ${name}`, EXIT.invalid);
  return documents[0];
}

/** Whether tenant `name` has a stored request `actor` may see. */
async function isStored(tenants: TenantOperations, name: string, actor: Actor): Promise<boolean> {
  try {
    await tenants.get(name, actor);
    return true;
  } catch (error) {
    if (error instanceof TenantNotFoundError) return false;
    throw error;
  }
}

/**
 * The request to make: the file's, the flags', the defaults' (`--defaults`), or none, which resumes
 * the stored one. A name with no stored request and no request given is refused: a mistyped name
 * would otherwise provision a new tenant of the default size.
 */
async function requestToMake(
  tenants: TenantOperations,
  name: string,
  actor: Actor,
  options: CreateOptions,
  fromFile: TenantDocument | undefined,
): Promise<TenantRequestInput | undefined> {
  const fromFlags = requestOfFlags(options);
  if (options.defaults && (fromFile || fromFlags))
    throw new CliError(
      "--defaults asks for the platform's defaults: give no request flags nor --file with it",
      EXIT.invalid,
    );
  if (options.defaults) return { owner: actor.owner } as TenantRequestInput;
  const request = fromFile?.request ?? fromFlags;
  if (request || (await isStored(tenants, name, actor))) return request;
  throw new CliError(
    `tenant ${name} has no stored request to resume, and no request was given: ask for one with flags (\`kubespaces tenant create ${name} --cpu 4 --memory 8Gi\`), a manifest (--file), or the platform's defaults (\`kubespaces tenant create ${name} --defaults\`)`,
    EXIT.notFound,
  );
}

/** Runs `create`. */
export async function createTenant(
  env: CommandEnv,
  nameArg: string | undefined,
  options: CreateOptions,
): Promise<number> {
  const fromFile = options.file ? documentOfFile(options.file, nameArg) : undefined;
  const name = fromFile?.name ?? nameArg;
  if (!name) throw new CliError("a tenant NAME (or --file with a Tenant manifest) is required", EXIT.invalid);
  if (fromFile && requestOfFlags(options))
    throw new CliError("--file holds the whole request: give no request flags with it", EXIT.invalid);
  const door = await env.door(options);
  const { tenants, actor } = door;
  if (options.owner !== undefined)
    ability(door, door.namesOwners, "--owner", "the server takes the owner from your sign-in");
  const previews = options.preview ? door.previews : undefined;
  const asks = options.wait || previews ? undefined : asksOf(door, name, options);
  // No request given: the stored one is resumed.
  const request = await requestToMake(tenants, name, actor, options, fromFile);
  if (previews)
    return printPreview(
      env,
      previews,
      actor,
      name,
      request ?? (await previews.storedRequest(name, actor)),
      options.lockTimeout * 1000,
    );
  // Checked before anything is shown as Pending: a bad request changes nothing.
  if (request) tenants.check(name, request, actor);
  if (!asks) return provision(env, door, name, request, options);
  const asked = await asks.create(name, request, actor);
  env.stdout.write(tenantText(asked, options.output));
  env.stderr.write(
    `tenant ${name} is asked for; the server ${door.server} goes on with it: follow it with \`kubespaces tenant get ${name} -w\`\n`,
  );
  return EXIT.ok;
}

/** Creates (or resumes) the tenant and follows it until it is Ready, Failed, or past `--timeout`. */
async function provision(
  env: CommandEnv,
  door: TenantsDoor,
  name: string,
  request: TenantRequestInput | undefined,
  options: CreateOptions,
): Promise<number> {
  const { tenants, actor } = door;
  const howToGoOn = `the request is kept: run \`kubespaces tenant create ${name}\` again to finish, or \`kubespaces tenant delete ${name}\` to remove it`;
  const wait = startWait(env, door, howToGoOn, options);
  try {
    const operation = operationOptions(wait.display, wait.interrupts, options.lockTimeout * 1000);
    const tenant = await tenants.create(name, request, actor, operation);
    wait.close();
    env.stdout.write(tenantText(tenant, options.output));
    return EXIT.ok;
  } catch (error) {
    wait.close();
    if (wait.timedOut())
      throw timedOut(
        door,
        name,
        `tenant ${name} is not Ready`,
        options.timeout!,
        `its request is kept: \`kubespaces tenant create ${name}\` finishes it`,
      );
    // A failed tenant is printed as it now stands before the reason, as `get` would show it.
    if (error instanceof TenantFailedError) {
      const now = await tenants.get(name, actor).catch(() => undefined);
      if (now) env.stdout.write(tenantText(now, options.output));
    }
    throw error;
  } finally {
    wait.close();
  }
}
