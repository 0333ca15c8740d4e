/**
 * The previews that signed-in people ask for at the API and the portal, run by the replica that
 * serves them through the tenants service (the same preview the approval gate runs): as the server,
 * on the tenant's own stack or, for a new tenant, on a scratch stack the service removes afterwards.
 * Each is bounded in time and in how long it waits for a stack an update holds, so that a person's
 * preview never holds a replica for long, and the replica runs only so many at once (previewPool.ts),
 * so that people's previews cannot run it out of memory; nothing is stored, created or changed.
 */
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { Actor } from "../../tenants/ports";
import type { ResourceStep } from "../../tenants/tenantObject";
import { InterruptedError } from "../../tenants/tenantsErrors";
import type { TenantsService } from "../../tenants/tenantsService";
import type { StackPreviews } from "./ownedTenants";
import { PreviewPool } from "./previewPool";

/** How long one preview may run before it is stopped. */
export const PREVIEW_TIME_LIMIT_MS = 3 * 60_000;

/** How long a preview waits for a tenant's stack while an update of it runs (then: busy, try again). */
export const PREVIEW_LOCK_WAIT_MS = 15_000;

/** How much of the replica people's previews may take. */
export interface PreviewLimits {
  /** How many previews the replica runs at once (the server configuration's `previewConcurrency`). */
  readonly concurrency: number;
  /** How long one preview may run once it started (default PREVIEW_TIME_LIMIT_MS). */
  readonly timeLimitMs?: number;
}

/**
 * The previews of `service`, run as `actor` (the server: the person was checked before), at most
 * `limits.concurrency` at once; past them, PreviewsBusyError once no place came free in time.
 */
export function serverPreviews(
  service: Pick<TenantsService, "preview">,
  actor: Actor,
  limits: PreviewLimits,
): StackPreviews {
  const pool = new PreviewPool(limits.concurrency);
  const timeLimitMs = limits.timeLimitMs ?? PREVIEW_TIME_LIMIT_MS;
  return {
    preview: (name, request) => pool.run(() => timedPreview(service, actor, timeLimitMs, name, request)),
  };
}

/** The preview of tenant `name`, stopped after `timeLimitMs` (counted from its start, not its wait for a place). */
async function timedPreview(
  service: Pick<TenantsService, "preview">,
  actor: Actor,
  timeLimitMs: number,
  name: string,
  request: TenantRequestInput | undefined,
): Promise<readonly ResourceStep[]> {
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
}
