/**
 * The server's HTTP front: one Fastify app with the JSON API, the browser's sign-in and the
 * portal, behind a strict Content-Security-Policy (scripts and styles from the server only),
 * sealed HTTP-only cookies, CSRF tokens bound to their session on every change a browser makes,
 * and a per-person limit on creates. Errors are answered through the one mapping of httpErrors.ts.
 */
import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import fastifyHelmet from "@fastify/helmet";
import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from "fastify";
import { API_ROOT, CSRF_HEADER } from "../../contracts/tenantsApi";
import type { TenantsForPeople } from "../people/tenantsForPeople";
import type { SignInParts } from "../auth/signInParts";
import { portalRoutes } from "../portal/portalRoutes";
import { SessionSeal, type SessionKeys } from "../auth/sessionSeal";
import { AuditedTenants } from "../people/auditedTenants";
import type { AuditSink } from "../people/auditLog";
import { apiErrorText } from "../../util/kubeClientErrors";
import { errorAnswer, isUnforeseen } from "./httpErrors";
import { actorHook, csrfBinding } from "./requestActor";
import { COOKIE_OPTIONS, serverCookies } from "./serverCookies";
import { signInRoutes } from "./signInRoutes";
import { createsLimit, previewsLimit, tenantApiRoutes } from "./tenantApiRoutes";
import { operationsRoutes, type OperationsDeps } from "./operationsRoutes";
import { fleetApiRoutes, type PlatformRevisionReader } from "./fleetApiRoutes";
import { echoRequestId, fastifyLogging } from "../serverLog";

/** What the HTTP front runs on. */
export interface ApiServerDeps {
  /** The tenants as signed-in people may see and change them (OwnedTenants). */
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
  /** The server's log, which Fastify logs each request to with its id (none: requests are not logged). */
  readonly logger?: FastifyBaseLogger;
  /** The PlatformRevisions, which the API shows the admins. */
  readonly revisions: PlatformRevisionReader;
  /** Readiness for `/readyz`, and the metrics that count the answers (none: always ready, nothing counted). */
  readonly operations?: OperationsDeps;
}

/** The HTTP front, ready to listen. */
export async function buildApiServer(deps: ApiServerDeps): Promise<FastifyInstance> {
  const app = Fastify({ ...fastifyLogging(deps.logger), trustProxy: false });
  if (deps.logger) echoRequestId(app);
  const { plainHttp } = deps;
  const cookies = serverCookies(!plainHttp);
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
    cookieKey: cookies.csrf,
    cookieOpts: { ...COOKIE_OPTIONS, signed: true },
    // Each token carries its session's id under this HMAC key: planted beside another session, it fails.
    getUserInfo: csrfBinding,
    csrfOpts: { userInfo: true, hmacKey: Buffer.from(deps.keys.csrfKey) },
    getToken: (request) =>
      (request.body as { _csrf?: string } | undefined)?._csrf ?? (request.headers[CSRF_HEADER] as string | undefined),
  });
  // Each limited route names what it limits (tenantApiRoutes.ts's createsLimit, previewsLimit).
  await app.register(fastifyRateLimit, { global: false });
  // First, so that its hook counts every answer, the refused ones too.
  await operationsRoutes(app, deps.operations ?? {});
  const seal = new SessionSeal(deps.keys.sealKey);
  app.addHook(
    "onRequest",
    actorHook({
      verifier: async () => (await deps.signIn()).verifier,
      seal,
      sessionCookie: cookies.session,
      adminGroup: deps.adminGroup,
    }),
  );
  // Fastify's own logger is off: every failure goes to the server's log, one line each, as its other
  // logs (client-node's own message spans lines and dumps the response's headers).
  const logFailure = (request: FastifyRequest, error: unknown) =>
    deps.log(`${request.method} ${request.url.split("?")[0]}: ${apiErrorText(error)}`);
  app.setErrorHandler((error, request, reply) => {
    if (isUnforeseen(error)) logFailure(request, error);
    const { status, headers, body } = errorAnswer(error);
    return reply.code(status).headers(headers).send(body);
  });
  const csrfProtection = app.csrfProtection;
  // One audit for both fronts: the API's and the portal's changes go through the same OwnedTenants.
  const tenants = new AuditedTenants(deps.tenants, deps.audit);
  await tenantApiRoutes(app, {
    tenants,
    signInInfo: async () => (await deps.signIn()).info,
    createsPerMinute: deps.createsPerMinute,
    csrfProtection,
    logFailure,
  });
  await fleetApiRoutes(app, deps.revisions);
  await signInRoutes(app, {
    signIn: deps.signIn,
    seal,
    cookies,
    sessionSeconds: deps.sessionSeconds,
    publicUrl: deps.publicUrl,
    audit: deps.audit,
    csrfProtection,
  });
  await app.register(portalRoutes, {
    tenants,
    actorOf: (request) => request.actor,
    csrfBinding,
    logFailure,
    createRouteConfig: { rateLimit: createsLimit(deps.createsPerMinute) },
    previewRouteConfig: { rateLimit: previewsLimit(deps.createsPerMinute) },
    revisions: deps.revisions,
  });
  app.setNotFoundHandler((request, reply) => {
    const message = `no such ${request.url.startsWith(API_ROOT) ? "API route" : "page"}: ${request.method} ${request.url.split("?")[0]}`;
    return reply.code(404).send({ error: { kind: "notFound", message } });
  });
  return app;
}
