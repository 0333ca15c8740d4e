/** What kubespaces makes of @kubernetes/client-node errors: their status code, and one line for people. */

/** The HTTP status of a client-node error, if it has one. */
export const statusCodeOf = (error: unknown): number | undefined => (error as { code?: number }).code;

/**
 * A client-node error in one line: the API server's own message and status code, without the
 * response headers and body dump client-node puts in its message.
 */
export function apiErrorText(error: unknown): string {
  const { code, body } = error as { code?: number; body?: unknown };
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  try {
    const status = (typeof body === "string" ? JSON.parse(body) : body) as { message?: string };
    if (status?.message) return `${status.message} (HTTP ${code})`;
  } catch {
    // not a Status object: fall through
  }
  return `the API server answered HTTP ${code}`;
}
