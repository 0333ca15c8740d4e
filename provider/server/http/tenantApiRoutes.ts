/**
 * The JSON API (paths in contracts/tenantsApi.ts): list, create, get, delete, preview, follow,
 * history, quota, rollback, sleep, wake, snapshot, restore and the kubeconfig of the caller's tenants, over OwnedTenants. The owner of a new tenant is the
 * caller, never the body; creates and previews are rate-limited per person; a request signed in
 * by cookie must carry its CSRF token to change anything or run a preview. A tenant's route checks, in this order, who asks, that
 * a change was meant (CSRF), and that the name in its path can be a tenant's.
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from "fastify";
import {
  API_ROUTES,
  type CreateTenantBody,
  type OwnerCapsBody,
  type PreviewTenantBody,
  type RestoreTenantBody,
  type RollbackTenantBody,
  type SignInInfo,
  type TenantPreviewReply,
  type TenantQuotaBody,
  type WhoAmI,
} from "../../contracts/tenantsApi";
import type { ChangePlan } from "../../tenants/tenantPlan";
import { RequestInvalidError } from "../../tenants/tenantsErrors";
import { ApiError } from "./httpErrors";
import {
  createTenantBodySchema,
  jsonSchemaOf,
  previewTenantBodySchema,
  restoreTenantBodySchema,
  rollbackTenantBodySchema,
} from "./tenantsApiSchemas";
import type { TenantsForPeople } from "../people/tenantsForPeople";
import { streamChanges } from "./eventStream";
import { csrfForSessions, requireActor } from "./requestActor";
import { tenantNameParam } from "./tenantNameParam";

/** What the API runs on. */
export interface TenantApiDeps {
  /** The tenants as signed-in people may see and change them (OwnedTenants). */
  readonly tenants: TenantsForPeople;
  /** How the command signs in. */
  readonly signInInfo: () => Promise<SignInInfo>;
  /** How many tenants one person may create in a minute, and how many previews they may ask for. */
  readonly createsPerMinute: number;
  /** The CSRF check (@fastify/csrf-protection's), applied to requests signed in by cookie. */
  readonly csrfProtection: onRequestHookHandler;
  /** Writes a failure of `request` the server did not foresee into its log. */
  readonly logFailure: (request: FastifyRequest, error: unknown) => void;
}

type NameParams = { Params: { name: string } };

