/**
 * Who may ask for what: a request checked for the one asking, with the component's own rules and
 * messages, and whether someone may see a stored request. Every self-service door (the command,
 * the server's reconciler, its API and portal) checks through here, so a request is refused with
 * the same words whichever door it came through.
 */
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import { validateRequest } from "../model/validateTenant";
import { labelOf, TenantValidationError } from "../model/validationError";
import type { Actor, StoredRequest } from "./ports";
import { RequestInvalidError } from "./tenantsErrors";

/**
 * The request `request` becomes once checked for `actor` under `policy`: its owner defaults to the
 * actor, and only an admin may name another. Throws RequestInvalidError with the component's
 * message and one `field: rule` line per problem.
 */
export function checkRequest(
  name: string,
  request: TenantRequestInput,
  actor: Actor,
  policy: TenantPlatformInput,
): TenantRequestInput {
  const owned = { ...request, owner: request.owner ?? actor.owner } as TenantRequestInput;
  if (!actor.isAdmin && owned.owner !== actor.owner) {
    throw new RequestInvalidError(
      `tenant ${name}: owner must be you (${actor.owner}); only the platform's admins request tenants for others`,
      ["owner: must be the requester"],
    );
  }
  const expiryGroup = groupsRequiringExpiry(owned, actor, policy)[0];
  if (expiryGroup !== undefined)
    throw new RequestInvalidError(
      `tenant ${name}: expiresAt is required for members of group ${expiryGroup} (platform.expiry.requiredFor.groups)`,
      [`expiresAt: is required for members of group ${expiryGroup} (platform.expiry.requiredFor.groups)`],
    );
  try {
    validateRequest(name, owned, policy);
  } catch (error) {
    if (error instanceof TenantValidationError)
      throw new RequestInvalidError(
        error.message,
        error.problems.map((p) => `${labelOf(p)}: ${p.message}`),
        error.problems,
      );
    throw error;
  }
  return owned;
}

/**
 * Refuses a new tenant's `request` that asks to be made asleep: a vCluster writes its kubeconfig
 * when its control plane first starts, so a tenant never started has none to hand out, and the
 * wait for it would only end at its deadline.
 */
export function refuseNewAsleep(name: string, request: TenantRequestInput): void {
  if (request.sleep === true)
    throw new RequestInvalidError(
      `tenant ${name} cannot be made asleep: a new tenant starts awake, since its control plane writes its kubeconfig when it first starts; create it, then put it to sleep`,
      ["sleep: must not be true for a new tenant (it starts awake; put it to sleep once it is Ready)"],
    );
}

/** The groups of `actor` that the platform requires an expiry of, when `request` sets none. */
function groupsRequiringExpiry(request: TenantRequestInput, actor: Actor, policy: TenantPlatformInput): string[] {
  if (request.expiresAt !== undefined) return [];
  const required = policy.expiry?.requiredFor?.groups ?? [];
  return actor.groups.filter((group) => required.includes(group));
}

/** The owner a request names, if any. */
export const ownerOf = (spec: TenantRequestInput): string | undefined => (spec as { owner?: string }).owner;

/** Whether `actor` may see and change `request`: its owner, or an admin. */
export const mayUse = (actor: Actor, request: Pick<StoredRequest, "spec">): boolean =>
  actor.isAdmin || ownerOf(request.spec) === actor.owner;
