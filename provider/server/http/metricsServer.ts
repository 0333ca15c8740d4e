/**
 * The metrics listener's app: `/metrics` alone, unauthenticated, on a port of its own
 * (contracts/metricsEndpoint.ts). Apart from the API and portal, so that the public route never
 * leads to it and a scrape is never counted as an API answer.
 */
import Fastify, { type FastifyInstance } from "fastify";
import { METRICS_PATH } from "../../contracts/metricsEndpoint";
import type { ServerMetrics } from "../metrics/serverMetrics";

/** The app that serves `metrics` at METRICS_PATH, and answers 404 to everything else. */
export async function buildMetricsServer(metrics: ServerMetrics): Promise<FastifyInstance> {
  const app = Fastify();
  app.get(METRICS_PATH, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  await app.ready();
  return app;
}
