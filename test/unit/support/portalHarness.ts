/**
 * The portal's routes in a Fastify app as the server's app registers them: the real
 * @fastify/cookie, @fastify/csrf-protection (its tokens bound to the signed-in person, as the app
 * binds them to the session) and @fastify/formbody, the portal plugin over a
 * StandInTenantsForPeople, and a stand-in for the auth layer that reads who is signed in from a
 * test header (`x-stand-in-actor: <email>`, `x-stand-in-admin: true`). Requests go through
 * `app.inject`; forms are sent as a browser would, with the CSRF cookie and token a page gave.
 */
import cookie from "@fastify/cookie";
import csrfProtection from "@fastify/csrf-protection";
import formbody from "@fastify/formbody";
import Fastify, { type FastifyInstance, type FastifyRequest, type LightMyRequestResponse } from "fastify";
import { serverCookies } from "../../../provider/server/http/serverCookies";
import { portalRoutes } from "../../../provider/server/portal/portalRoutes";
import type { PlatformRevision } from "../../../provider/server/revisions/fleetPreview";
import type { Actor } from "../../../provider/tenants/ports";
import { StandInTenantsForPeople } from "./standInTenantsForPeople";

/** The header the stand-in auth layer reads the signed-in person's owner identity from. */
const ACTOR_HEADER = "x-stand-in-actor";
/** The header that makes the signed-in person an admin. */
const ADMIN_HEADER = "x-stand-in-admin";

/** The stand-in auth layer: the person the test headers name, if any. */
function standInActorOf(request: FastifyRequest): Actor | undefined {
  const owner = request.headers[ACTOR_HEADER];
  if (typeof owner !== "string") return undefined;
  return { owner, groups: [], isAdmin: request.headers[ADMIN_HEADER] === "true" };
}

/** What the stand-in binds CSRF tokens to: the signed-in person (the app binds them to the session). */
const standInCsrfBinding = (request: FastifyRequest): string => standInActorOf(request)?.owner ?? "";

/** The CSRF cookie's name, as the server names it on plain http. */
const CSRF_COOKIE = serverCookies(false).csrf;

/** The headers that sign `owner` in (as an admin with `admin`). */
export const signedInAs = (owner: string, admin = false): Record<string, string> => ({
  [ACTOR_HEADER]: owner,
  ...(admin && { [ADMIN_HEADER]: "true" }),
});

/** A browser's CSRF state after loading a page: the secret cookie and the token in its forms. */
export interface FormSession {
  readonly cookie: string;
  readonly token: string;
}

/** The CSRF cookie and the form token of a page's answer. */
export function formSessionOf(page: LightMyRequestResponse): FormSession {
  const secret = page.cookies.find((c) => c.name === CSRF_COOKIE);
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (!secret || !token) throw new Error(`the page (status ${page.statusCode}) gave no CSRF cookie and token`);
  return { cookie: `${CSRF_COOKIE}=${secret.value}`, token };
}

/** The portal app and its stand-in tenants. */
export interface PortalHarness {
  readonly app: FastifyInstance;
  readonly tenants: StandInTenantsForPeople;
  /** The failures the portal handed to the server's log: `<url>: <message>`. */
  readonly failures: string[];
  /** The PlatformRevisions the admins' pages read (a stand-in of the API server's), by name. */
  readonly revisions: Map<string, PlatformRevision>;
  /** GETs `url` as `owner` (no one: not signed in). */
  get(url: string, owner?: string, admin?: boolean): Promise<LightMyRequestResponse>;
  /** Loads `formPage` as `owner`, then posts `fields` (with its CSRF token, unless `withToken` is false) to `action`. */
  submit(
    formPage: string,
    action: string,
    fields: Readonly<Record<string, string>>,
    options?: { readonly owner?: string; readonly as?: string; readonly withToken?: boolean },
  ): Promise<LightMyRequestResponse>;
}

/** A ready portal app over `tenants`. */
export async function portalHarness(tenants = new StandInTenantsForPeople()): Promise<PortalHarness> {
  const app = Fastify();
  await app.register(cookie);
  await app.register(csrfProtection, {
    cookieKey: CSRF_COOKIE,
    getUserInfo: standInCsrfBinding,
    csrfOpts: { userInfo: true, hmacKey: "stand-in-csrf-key" },
  });
  await app.register(formbody);
  const failures: string[] = [];
  const revisions = new Map<string, PlatformRevision>();
  await app.register(portalRoutes, {
    revisions: { list: async () => [...revisions.values()], get: async (name) => revisions.get(name) },
    tenants,
    actorOf: standInActorOf,
    csrfBinding: standInCsrfBinding,
    logFailure: (request, error) => failures.push(`${request.url}: ${(error as Error).message}`),
  });
  await app.ready();
  const get = (url: string, owner?: string, admin = false) =>
    app.inject({ method: "GET", url, headers: owner ? signedInAs(owner, admin) : {} });
  return {
    app,
    tenants,
    failures,
    revisions,
    get,
    async submit(formPage, action, fields, options = {}) {
      const { owner = "alice@example.com", as = owner, withToken = true } = options;
      const session = formSessionOf(await get(formPage, owner));
      const body = new URLSearchParams({ ...fields, ...(withToken && { _csrf: session.token }) });
      return app.inject({
        method: "POST",
        url: action,
        headers: {
          ...(as && signedInAs(as)),
          cookie: session.cookie,
          "content-type": "application/x-www-form-urlencoded",
        },
        payload: body.toString(),
      });
    },
  };
}
