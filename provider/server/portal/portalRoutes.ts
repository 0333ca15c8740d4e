/**
 * The web portal's routes, as a Fastify plugin: server-rendered pages over the TenantsForPeople
 * port, with forms that work without script. The app registers it after @fastify/cookie,
 * @fastify/csrf-protection and @fastify/formbody (checked when it registers), and gives it who is
 * signed in (the auth layer's session); who may use which route is portalAccess.ts. A tenant the
 * person may not see is not found, the same page as a tenant that does not exist; a name no tenant
 * can have is refused (400) before anything is asked (http/tenantNameParam.ts).
 */
import type {} from "@fastify/csrf-protection";
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Actor } from "../../tenants/ports";
import { RequestConflictError, RequestInvalidError, TenantNotFoundError } from "../../tenants/tenantsErrors";
import {
  newestFirst,
  requireRevisionReader,
  revisionViewOf,
  type PlatformRevisionReader,
} from "../http/fleetApiRoutes";
import { requireObjectName } from "../nameChecks";
import { revisionListPage, revisionPage } from "./revisionPages";
import type { TenantsForPeople } from "../people/tenantsForPeople";
import { tenantNameParam } from "../http/tenantNameParam";
import { messagePage, notFoundPage } from "./messagePages";
import { deletePage, type DeletePageView } from "./deletePage";
import { newTenantPage } from "./newTenantPage";
import { portalAccess, sendPage, type PortalAccess } from "./portalAccess";
import { loadPortalAssets } from "./portalAssets";
import { errorAnswer } from "./portalErrors";
import { PORTAL_PATHS, PORTAL_ROUTES } from "./portalPaths";
import { quotaRows, type QuotaRowsBody } from "./quotaTable";
import { formProblems, requestOfForm, tenantFormValues, type TenantFormValues } from "./tenantForm";
import { tenantListPage } from "./tenantListPage";
import { tenantPage } from "./tenantPage";
import { ownerOf } from "./viewParts";
import { awakeTime } from "../../tenants/awakeTime";

/** What the portal needs from the app. */
export interface PortalDeps {
  /** The tenants, as the signed-in person may see and change them. */
  readonly tenants: TenantsForPeople;
  /** Who sent the request (the auth layer reads the session cookie); undefined when no one is signed in. */
  readonly actorOf: (request: FastifyRequest) => Actor | undefined;
  /** What a page's CSRF token is bound to: what the app's @fastify/csrf-protection `getUserInfo` returns for the request. */
  readonly csrfBinding: (request: FastifyRequest) => string;
  /** Writes a failure (not a refusal) of `request` into the server's log. */
  readonly logFailure: (request: FastifyRequest, error: unknown) => void;
  /** The config of the route that creates tenants, e.g. @fastify/rate-limit's `rateLimit`; none by default. */
  readonly createRouteConfig?: FastifyContextConfig;
  /** The config of the routes that run a preview (New tenant's, the delete page), likewise. */
  readonly previewRouteConfig?: FastifyContextConfig;
  /** The platform's revisions, which the admins' pages show. */
  readonly revisions: PlatformRevisionReader;
}

type NameParams = { Params: { readonly name: string } };

/** Fails the registration when the app lacks what the pages need, naming it. */
function requireAppPlugins(app: FastifyInstance): void {
  const missing = [
    !app.hasReplyDecorator("generateCsrf") && "@fastify/csrf-protection (reply.generateCsrf)",
    typeof app.csrfProtection !== "function" && "@fastify/csrf-protection (app.csrfProtection)",
    !app.hasContentTypeParser("application/x-www-form-urlencoded") && "@fastify/formbody",
  ].filter((what) => what !== false);
  if (missing.length > 0)
    throw new Error(`portalRoutes needs these registered on the app first: ${missing.join(", ")}`);
}

/** The stylesheet and the script, from the files read once now. */
function assetRoutes(app: FastifyInstance): void {
  for (const asset of loadPortalAssets())
    app.get(asset.route, (_request, reply) =>
      reply.type(asset.contentType).header("cache-control", "public, max-age=300").send(asset.body),
    );
}

