/**
 * A tenant's changes as server-sent events: each event carries the Tenant resource's
 * resourceVersion as its id, so a client that reconnects with `Last-Event-ID` resumes after the
 * last state it saw. A comment line every so often keeps proxies from closing a quiet stream.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { TENANT_EVENTS } from "../../contracts/tenantsApi";
import type { TenantChange } from "../../tenantResource/tenantReplies";

/** How often a quiet stream says it is alive. */
const HEARTBEAT_MS = 15_000;

/** One event in the stream's wire format. */
export function eventText(change: TenantChange): string {
  const [event, data] =
    "deleted" in change ? [TENANT_EVENTS.deleted, "{}"] : [TENANT_EVENTS.tenant, JSON.stringify(change.tenant)];
  return `id: ${change.id}\nevent: ${event}\ndata: ${data}\n\n`;
}

/**
 * Streams `changes(signal)` to the client until they end or the client goes; `signal` aborts when
 * the client goes. Check what may be refused (not found) before: the answer starts at once. When
 * the changes fail (not because the client went), the stream ends and `broke` gets why.
 */
export async function streamChanges(
  request: FastifyRequest,
  reply: FastifyReply,
  changes: (signal: AbortSignal) => AsyncIterable<TenantChange>,
  broke: (error: unknown) => void,
): Promise<void> {
  const gone = new AbortController();
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  request.raw.on("close", () => gone.abort());
  const heartbeat = setInterval(() => raw.write(": alive\n\n"), HEARTBEAT_MS);
  try {
    for await (const change of changes(gone.signal)) raw.write(eventText(change));
  } catch (error) {
    if (!gone.signal.aborted) broke(error);
  } finally {
    clearInterval(heartbeat);
    raw.end();
  }
}
