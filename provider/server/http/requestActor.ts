/**
 * Who a request comes from: the command sends its ID token as a bearer token, a browser its
 * sealed session cookie. A hook resolves the person before every route's handler, and
 * `requireActor` refuses a request that proved no one. A request signed in by cookie is what CSRF
 * can forge, so the routes that change things check its token (`signedInBy`).
 */
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Actor } from "../../tenants/ports";
import type { SessionSeal } from "../auth/sessionSeal";
import { UnauthenticatedError, type TokenVerifier } from "../auth/tokenVerifier";

declare module "fastify" {
  interface FastifyRequest {
    /** The person the request proves, if any. */
    actor?: Actor;
    /** How it proved them. */
    signedInBy?: "bearer" | "session";
    /** Why a bearer token it carried was refused. */
    refusal?: UnauthenticatedError;
  }
}

/** The session cookie's name. */
export const SESSION_COOKIE = "kubespaces_session";

/** What the hook proves people with. */
export interface ActorSources {
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
    const session = await sources.seal.open(request.cookies[SESSION_COOKIE], "session");
    if (session && typeof session.owner === "string" && Array.isArray(session.groups)) {
      const groups = session.groups.filter((g): g is string => typeof g === "string");
      request.actor = { owner: session.owner, groups, isAdmin: groups.includes(sources.adminGroup) };
      request.signedInBy = "session";
    }
  };
}

/** The request's person; UnauthenticatedError when it proved no one. */
export function requireActor(request: FastifyRequest): Actor {
  if (request.actor) return request.actor;
  throw request.refusal ?? new UnauthenticatedError("sign in first: this needs a session or a bearer ID token");
}
