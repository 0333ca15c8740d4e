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
  /** The tenant's name. */
  readonly name: string;
  /** The request's owner. */
  readonly owner?: string;
  /** Its phase, as the operator names them. */
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
  /** The requests in the tenants folder. */
  readonly requests: ReadonlyMap<string, TenantDocument>;
  /** The Tenants in the stack's state. */
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

/** Tenant `name`'s row; a tenant neither requested nor deployed is for the caller to refuse first. */
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

const LIVE_MESSAGES = {
  Pending: "a command is about to provision it",
  Provisioning: "an update is provisioning it now",
  Deleting: "an update is tearing it down now",
} as const;

function phaseOf(name: string, requested: boolean, deployed: DeployedTenant | undefined, sources: PhaseSources): { phase: TenantPhase; message?: string } {
  // A running command's word wins over an earlier failure: a create that resumes it is Pending
  // (waiting for the host or the lock) before it is Provisioning.
  const live = sources.live.get(name);
  if (live === "Pending" || live === "Provisioning" || live === "Deleting") return { phase: live, message: LIVE_MESSAGES[live] };
  const failure = sources.failures[name];
  if (!requested) return { phase: "Deleting", message: `its request was removed; the next update tears it down (\`kubespaces tenant delete ${name}\` finishes it now)` };
  if (failure) return { phase: "Failed", message: failure };
  if (deployed?.phase === "Ready") return { phase: "Ready", message: deployed.message };
  if (deployed) return { phase: "Pending", message: `the last update stopped before it was ready; \`kubespaces tenant create ${name}\` resumes it` };
  return { phase: "Pending", message: "requested; not provisioned yet" };
}