/** Every failure of a portal route as a page: not found, or the one mapping of portalErrors.ts. */
function errorPages(app: FastifyInstance, access: PortalAccess, logFailure: PortalDeps["logFailure"]): void {
  app.setErrorHandler((error, request, reply) => {
    const frame = access.frame(request, reply);
    if (error instanceof TenantNotFoundError) return sendPage(reply, 404, notFoundPage(frame, error.tenant));
    const answer = errorAnswer(error);
    if (answer.logged) logFailure(request, error);
    return sendPage(reply.headers(answer.headers), answer.status, messagePage(frame, answer.title, answer.message));
  });
}

/** The tenant list; `?all=1` shows an admin every tenant. */
function listRoute(app: FastifyInstance, tenants: TenantsForPeople, access: PortalAccess): void {
  app.get<{ Querystring: { readonly all?: string } }>(PORTAL_PATHS.list, access.page, async (request, reply) => {
    const actor = access.signedIn(request);
    const all = actor.isAdmin && request.query.all === "1";
    const list = await tenants.list(actor, { all });
    const caps = await tenants.capsOf(actor);
    return sendPage(reply, 200, tenantListPage(access.frame(request, reply), { tenants: list, all, caps }));
  });
}

/**
 * The New tenant form, its preview (the form again with the plan and a Create button), and its
 * create: the tenant page, or the form again with the service's problems.
 */
