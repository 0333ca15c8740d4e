/**
 * The server's HTTP front: one Fastify app with the JSON API, the browser's sign-in and the
 * portal, behind a strict Content-Security-Policy (scripts and styles from the server only),
 * sealed HTTP-only cookies, CSRF tokens on every change a browser makes, and a per-person limit
 * on creates. Errors are answered through the one mapping of httpErrors.ts.
 */
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance } from "fastify";
import { API_ROOT, CSRF_HEADER } from "../../contracts/tenantsApi";
import type { TenantsForPeople } from "../api/tenantView";
import type { SignInParts } from "../auth/signInParts";
import { portalRoutes } from "../portal/portalRoutes";
import { SessionSeal, type SessionKeys } from "../auth/sessionSeal";
import { AuditedTenants } from "../api/auditedTenants";
import type { AuditSink } from "../api/auditLog";
import { ApiError, errorAnswer, isUnforeseen } from "./httpErrors";
import { actorHook } from "./requestActor";
import { COOKIE_OPTIONS, signInRoutes } from "./signInRoutes";
import { createsLimit, tenantApiRoutes } from "./tenantApiRoutes";

/** What the HTTP front runs on. */
export interface ApiServerDeps {
  /** The people's door. */
  readonly tenants: TenantsForPeople;
  /** The sign-in's parts (the issuer may still be starting). */
  readonly signIn: () => Promise<SignInParts>;
  /** The keys that seal cookies. */
  readonly keys: SessionKeys;
  /** The URL people reach the server at (known once it listens). */
  readonly publicUrl: () => URL;
  /** Whether people reach it over plain http (the local default): no HSTS, no upgrade of requests to https. */
  readonly plainHttp: boolean;
  /** The admin group. */
  readonly adminGroup: string;
  /** How long a session lasts at most. */
  readonly sessionSeconds: number;
  /** How many tenants one person may create in a minute. */
  readonly createsPerMinute: number;
  /** Where audit lines go. */
  readonly audit: AuditSink;
  /** Where the server logs what went wrong. */
  readonly log: (line: string) => void;
}

/** The HTTP front, ready to listen. */
export async function buildApiServer(deps: ApiServerDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, trustProxy: false });
  const { plainHttp } = deps;
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // On the local default's plain http, upgrading would send the page's own requests to https.
        upgradeInsecureRequests: plainHttp ? null : [],
      },
    },
    hsts: !plainHttp,
  });
  await app.register(fastifyCookie, { secret: deps.keys.cookieSecret });
  await app.register(fastifyFormbody);
  await app.register(fastifyCsrf, {
    sessionPlugin: "@fastify/cookie",
    cookieOpts: { ...COOKIE_OPTIONS, signed: true },
    getToken: (request) =>
      (request.body as { _csrf?: string } | undefined)?._csrf ?? (request.headers[CSRF_HEADER] as string | undefined),
  });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new ApiError("rateLimited", `too many creates: at most ${context.max} a minute; try again in ${context.after}`),
  });
  const seal = new SessionSeal(deps.keys.sealKey);
  app.addHook(
    "onRequest",
    actorHook({ verifier: async () => (await deps.signIn()).verifier, seal, adminGroup: deps.adminGroup }),
  );
  app.setErrorHandler((error, request, reply) => {
    if (isUnforeseen(error)) deps.log(`${request.method} ${request.url.split("?")[0]}: ${(error as Error).message}`);
    const { status, body } = errorAnswer(error);
    return reply.code(status).send(body);
  });
  const csrfProtection = app.csrfProtection;
  // One audit for both fronts: the API's and the portal's changes go through the same door.
  const tenants = new AuditedTenants(deps.tenants, deps.audit);
  await tenantApiRoutes(app, {
    tenants,
    signInInfo: async () => (await deps.signIn()).info,
    createsPerMinute: deps.createsPerMinute,
    csrfProtection,
  });
  await signInRoutes(app, {
    signIn: deps.signIn,
    seal,
    sessionSeconds: deps.sessionSeconds,
    publicUrl: deps.publicUrl,
    audit: deps.audit,
    csrfProtection,
  });
  await app.register(portalRoutes, {
    tenants,
    actorOf: (request) => request.actor,
    createRouteConfig: { rateLimit: createsLimit(deps.createsPerMinute) },
  });
  app.setNotFoundHandler((request, reply) => {
    const message = `no such ${request.url.startsWith(API_ROOT) ? "API route" : "page"}: ${request.method} ${request.url.split("?")[0]}`;
    return reply.code(404).send({ error: { kind: "notFound", message } });
  });
  return app;
}
