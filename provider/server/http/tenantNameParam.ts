/**
 * The route hook that checks a tenant's name in the path (`:name`) before the route runs: a name no
 * tenant can have is refused with 400, naming the field and the rule (nameChecks.ts), and never
 * reaches the audit log, OwnedTenants or the host. The API's routes and the portal's use it.
 */
import type { FastifyRequest } from "fastify";
import { requireTenantName } from "../nameChecks";

/** Refuses the request when its `:name` is not a tenant's name. */
export async function tenantNameParam(request: FastifyRequest): Promise<void> {
  requireTenantName((request.params as { readonly name?: unknown }).name);
}
