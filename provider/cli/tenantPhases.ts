/**
 * Each tenant's phase, as the operator reports it, from what the command can see: the requests in
 * the tenants folder, the Tenants in the stack's state, the failures of earlier runs, and what a
 * running update is doing to it now.
 */
import type { TenantDocument } from "../tenantFiles/tenantDocuments";
import type { TenantPhase } from "./tenantEvents";
import type { DeployedTenant } from "./tenantState";

/** One tenant as `get` and `list` show it. */
export interface TenantRow {
  readonly name: string;
  /** The request's owner. */
  readonly owner?: string;
  readonly phase: TenantPhase;
  /** The API server URL, once deployed. */
  readonly api?: string;
  /** The host namespace, once deployed. */
  readonly namespace?: string;
  /** Why it is in this phase, for people. */
  readonly message?: string;
}

/** What the rows are made from. */
export interface PhaseSources {
  readonly requests: ReadonlyMap<string, TenantDocument>;
  readonly deployed: ReadonlyMap<string, DeployedTenant>;
  /** The last failure of each tenant whose last update failed. */
  readonly failures: Readonly<Record<string, string>>;
  /** The phase a running update has put each tenant in. */
  readonly live: ReadonlyMap<string, TenantPhase>;
}

/** Every tenant requested or deployed, sorted by name. */
export function tenantRows(sources: PhaseSources): TenantRow[] {
  const names = new Set([...sources.requests.keys(), ...sources.deployed.keys()]);
  return [...names].sort().map((name) => tenantRow(name, sources));
}

/** Tenant `name`'s row, or undefined when it is neither requested nor deployed. */
export function tenantRow(name: string, sources: PhaseSources): TenantRow {
  const request = sources.requests.get(name);
  const deployed = sources.deployed.get(name);
  const base = {
    name,
    owner: (request?.request as { owner?: string } | undefined)?.owner,
    api: deployed?.apiServerUrl,
    namespace: deployed?.namespace,
  };
  return { ...base, ...phaseOf(name, request !== undefined, deployed, sources) };
}

function phaseOf(name: string, requested: boolean, deployed: DeployedTenant | undefined, sources: PhaseSources): { phase: TenantPhase; message?: string } {
  const live = sources.live.get(name);
  if (live === "Provisioning" || live === "Deleting") return { phase: live, message: `an update is ${live === "Deleting" ? "tearing it down" : "provisioning it"} now` };
  const failure = sources.failures[name];
  if (!requested) {
    return deployed
      ? { phase: "Deleting", message: `its request was removed; the next update tears it down (\`kubespaces tenant delete ${name}\` finishes it now)` }
      : { phase: "Deleted" };
  }
  if (failure) return { phase: "Failed", message: failure };
  if (deployed?.phase === "Ready") return { phase: "Ready", message: deployed.message };
  if (deployed) return { phase: "Pending", message: `the last update stopped before it was ready; \`kubespaces tenant create ${name}\` resumes it` };
  return { phase: "Pending", message: "requested; not provisioned yet" };
}
