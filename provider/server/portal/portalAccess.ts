/**
 * Who may use a portal route, and what every page's frame needs: the signed-in person (the auth
 * layer's `actorOf`) and a CSRF token. A page asked for by no one signed in redirects to sign-in
 * and back; a form sent by no one signed in is answered 401 before its CSRF check, and every form
 * is checked against CSRF (in preValidation, once the form body is parsed: the token is a field).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from "fastify";
import type { Actor } from "../../tenants/ports";
import type { PageFrame } from "./layout";
import { signInAgainPage } from "./messagePages";
import { signInPath } from "./portalPaths";

/** Sends a whole page: HTML, never cached (it holds a CSRF token and the person's tenants). */
export function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-store").send(body);
}

/** The access rules of the portal's routes, over the auth layer's `actorOf`. */
export interface PortalAccess {
  /** The signed-in person of a request the route's hook let through. */
  signedIn(request: FastifyRequest): Actor;
  /** The frame of a page for this request: the signed-in person, if any, and a CSRF token. */
  frame(request: FastifyRequest, reply: FastifyReply): Omit<PageFrame, "title">;
  /** The hooks of a page (GET): no one signed in → the sign-in page, coming back here after. */
  readonly page: { readonly onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> };
  /** The hooks of a form (POST) whose page is `returnTo`: signed in, then the CSRF check. */
  form<Request extends FastifyRequest>(
    returnTo: (request: Request) => string,
  ): { readonly preValidation: preValidationHookHandler[] };
}

/** The access rules over `actorOf`, with `app`'s CSRF check and its tokens bound to `csrfBinding`. */
export function portalAccess(
  app: FastifyInstance,
  actorOf: (request: FastifyRequest) => Actor | undefined,
  csrfBinding: (request: FastifyRequest) => string,
): PortalAccess {
  return {
    signedIn(request) {
      const actor = actorOf(request);
      // The route's hook turned away requests with no one signed in: reaching this is a bug.
      if (!actor) throw new Error(`portal route ${request.url} reached without a signed-in person`);
      return actor;
    },
    frame: (request, reply) => ({
      actor: actorOf(request),
      csrfToken: reply.generateCsrf({ userInfo: csrfBinding(request) }),
    }),
    page: {
      onRequest: async (request, reply) => {
        if (!actorOf(request)) return reply.redirect(signInPath(request.url), 303);
      },
    },
    form: (returnTo) => ({
      preValidation: [
        async (request, reply) => {
          if (!actorOf(request))
            return sendPage(reply, 401, signInAgainPage(returnTo(request as Parameters<typeof returnTo>[0])));
        },
        app.csrfProtection,
      ],
    }),
  };
}
