/**
 * The routes and hook that operators' tools use beside the API: `/readyz` for the readiness probe,
 * the API's OpenAPI document, and the hook that counts every answer by route pattern and status
 * for Prometheus. None needs a sign-in, and none says anything of a tenant or a person. The
 * metrics themselves are served on a listener of their own (metricsServer.ts), never here.
 */
import type { FastifyInstance } from "fastify";
import { API_ROUTES } from "../../contracts/tenantsApi";
import type { ServerMetrics } from "../metrics/serverMetrics";
import type { Readiness } from "../readiness";
import { tenantsApiDocument } from "./openApiDocument";

/** What the operations routes run on. */
export interface OperationsDeps {
  /** The replica's readiness (none: ready as soon as it serves). */
  readonly readiness?: Readiness;
  /** The server's metrics, which count the answers (none: metrics are off, and nothing is counted). */
  readonly metrics?: ServerMetrics;
}

/** Registers the operations routes, and the hook that counts every answer when metrics are on. */
export async function operationsRoutes(app: FastifyInstance, deps: OperationsDeps): Promise<void> {
  const { metrics, readiness } = deps;
  app.get(API_ROUTES.ready, async (_request, reply) => {
    const waitingFor = (await readiness?.unmet()) ?? [];
    return reply.code(waitingFor.length === 0 ? 200 : 503).send({ ready: waitingFor.length === 0, waitingFor });
  });
  const document = JSON.stringify(tenantsApiDocument());
  app.get(API_ROUTES.openApi, async (_request, reply) => reply.type("application/json; charset=utf-8").send(document));
  if (!metrics) return;
  app.addHook("onResponse", async (request, reply) => {
    metrics.answered(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
}
