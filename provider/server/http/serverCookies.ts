/**
 * The cookies the server sets in a browser: the session, the sign-in under way and the CSRF
 * secret, their names and their options, written once.
 *
 * When people reach the portal over https, every name carries the `__Host-` prefix: a browser then
 * accepts the cookie only from a secure origin, with `Secure`, `Path=/` and no `Domain`, so a
 * sibling subdomain or a plain-http page of the same host cannot plant or shadow it. On plain http
 * (the local default on the loopback) the names have no prefix: browsers differ on whether
 * http://127.0.0.1 may set a `__Host-` cookie at all, and the prefix would promise nothing there
 * (cookies are not kept apart by port, so any local program can set them).
 */

/** The options of every cookie the server sets: HTTP-only, Secure, SameSite=Lax, the whole site, no Domain. */
export const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: "lax", path: "/" } as const;

/** The names of the server's cookies. */
export interface ServerCookies {
  /** The sealed session. */
  readonly session: string;
  /** The sealed sign-in transaction, until the identity provider sends the browser back. */
  readonly signIn: string;
  /** The CSRF secret (@fastify/csrf-protection's `cookieKey`), signed. */
  readonly csrf: string;
}

/** The prefix that holds a cookie to its host and to https. */
const HOST_PREFIX = "__Host-";

/** The cookies' names for a portal reached over https (`https`) or over plain http. */
export function serverCookies(https: boolean): ServerCookies {
  const prefix = https ? HOST_PREFIX : "";
  return {
    session: `${prefix}kubespaces_session`,
    signIn: `${prefix}kubespaces_sign_in`,
    csrf: `${prefix}kubespaces_csrf`,
  };
}
