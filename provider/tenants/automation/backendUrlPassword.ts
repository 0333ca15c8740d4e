/**
 * The passwords a Pulumi state backend URL may hold, found and left out. A PostgreSQL backend's
 * URL is read by the engine and the `pg` client as libpq reads it: a password is taken from its
 * user info (`postgres://user:secret@host/db`) and from a `password` query parameter
 * (`?password=secret`). Both forms are found here, once, so that the server's installation refuses
 * either (its URL is in the Deployment for whoever may read it) and every place that prints a
 * backend URL (a `pulumi cancel` hint in a Tenant's status, a login's settings, an error) shows it
 * with each password replaced.
 */

/** What a password that is left out is shown as. */
export const PASSWORD_SHOWN_AS = "PASSWORD";

/**
 * A URL's authority and query (RFC 3986, appendix B), with their places. It matches every string,
 * so a URL no parser takes (one the WHATWG parser refuses, say) is searched all the same.
 */
const URL_PARTS = /^(?:[^:/?#]+:)?(?:\/\/(?<authority>[^/?#]*))?[^?#]*(?:\?(?<query>[^#]*))?/d;

/** A place in the URL's text: from `start` up to, not including, `end`. */
type Span = readonly [start: number, end: number];

/** Whether backend URL `url` holds a password: in its user info, or as a `password` query parameter. */
export function hasBackendPassword(url: string): boolean {
  return passwordSpans(url).length > 0;
}

/** Backend URL `url` to print: each password it holds replaced by PASSWORD, the rest as written. */
export function redactedBackendUrl(url: string): string {
  return passwordSpans(url).reduceRight(
    (shown, [start, end]) => `${shown.slice(0, start)}${PASSWORD_SHOWN_AS}${shown.slice(end)}`,
    url,
  );
}

/** Where the passwords of `url` are, in order. */
function passwordSpans(url: string): Span[] {
  const { authority, query } = URL_PARTS.exec(url)?.indices?.groups ?? {};
  return [...userInfoPassword(url, authority), ...queryPasswords(url, query)];
}

/**
 * The password of the user info (`user:password@`) of the authority at `authority`. The user info
 * ends at the authority's last `@`, as the WHATWG and Go parsers read it; an empty password is none.
 */
function userInfoPassword(url: string, authority: Span | undefined): Span[] {
  if (!authority) return [];
  const [start, end] = authority;
  const at = url.lastIndexOf("@", end - 1);
  const colon = url.indexOf(":", start);
  return at >= start && colon >= 0 && colon + 1 < at ? [[colon + 1, at]] : [];
}

/** The values of the `password` parameters of the query at `query`; an empty value is none. */
function queryPasswords(url: string, query: Span | undefined): Span[] {
  if (!query) return [];
  const spans: Span[] = [];
  let start = query[0];
  for (const parameter of url.slice(...query).split("&")) {
    const equals = parameter.indexOf("=");
    if (equals > 0 && equals + 1 < parameter.length && isPasswordName(parameter.slice(0, equals)))
      spans.push([start + equals + 1, start + parameter.length]);
    start += parameter.length + 1;
  }
  return spans;
}

/**
 * Whether a query parameter's name, as written, is `password`: decoded as the clients decode it
 * (`pass%77ord` is `password`), and in any case: libpq and `pg` match the name exactly, but a
 * reader that does not would take `Password` as the password too.
 */
function isPasswordName(written: string): boolean {
  let name = written.replaceAll("+", " ");
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: the clients keep such a name as written.
  }
  return name.toLowerCase() === "password";
}
