/**
 * The browser's sign-in and sign-out: `/sign-in` sends it to the identity provider with a sealed
 * transaction cookie (PKCE verifier, state, nonce, where to return), `/auth/callback` proves the
 * answer and sets the sealed session cookie, `/sign-out` (a form with its CSRF token) clears it.
 * Cookies are HTTP-only, Secure and SameSite=Lax (Lax, so that the identity provider's redirect
 * back is a top-level navigation that carries the transaction cookie); their names are
 * serverCookies.ts'.
 */
import type { FastifyInstance, FastifyReply, onRequestHookHandler } from "fastify";
import { finishSignIn, startSignIn, type PortalClient, type SignInTransaction } from "../auth/browserSignIn";
import type { SessionSeal } from "../auth/sessionSeal";
import { CALLBACK_PATH } from "../auth/signInParts";
import { UnauthenticatedError, type TokenVerifier } from "../auth/tokenVerifier";
import { signInRefusedPage } from "../portal/messagePages";
import { PORTAL_PATHS } from "../portal/portalPaths";
import { audit, type AuditSink } from "../people/auditLog";
import { localPath } from "./localPath";
import { csrfForSessions } from "./requestActor";
import { COOKIE_OPTIONS, type ServerCookies } from "./serverCookies";

/** The paths of the browser's sign-in. */
const SIGN_IN_PATHS = {
  signIn: PORTAL_PATHS.signIn,
  callback: CALLBACK_PATH,
  signOut: PORTAL_PATHS.signOut,
} as const;

/** How long a sign-in may take at the identity provider. */
const TRANSACTION_SECONDS = 10 * 60;

/** What the sign-in routes run on. */
export interface SignInDeps {
  /** The portal's client and the token verifier (once the issuer was discovered). */
  readonly signIn: () => Promise<{ readonly client: PortalClient; readonly verifier: TokenVerifier }>;
  /** Seals the cookies. */
  readonly seal: SessionSeal;
  /** The cookies' names. */
  readonly cookies: ServerCookies;
  /** How long a session lasts at most. */
  readonly sessionSeconds: number;
  /** The URL people reach the server at: where a browser returns to is checked against it. */
  readonly publicUrl: () => URL;
  /** Where audit lines go. */
  readonly audit: AuditSink;
  /** The CSRF check of the sign-out form. */
  readonly csrfProtection: onRequestHookHandler;
}

/** The sign-in routes. */
export async function signInRoutes(app: FastifyInstance, deps: SignInDeps): Promise<void> {
  const { cookies } = deps;
  app.get<{ Querystring: { returnTo?: string } }>(SIGN_IN_PATHS.signIn, async (request, reply) => {
    const { client } = await deps.signIn();
    const returnTo = localPath(request.query.returnTo, deps.publicUrl());
    const { url, transaction } = await startSignIn(client, returnTo);
    const expiresAt = nowSeconds() + TRANSACTION_SECONDS;
    const sealed = await deps.seal.seal({ ...transaction }, "sign-in", expiresAt);
    reply.setCookie(cookies.signIn, sealed, { ...COOKIE_OPTIONS, maxAge: TRANSACTION_SECONDS });
    return reply.redirect(url.href, 303);
  });

  app.get(SIGN_IN_PATHS.callback, async (request, reply) => {
    const transaction = transactionOf(await deps.seal.open(request.cookies[cookies.signIn], "sign-in"));
    reply.clearCookie(cookies.signIn, COOKIE_OPTIONS);
    if (!transaction) return refuse(reply, "the sign-in expired or was started elsewhere; start it again");
    // Checked again (a transaction may have been sealed by an older version), and before the
    // code is traded: nothing after the trade may fail on where the browser goes.
    const returnTo = localPath(transaction.returnTo, deps.publicUrl());
    const { client, verifier } = await deps.signIn();
    try {
      const { actor, expiresAt } = await finishSignIn(client, verifier, callbackUrl(client, request.url), transaction);
      const until = Math.min(expiresAt, nowSeconds() + deps.sessionSeconds);
      const session = await deps.seal.seal({ owner: actor.owner, groups: [...actor.groups] }, "session", until);
      reply.setCookie(cookies.session, session, { ...COOKIE_OPTIONS, maxAge: until - nowSeconds() });
      audit(deps.audit, { actor: actor.owner, action: "sign-in", outcome: "ok" });
      return reply.redirect(returnTo, 303);
    } catch (error) {
      if (!(error instanceof UnauthenticatedError)) throw error;
      audit(deps.audit, { actor: "anonymous", action: "sign-in", outcome: "refused" });
      return refuse(reply, error.message);
    }
  });

  // Only a session needs the token: without one there is nothing to sign out of, and nothing to forge.
  app.post(SIGN_IN_PATHS.signOut, { preHandler: csrfForSessions(deps.csrfProtection) }, async (request, reply) => {
    reply.clearCookie(cookies.session, COOKIE_OPTIONS);
    audit(deps.audit, { actor: request.actor?.owner ?? "anonymous", action: "sign-out", outcome: "ok" });
    return reply.redirect("/", 303);
  });
}

/** The sign-in transaction a sealed cookie held, if it holds one. */
function transactionOf(payload: Record<string, unknown> | undefined): SignInTransaction | undefined {
  const fields = ["verifier", "state", "nonce", "returnTo"] as const;
  if (!payload || !fields.every((field) => typeof payload[field] === "string")) return undefined;
  const [verifier, state, nonce, returnTo] = fields.map((field) => payload[field] as string);
  return { verifier, state, nonce, returnTo };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The callback as the identity provider sent the browser to it: the registered redirect URI with
 * the request's query (code, state, ...). Never the request line's own scheme and host: an
 * absolute-form request target (`GET http://evil.example/auth/callback`) is routed by its path,
 * and openid-client trades the code with the URL it is given as the redirect URI.
 */
function callbackUrl(client: PortalClient, requestUrl: string): URL {
  const url = new URL(client.redirectUri);
  url.search = new URL(requestUrl, url).search;
  return url;
}

/** A refused sign-in: the portal's page that says why and links to a new one. */
function refuse(reply: FastifyReply, why: string): FastifyReply {
  return reply.code(401).type("text/html; charset=utf-8").send(signInRefusedPage(why));
}
