/**
 * Following one tenant through the server's event stream (contracts/tenantsApi.ts, TENANT_EVENTS):
 * the tenant as it stands, then each change, until it is deleted or the caller stops. When the
 * connection drops, it reconnects with `Last-Event-ID` (the last event's id, the Tenant resource's
 * resourceVersion), so no change is missed or shown twice; it gives up after a few failed attempts
 * in a row, saying how to follow again.
 */
import { setTimeout as delay } from "node:timers/promises";
import { API_PATHS, TENANT_EVENTS } from "../../contracts/tenantsApi";
import type { TenantChange, TenantView } from "../../tenantResource/tenantReplies";
import { TenantNotFoundError } from "../../tenants/tenantsErrors";
import { serverSentEvents } from "./serverSentEvents";
import { CliError, EXIT } from "../exitCodes";
import { ServerUnreachableError, unreachable, type ServerApi } from "./serverApi";

/** How a follow reconnects. */
export interface FollowOptions {
  /** Stops the follow (the generator then throws the signal's reason). */
  readonly signal?: AbortSignal;
  /**
   * The waits before each reconnection in a row that fails; the first after a drop is immediate.
   * @default [0, 1000, 2000, 4000, 8000]
   */
  readonly reconnectDelaysMs?: readonly number[];
}

const DEFAULT_DELAYS_MS = [0, 1000, 2000, 4000, 8000];

/** Tenant `name`'s changes, as the server sends them. */
export async function* followTenant(
  api: ServerApi,
  name: string,
  options: FollowOptions = {},
): AsyncGenerator<TenantChange> {
  const delays = options.reconnectDelaysMs ?? DEFAULT_DELAYS_MS;
  let lastId: string | undefined;
  let failures = 0;
  let lastFailure = "";
  for (;;) {
    if (failures > 0) {
      if (failures > delays.length) throw lostStream(api.server, name, lastFailure);
      await delay(delays[failures - 1], undefined, { signal: options.signal });
    }
    const connection = new AbortController();
    const stop = () => connection.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", stop, { once: true });
    try {
      for await (const change of changesOf(api, name, lastId, connection.signal)) {
        failures = 0;
        lastId = change.id;
        yield change;
        if ("deleted" in change) return;
      }
      lastFailure = "the server ended the stream";
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // Gone while it was followed: its `deleted` event was lost with the connection.
      if (error instanceof TenantNotFoundError && lastId !== undefined) {
        yield { id: lastId, deleted: true };
        return;
      }
      if (!(error instanceof ServerUnreachableError)) throw error;
      lastFailure = error.reason;
    } finally {
      options.signal?.removeEventListener("abort", stop);
      connection.abort(); // closes the connection when the caller stops early
    }
    failures += 1;
  }
}

/** The changes of one connection, resuming after `lastId` when given. */
async function* changesOf(
  api: ServerApi,
  name: string,
  lastId: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<TenantChange> {
  const response = await api.ok("GET", API_PATHS.tenantEvents(name), {
    tenant: name,
    headers: { accept: "text/event-stream", ...(lastId !== undefined && { "last-event-id": lastId }) },
    signal,
  });
  if (!response.body) return;
  try {
    for await (const event of serverSentEvents(response.body)) {
      if (event.event === TENANT_EVENTS.deleted) {
        yield { id: event.id ?? lastId ?? "", deleted: true };
        return;
      }
      // Events of other names are a newer server's: skipped.
      if (event.event !== TENANT_EVENTS.tenant) continue;
      yield { id: event.id ?? lastId ?? "", tenant: tenantOf(event.data, api.server) };
    }
  } catch (error) {
    if (signal.aborted) throw error;
    throw unreachable(api.server, error);
  }
}

/** The tenant of a `tenant` event. */
function tenantOf(data: string, server: string): TenantView {
  try {
    return JSON.parse(data) as TenantView;
  } catch {
    throw new CliError(`the server ${server} sent a tenant event that is not JSON`, EXIT.error);
  }
}

/** The error of a follow that could not reconnect. */
function lostStream(server: string, name: string, why: string): CliError {
  return new CliError(
    `lost the event stream of tenant ${name} from ${server} (${why}); the server goes on: \`kubespaces tenant get ${name} --wait\` follows it again`,
    EXIT.error,
  );
}