/** The API's routes. */
export async function tenantApiRoutes(app: FastifyInstance, deps: TenantApiDeps): Promise<void> {
  const csrfCheck = csrfForSessions(deps.csrfProtection);
  app.get(API_ROUTES.health, async () => ({ ok: true }));
  app.get(API_ROUTES.signIn, async () => deps.signInInfo());
  app.get(API_ROUTES.whoAmI, async (request): Promise<WhoAmI> => requireActor(request));

  app.get<{ Querystring: { all?: string } }>(API_ROUTES.tenants, async (request) => ({
    items: await deps.tenants.list(requireActor(request), { all: request.query.all === "true" }),
  }));

  app.post<{ Body: CreateTenantBody }>(
    API_ROUTES.tenants,
    {
      schema: { body: CREATE_BODY_SCHEMA },
      preHandler: [mustSignIn, csrfCheck],
      config: { rateLimit: createsLimit(deps.createsPerMinute) },
    },
    async (request, reply) => {
      const { name, spec = {} } = request.body;
      reply.code(201);
      return deps.tenants.create(name, spec, requireActor(request));
    },
  );

  const read = { preHandler: [mustSignIn, tenantNameParam] };
  const change = { preHandler: [mustSignIn, csrfCheck, tenantNameParam] };

  app.get<NameParams>(API_ROUTES.tenant, read, async (request) =>
    deps.tenants.get(request.params.name, requireActor(request)),
  );

  app.delete<NameParams>(API_ROUTES.tenant, change, async (request, reply) => {
    reply.code(202);
    return deps.tenants.delete(request.params.name, requireActor(request));
  });

  app.post<NameParams & { Body: PreviewTenantBody }>(
    API_ROUTES.tenantPreview,
    { ...change, schema: { body: PREVIEW_BODY_SCHEMA }, config: { rateLimit: previewsLimit(deps.createsPerMinute) } },
    async (request): Promise<TenantPreviewReply<ChangePlan>> => {
      const actor = requireActor(request);
      const { name } = request.params;
      const { operation, spec } = request.body;
      if (operation === "delete" && spec !== undefined)
        throw new RequestInvalidError(`tenant ${name}: a delete's preview takes no request`, [
          "spec: only a create's preview takes a request",
        ]);
      const plan =
        operation === "create"
          ? await deps.tenants.previewCreate(name, spec ?? {}, actor)
          : await deps.tenants.previewDelete(name, actor);
      return { name, operation, plan };
    },
  );

  app.get(API_ROUTES.caps, async (request): Promise<OwnerCapsBody> => deps.tenants.capsOf(requireActor(request)));

  app.get<NameParams>(API_ROUTES.tenantQuota, read, async (request): Promise<TenantQuotaBody> => {
    const quota = await deps.tenants.quota(request.params.name, requireActor(request));
    return quota ? { quota } : {};
  });

  app.get<NameParams>(API_ROUTES.tenantHistory, read, async (request) => ({
    items: await deps.tenants.history(request.params.name, requireActor(request)),
  }));

  app.post<NameParams & { Body: RollbackTenantBody }>(
    API_ROUTES.tenantRollback,
    { ...change, schema: { body: ROLLBACK_BODY_SCHEMA } },
    async (request, reply) => {
      reply.code(202);
      return deps.tenants.rollback(request.params.name, request.body.version, requireActor(request));
    },
  );

  for (const [route, asleep] of [
    [API_ROUTES.tenantSleep, true],
    [API_ROUTES.tenantWake, false],
  ] as const)
    app.post<NameParams>(route, change, async (request, reply) => {
      reply.code(202);
      return deps.tenants.setSleep(request.params.name, asleep, requireActor(request));
    });

  app.post<NameParams>(API_ROUTES.tenantSnapshots, change, async (request, reply) => {
    reply.code(202);
    return deps.tenants.snapshot(request.params.name, requireActor(request));
  });

  app.post<NameParams & { Body: RestoreTenantBody }>(
    API_ROUTES.tenantRestore,
    { ...change, schema: { body: RESTORE_BODY_SCHEMA } },
    async (request, reply) => {
      reply.code(202);
      return deps.tenants.restore(request.params.name, request.body.snapshot, requireActor(request));
    },
  );

  app.get<NameParams>(API_ROUTES.tenantKubeconfig, read, async (request, reply) => {
    const text = await deps.tenants.kubeconfig(request.params.name, requireActor(request));
    return reply.header("cache-control", "no-store").type("application/yaml; charset=utf-8").send(text);
  });

  app.get<NameParams>(API_ROUTES.tenantEvents, read, async (request, reply) => {
    const actor = requireActor(request);
    const { name } = request.params;
    await deps.tenants.get(name, actor);
    const after = request.headers["last-event-id"];
    await streamChanges(
      request,
      reply,
      (signal) => deps.tenants.follow(name, actor, { after: typeof after === "string" ? after : undefined, signal }),
      (error) => deps.logFailure(request, error),
    );
  });
}

/**
 * A per-person limit of `perMinute` requests of one kind: the same person's requests count together
 * however they come (API or portal), and the refusal names what was limited.
 */
function perPersonLimit(perMinute: number, groupId: string, what: string) {
  return {
    max: perMinute,
    timeWindow: 60_000,
    hook: "preHandler" as const,
    groupId,
    keyGenerator: (request: FastifyRequest) => request.actor?.owner ?? request.ip,
    errorResponseBuilder: (_request: FastifyRequest, context: { max: number; after: string }) =>
      new ApiError("rateLimited", `too many ${what}: at most ${context.max} a minute; try again in ${context.after}`),
  };
}

/** The limit on creates, per person (the API's and the portal's form share it). */
export const createsLimit = (perMinute: number) => perPersonLimit(perMinute, "tenant-creates", "creates");

/** The limit on previews, per person, apart from creates (each runs a stack's preview on the server): as many a minute. */
export const previewsLimit = (perMinute: number) => perPersonLimit(perMinute, "tenant-previews", "previews");

/** A preHandler that refuses a request that proved no one, before the CSRF and rate checks. */
async function mustSignIn(request: FastifyRequest): Promise<void> {
  requireActor(request);
}

/** The create body's shape, from its zod schema, which the OpenAPI document shows (its spec is checked by the component's rules, with their messages). */
const CREATE_BODY_SCHEMA = jsonSchemaOf(createTenantBodySchema);
/** The preview body's shape, likewise. */
const PREVIEW_BODY_SCHEMA = jsonSchemaOf(previewTenantBodySchema);
/** The restore body's JSON Schema. */
const RESTORE_BODY_SCHEMA = jsonSchemaOf(restoreTenantBodySchema);
/** The rollback body's JSON Schema. */
const ROLLBACK_BODY_SCHEMA = jsonSchemaOf(rollbackTenantBodySchema);
