/**
 * Nothing torn down by accident: an update of the tenants stack deletes every Tenant in its state
 * whose request is not in the folder. That is what `delete` wants for its tenant, and what nobody
 * wants for one whose request is missing for another reason (an interrupted delete, or requests
 * kept elsewhere), so an update that would do it is refused.
 */
import { CliError, EXIT } from "./exitCodes";
import { tenantsBeingDeleted } from "./runJournal";

/**
 * Refuses when a tenant in `deployed` has no request in `requested`, other than `deleting` and
 * those a running `delete` (journaled in `runs`) is removing.
 */
export function refuseStrayTeardowns(runs: string, deployed: Iterable<string>, requested: ReadonlySet<string>, deleting?: string): void {
  const beingDeleted = tenantsBeingDeleted(runs);
  const strays = [...deployed].filter((name) => !requested.has(name) && name !== deleting && !beingDeleted.has(name));
  if (strays.length === 0) return;
  const them = strays.length === 1 ? "it" : "them";
  throw new CliError(
    `the tenants stack holds ${strays.join(", ")} but no request for ${them}, so this update would tear ${them} down. ` +
      `If a \`kubespaces tenant delete\` of ${them} was interrupted, run it again to finish; nothing was changed.`,
    EXIT.invalid,
  );
}
