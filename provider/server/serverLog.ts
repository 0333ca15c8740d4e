/**
 * The server's log: one JSON line per event on stderr, with its level and time, through Fastify's
 * own logger (pino, the copy Fastify loads, not a second one). HTTP requests are logged by Fastify
 * with a request id, which the answer carries in `x-request-id` so that a person can quote it. A
 * request is logged by method and path only: a query string can carry a sign-in's code and state,
 * and no header is logged. The audit log is not part of it: it is a stream of its own (stdout).
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type pinoModule from "pino";

/** The pino that Fastify itself loads. */
const pino = createRequire(require.resolve("fastify"))("pino") as typeof pinoModule;

/** The levels the server logs at. */
export type LogLevel = "info" | "warn" | "error";

/** The header that carries a request's id back. */
export const REQUEST_ID_HEADER = "x-request-id";

/** A logger writing JSON lines to `stream`, each with `bindings` (this replica's identity). */
export function serverLogger(
  stream: { write(text: string): unknown },
  bindings: Readonly<Record<string, string>> = {},
): FastifyBaseLogger {
  return pino(
    {
      base: { name: "kubespaces-server", ...bindings },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: {
        req: (request: { method?: string; url?: string }) => ({
          method: request.method,
          path: request.url?.split("?")[0],
        }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    stream,
  );
}

/** Sends each request's id back in its answer's x-request-id. */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => void reply.header(REQUEST_ID_HEADER, request.id));
}

/** Fastify's options for `logger`: every request logged with an id of its own, sent back in x-request-id. */
export function fastifyLogging(logger: FastifyBaseLogger | undefined) {
  return logger ? { loggerInstance: logger, genReqId: () => randomUUID() } : { logger: false as const };
}
