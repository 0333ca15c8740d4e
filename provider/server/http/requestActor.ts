/**
 * Who a request comes from: the command sends its ID token as a bearer token, a browser its
 * sealed session cookie. A hook resolves the person before every route's handler, and
 * `requireActor` refuses a request that proved no one. A request signed in by cookie is what CSRF
 * can forge, so the routes that change things check its token (`csrfForSessions`), and the token
 * is bound to the session it was made for (`csrfBinding`): another person's CSRF cookie and token
 * planted beside a session do not pass.
 */
import type {} from "@fastify/cookie";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from "fastify";
import type { Actor } from "../../tenants/ports";
import type { SessionSeal } from "../auth/sessionSeal";
import { UnauthenticatedError, type TokenVerifier } from "../auth/tokenVerifier";

declare module "fastify" {
  interface FastifyRequest {
    /** The person the request proves, if any. */
    actor?: Actor;
    /** How it proved them. */
    signedInBy?: "bearer" | "session";
    /** The id of the session it was signed in by (its sealed cookie's `jti`). */
    sessionId?: string;
    /** Why a bearer token it carried was refused. */
    refusal?: UnauthenticatedError;
  }
}

/** What the hook proves people with. */
export interface ActorSources {
  /** The session cookie's name (http/serverCookies.ts). */
  readonly sessionCookie: string;
  /** Proves bearer tokens (once the issuer was discovered). */
  readonly verifier: () => Promise<TokenVerifier>;
  /** Opens session cookies. */
  readonly seal: SessionSeal;
  /** The admin group, applied to a session's groups as it is read. */
  readonly adminGroup: string;
}

/** The hook (onRequest, so that every later hook and route sees it) that sets `request.actor`. */
export function actorHook(sources: ActorSources) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (bearer) {
      try {
        request.actor = (await (await sources.verifier()).verify(bearer)).actor;
        request.signedInBy = "bearer";
      } catch (error) {
        if (!(error instanceof UnauthenticatedError)) throw error;
        request.refusal = error;
      }
      return;
    }
    const session = await sources.seal.open(request.cookies[sources.sessionCookie], "session");
    // A session sealed without an id (by a version before CSRF tokens were bound to one) is none.
    if (session && typeof session.owner === "string" && Array.isArray(session.groups) && session.jti) {
      const groups = session.groups.filter((g): g is string => typeof g === "string");
      request.actor = { owner: session.owner, groups, isAdmin: groups.includes(sources.adminGroup) };
      request.signedInBy = "session";
      request.sessionId = session.jti;
    }
  };
}

/** The request's person; UnauthenticatedError when it proved no one. */
export function requireActor(request: FastifyRequest): Actor {
  if (request.actor) return request.actor;
  throw request.refusal ?? new UnauthenticatedError("sign in first: this needs a session or a bearer ID token");
}

/**
 * What a CSRF token is bound to (@fastify/csrf-protection's `getUserInfo`, and the `userInfo` a
 * page's token is made with): the request's session. A request with no session binds to nothing,
 * and the library refuses every token there.
 */
export const csrfBinding = (request: FastifyRequest): string => request.sessionId ?? "";

/** `csrfProtection` for requests signed in by session cookie, the only ones a CSRF can forge; others pass. */
export function csrfForSessions(csrfProtection: onRequestHookHandler) {
  return function (
    this: FastifyInstance,
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    if (request.signedInBy === "session") csrfProtection.call(this, request, reply, done);
    else done();
  };
}
