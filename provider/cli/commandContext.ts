/**
 * What every `kubespaces tenant` command starts from: the login, the tenants folder, the run
 * journals, the stack's place, and the tenants as the command can see them.
 */
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import { homeDir } from "./cliHome";
import { engineEnvForReads } from "./hostTarget";
import { currentUser, readLoginSettings, stackNameOf, type LoginSettings } from "./loginSettings";
import { readRequests } from "./requestFiles";
import { livePhases, readFailures, runsDir } from "./runJournal";
import { tenantRow, type PhaseSources, type TenantRow } from "./tenantPhases";
import { deployedTenants, type DeployedTenant } from "./tenantState";
import { readDeployment, stackPlace, type StackPlace } from "./tenantsStack";

/** The command's starting point. */
export interface CommandContext {
  /** The recorded login. */
  readonly settings: LoginSettings;
  /** The tenants stack's name. */
  readonly stackName: string;
  /** The tenants folder of the embedded program. */
  readonly tenantsDir: string;
  /** The run journals' folder. */
  readonly runs: string;
  /** The platform's policy requests are held to. */
  readonly policy: TenantPlatformInput;
  /** Who you are. */
  readonly user: string;
}

/** The context from the recorded login. */
export function commandContext(): CommandContext {
  const settings = readLoginSettings();
  const stackName = stackNameOf(settings);
  return {
    settings,
    stackName,
    tenantsDir: homeDir("tenants", stackName),
    runs: runsDir(stackName),
    policy: (settings.platform ?? {}) as TenantPlatformInput,
    user: currentUser(settings),
  };
}

/** The stack's place for commands that only read it. */
export const readPlace = (context: CommandContext): StackPlace => stackPlace(context.settings, context.stackName, engineEnvForReads(context.settings));

/** The tenants in the stack's state (kubeconfigs included, in memory). */
export async function deployedNow(place: StackPlace): Promise<Map<string, DeployedTenant>> {
  return deployedTenants(await readDeployment(place));
}

/** Everything the phases are read from, now. */
export async function phaseSources(context: CommandContext, place: StackPlace): Promise<PhaseSources> {
  return {
    requests: readRequests(context.tenantsDir),
    deployed: await deployedNow(place),
    failures: readFailures(context.runs),
    live: livePhases(context.runs),
  };
}

/** Tenant `name`'s row, or undefined when it is neither requested nor deployed. */
export function rowOf(name: string, sources: PhaseSources): TenantRow | undefined {
  if (!sources.requests.has(name) && !sources.deployed.has(name)) return undefined;
  return tenantRow(name, sources);
}
