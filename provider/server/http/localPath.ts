/**
 * The one check of a path the server sends a browser to when someone else named it (the
 * sign-in's `returnTo`): it must be a path of the portal's own origin. A browser resolves a
 * redirect with the WHATWG URL parser, which drops tabs and newlines anywhere and reads `\` as
 * `/`, so `/\t/evil.example` is `//evil.example` to it: a prefix test cannot see that. The path is
 * resolved the same way here and kept only when it stays on the portal's origin; control
 * characters and backslashes are refused before that, and anything refused becomes `/`. What
 * comes out is the parser's serialization, so it is also always a valid header value.
 */

/** Where a refused path goes instead: the portal's tenant list. */
const HOME = "/";

/**
 * The longest path kept: the sign-in seals it into a cookie, and a cookie over 4096 bytes may be
 * dropped by the browser (RFC 6265 6.1), which would break the sign-in a long link started.
 */
const MAX_LENGTH = 2048;

/** Control characters (C0, DEL, C1) and the backslash: what a browser strips or rewrites before it follows a URL. */
const REWRITTEN_BY_BROWSERS = /[\p{Cc}\\]/u;

/**
 * `given` as a path of `origin` for a redirect (path, query and fragment), or `/` when it is not
 * one: not a string, not starting with a single `/`, holding a control character or a backslash,
 * resolving to another origin, or longer than 2048 characters once resolved.
 */
export function localPath(given: unknown, origin: URL): string {
  if (typeof given !== "string" || !given.startsWith("/") || REWRITTEN_BY_BROWSERS.test(given)) return HOME;
  let resolved: URL;
  try {
    resolved = new URL(given, origin.origin);
  } catch {
    return HOME;
  }
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return resolved.origin === origin.origin && path.length <= MAX_LENGTH ? path : HOME;
}
