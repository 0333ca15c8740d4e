/**
 * Following a tenant of the command's own stacks (TenantsDoor.follow in local mode): the events of
 * each of its runs as the run's journal has them, and, while no run of it is going, a look at it
 * every IDLE_LOOK_MS: another process may start one, and nothing tells this one when.
 */
import type { Actor } from "../../tenants/ports";
import { InterruptedError } from "../../tenants/tenantsErrors";
import type { FollowOptions, ShownTenant, TenantOperations } from "../tenantsDoor";

/** How often a tenant with no run going is looked at again. */
export const IDLE_LOOK_MS = 2000;

/** Follows tenant `name` until `until` holds of it (TenantsDoor.follow). */
export async function followLocally(
  tenants: TenantOperations,
  actor: Actor,
  name: string,
  until: (tenant: ShownTenant) => boolean,
  options: FollowOptions,
): Promise<ShownTenant> {
  for (;;) {
    const tenant = await tenants.get(name, actor);
    if (until(tenant)) return tenant;
    let ran = false;
    for await (const event of tenants.watch(name, actor, options.signal)) {
      ran = true;
      options.onEvent?.(event);
      if (!event.phase || event.phase === "Deleted") continue;
      const now = await tenants.get(name, actor);
      if (until(now)) return now;
    }
    if (!ran) await idle(IDLE_LOOK_MS, options.signal);
    if (options.signal?.aborted) throw new InterruptedError(name, `stopped following tenant ${name}`);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function idle(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal?.aborted) done();
    else signal?.addEventListener("abort", done, { once: true });
  });
}