function createRoutes(app: FastifyInstance, deps: PortalDeps, access: PortalAccess): void {
  app.get(PORTAL_PATHS.newTenant, access.page, async (request, reply) =>
    sendPage(reply, 200, newTenantPage(access.frame(request, reply), { values: tenantFormValues({}) })),
  );
  const formHooks = (config: FastifyContextConfig | undefined) => ({
    ...access.form(() => PORTAL_PATHS.newTenant),
    config: config ?? {},
  });
  /** Runs `step` on the posted form; a refusal is the form again, its problems placed beside their fields. */
  const withForm =
    (step: (values: TenantFormValues, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const values = tenantFormValues(request.body);
      try {
        return await step(values, request, reply);
      } catch (error) {
        const refusal = formRefusal(error, values);
        if (!refusal) throw error;
        const view = { values, problems: formProblems(refusal.problems) };
        return sendPage(reply, refusal.status, newTenantPage(access.frame(request, reply), view));
      }
    };
  app.post(
    PORTAL_PATHS.previewCreate,
    formHooks(deps.previewRouteConfig),
    withForm(async (values, request, reply) => {
      const plan = await deps.tenants.previewCreate(values.name, requestOfForm(values), access.signedIn(request));
      return sendPage(reply, 200, newTenantPage(access.frame(request, reply), { values, plan }));
    }),
  );
  app.post(
    PORTAL_PATHS.create,
    formHooks(deps.createRouteConfig),
    withForm(async (values, request, reply) => {
      const created = await deps.tenants.create(values.name, requestOfForm(values), access.signedIn(request));
      return reply.redirect(PORTAL_PATHS.tenant(created.metadata.name), 303);
    }),
  );
}

/** The status and problems of a refused New tenant form, or undefined for an error that is no refusal of its values. */
function formRefusal(
  error: unknown,
  values: TenantFormValues,
): { readonly status: number; readonly problems: Parameters<typeof formProblems>[0] } | undefined {
  if (error instanceof RequestInvalidError) {
    // The component's problems when it found them, placed and worded for the form; else the service's words.
    const words = error.problems.length > 0 ? error.problems : [error.message];
    return { status: 422, problems: error.inputProblems.length > 0 ? error.inputProblems : words };
  }
  if (error instanceof RequestConflictError) return { status: 409, problems: [nameTaken(values)] };
  return undefined;
}

/** The tenant page, its kubeconfig download, and its quota for the page's script. */
function tenantRoutes(app: FastifyInstance, tenants: TenantsForPeople, access: PortalAccess): void {
  const page = { ...access.page, preHandler: tenantNameParam };
  app.get<NameParams>(PORTAL_ROUTES.tenant, page, async (request, reply) => {
    const actor = access.signedIn(request);
    const tenant = await tenants.get(request.params.name, actor);
    const quota = await tenants.quota(tenant.metadata.name, actor);
    const history = await tenants.history(tenant.metadata.name, actor);
    const awake = awakeTime(history, Date.now());
    const view = { tenant, quota, history, awake, isOwner: ownerOf(tenant) === actor.owner };
    return sendPage(reply, 200, tenantPage(access.frame(request, reply), view));
  });

  app.get<NameParams>(PORTAL_ROUTES.kubeconfig, page, async (request, reply) => {
    const { name } = request.params;
    const kubeconfig = await tenants.kubeconfig(name, access.signedIn(request));
    return reply
      .type("application/yaml; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-disposition", `attachment; filename="${downloadName(name)}"`)
      .send(kubeconfig);
  });

  // The page's script asks for the quota while the page is open; a tenant the person may not see is not found.
  app.get<NameParams>(PORTAL_ROUTES.quota, page, async (request, reply) => {
    const quota = await tenants.quota(request.params.name, access.signedIn(request));
    const body: QuotaRowsBody = { rows: quota ? quotaRows(quota) : null };
    return reply.header("cache-control", "no-store").send(body);
  });
}

/** The rollback form: the tenant's request goes back to an earlier update's, then the tenant page follows the change. */
function rollbackRoute(app: FastifyInstance, tenants: TenantsForPeople, access: PortalAccess): void {
  const formHooks = {
    ...access.form<FastifyRequest<NameParams>>((request) => PORTAL_PATHS.tenant(request.params.name)),
    preHandler: tenantNameParam,
  };
  app.post<NameParams>(PORTAL_ROUTES.rollback, formHooks, async (request, reply) => {
    const version = Number((request.body as { version?: unknown } | undefined)?.version);
    const { name } = await tenants
      .rollback(request.params.name, version, access.signedIn(request))
      .then((t) => t.metadata);
    return reply.redirect(PORTAL_PATHS.tenant(name), 303);
  });
}

/** The Put to sleep and Wake forms: the tenant's request's `sleep` changes, then the tenant page follows the change. */
function sleepRoutes(app: FastifyInstance, tenants: TenantsForPeople, access: PortalAccess): void {
  const formHooks = {
    ...access.form<FastifyRequest<NameParams>>((request) => PORTAL_PATHS.tenant(request.params.name)),
    preHandler: tenantNameParam,
  };
  for (const [route, asleep] of [
    [PORTAL_ROUTES.sleep, true],
    [PORTAL_ROUTES.wake, false],
  ] as const)
    app.post<NameParams>(route, formHooks, async (request, reply) => {
      const { name } = (await tenants.setSleep(request.params.name, asleep, access.signedIn(request))).metadata;
      return reply.redirect(PORTAL_PATHS.tenant(name), 303);
    });
}

/** The Take snapshot and Restore forms: each asks the server, then the tenant page follows what it does. */
function snapshotRoutes(app: FastifyInstance, tenants: TenantsForPeople, access: PortalAccess): void {
  const formHooks = {
    ...access.form<FastifyRequest<NameParams>>((request) => PORTAL_PATHS.tenant(request.params.name)),
    preHandler: tenantNameParam,
  };
  app.post<NameParams>(PORTAL_ROUTES.snapshots, formHooks, async (request, reply) => {
    const { name } = (await tenants.snapshot(request.params.name, access.signedIn(request))).metadata;
    return reply.redirect(PORTAL_PATHS.tenant(name), 303);
  });
  app.post<NameParams>(PORTAL_ROUTES.restore, formHooks, async (request, reply) => {
    const snapshot = String((request.body as { snapshot?: unknown } | undefined)?.snapshot ?? "");
    const { name } = (await tenants.restore(request.params.name, snapshot, access.signedIn(request))).metadata;
    return reply.redirect(PORTAL_PATHS.tenant(name), 303);
  });
}

/** The platform revisions' pages, for the admins only: anyone else is refused, and learns nothing of them. */
function revisionRoutes(app: FastifyInstance, revisions: PlatformRevisionReader, access: PortalAccess): void {
  const adminOnly = (request: FastifyRequest) => requireRevisionReader(access.signedIn(request));
  app.get(PORTAL_PATHS.revisions, access.page, async (request, reply) => {
    adminOnly(request);
    const list = (await revisions.list()).map(revisionViewOf).sort(newestFirst);
    return sendPage(reply, 200, revisionListPage(access.frame(request, reply), list));
  });
  app.get<NameParams>(PORTAL_ROUTES.revision, access.page, async (request, reply) => {
    adminOnly(request);
    const { name } = request.params;
    const revision = await revisions.get(requireObjectName(name, "name"));
    const frame = access.frame(request, reply);
    if (!revision)
      return sendPage(
        reply,
        404,
        messagePage(frame, "Platform revision not found", `platform revision ${name} not found`),
      );
    return sendPage(reply, 200, revisionPage(frame, revisionViewOf(revision)));
  });
}

/** The delete page (what a delete would remove, previewed) and its form, confirmed by typing the name. */
function deleteRoutes(app: FastifyInstance, deps: PortalDeps, access: PortalAccess): void {
  const { tenants } = deps;
  const showDeletePage = async (
    request: FastifyRequest<NameParams>,
    reply: FastifyReply,
    status: number,
    refused?: DeletePageView["refused"],
  ) => {
    const plan = await tenants.previewDelete(request.params.name, access.signedIn(request));
    return sendPage(
      reply,
      status,
      deletePage(access.frame(request, reply), { name: request.params.name, plan, refused }),
    );
  };
  const pageHooks = { ...access.page, preHandler: tenantNameParam, config: deps.previewRouteConfig ?? {} };
  app.get<NameParams>(PORTAL_ROUTES.delete, pageHooks, (request, reply) => showDeletePage(request, reply, 200));

  const formHooks = {
    ...access.form<FastifyRequest<NameParams>>((request) => PORTAL_PATHS.delete(request.params.name)),
    preHandler: tenantNameParam,
  };
  app.post<NameParams>(PORTAL_ROUTES.delete, formHooks, async (request, reply) => {
    const actor = access.signedIn(request);
    // Looked up first, so that another person's tenant is not found whatever was typed.
    const { name } = (await tenants.get(request.params.name, actor)).metadata;
    const typed = confirmationOf(request.body);
    if (typed !== name)
      return showDeletePage(request, reply, 422, {
        typed,
        problem: `confirm: type the tenant's name, ${name}, exactly to delete it; nothing was deleted`,
      });
    await tenants.delete(name, actor);
    return reply.redirect(PORTAL_PATHS.tenant(name), 303);
  });
}

/** The portal's pages and forms; register with `app.register(portalRoutes, deps)`. */
export async function portalRoutes(app: FastifyInstance, deps: PortalDeps): Promise<void> {
  requireAppPlugins(app);
  const access = portalAccess(app, deps.actorOf, deps.csrfBinding);
  assetRoutes(app);
  errorPages(app, access, deps.logFailure);
  listRoute(app, deps.tenants, access);
  createRoutes(app, deps, access);
  tenantRoutes(app, deps.tenants, access);
  deleteRoutes(app, deps, access);
  rollbackRoute(app, deps.tenants, access);
  sleepRoutes(app, deps.tenants, access);
  snapshotRoutes(app, deps.tenants, access);
  revisionRoutes(app, deps.revisions, access);
}

/** The New tenant form's answer to a name that is taken. */
const nameTaken = (values: TenantFormValues): string =>
  `name: a tenant named ${values.name} exists already; pick another name`;

/** The kubeconfig's file name: the tenant's name (a DNS label) with anything else dropped, so the header stays well-formed. */
const downloadName = (name: string): string => `${name.replace(/[^a-z0-9-]/g, "")}-kubeconfig.yaml`;

/** What the delete form's confirmation field holds, trimmed; empty when it was not sent. */
function confirmationOf(body: unknown): string {
  const confirm = (body as { readonly confirm?: unknown } | undefined)?.confirm;
  return typeof confirm === "string" ? confirm.trim() : "";
}
