/**
 * The previews that signed-in people ask for at the API and the portal, run by the replica that
 * serves them through the tenants service (the same preview the approval gate runs): as the server,
 * on the tenant's own stack or, for a new tenant, on a scratch stack the service removes afterwards.
 * Each is bounded in time and in how long it waits for a stack an update holds, so that a person's
 * preview never holds a replica for long; nothing is stored, created or changed.
 */
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { Actor } from "../../tenants/ports";
import type { ResourceStep } from "../../tenants/tenantObject";
import { InterruptedError } from "../../tenants/tenantsErrors";
import type { TenantsService } from "../../tenants/tenantsService";
import type { StackPreviews } from "./ownedTenants";

/** How long one preview may run before it is stopped. */
export const PREVIEW_TIME_LIMIT_MS = 3 * 60_000;

/** How long a preview waits for a tenant's stack while an update of it runs (then: busy, try again). */
export const PREVIEW_LOCK_WAIT_MS = 15_000;

/** The previews of `service`, run as `actor` (the server: the person was checked before). */
export function serverPreviews(
  service: Pick<TenantsService, "preview">,
  actor: Actor,
  timeLimitMs = PREVIEW_TIME_LIMIT_MS,
): StackPreviews {
  return {
    async preview(name: string, request: TenantRequestInput | undefined): Promise<readonly ResourceStep[]> {
      const signal = AbortSignal.timeout(timeLimitMs);
      try {
        return await service.preview(name, request, actor, { signal, lockTimeoutMs: PREVIEW_LOCK_WAIT_MS });
      } catch (error) {
        if (!signal.aborted) throw error;
        throw new InterruptedError(
          name,
          `the preview of tenant ${name} ran longer than ${Math.ceil(timeLimitMs / 1000)} s and was stopped; nothing was changed`,
        );
      }
    },
  };
}
