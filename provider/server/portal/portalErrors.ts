/**
 * What a portal page answers when a route fails: one mapping from the tenants service's error
 * kinds (and the HTTP layer's own refusals: CSRF, rate limit, an unreadable request) to a status
 * and a message for people. Tenant not found has its own page (messagePages.ts); anything not
 * listed is a bug or a failure of the server, answered 500 without its details.
 */
import { TenantsError, type TenantsErrorKind } from "../../tenants/tenantsErrors";

/** A failed request's answer. */
export interface ErrorAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The page's title. */
  readonly title: string;
  /** What was refused or went wrong, and what to do. */
  readonly message: string;
  /** Whether the server's log should have the error (a failure, not a refusal). */
  readonly logged: boolean;
}

/** The status and title of each of the service's kinds; their messages are the service's, written for people. */
const SERVICE_ANSWERS: Readonly<Record<TenantsErrorKind, { readonly status: number; readonly title: string }>> = {
  invalid: { status: 400, title: "Request refused" },
  conflict: { status: 409, title: "Request refused" },
  refused: { status: 403, title: "Not allowed" },
  notFound: { status: 404, title: "Tenant not found" },
  notReady: { status: 409, title: "Tenant not Ready" },
  failed: { status: 409, title: "Tenant failed" },
  busy: { status: 503, title: "Tenant busy" },
  hostUnavailable: { status: 503, title: "Host cluster unavailable" },
  interrupted: { status: 503, title: "Interrupted" },
};

const CSRF_MESSAGE =
  "The form could not be checked as coming from this portal (its security token is missing or out of date), so nothing was changed. Go back, reload the page and send the form again.";

/** The answer to `error`, thrown by a portal route. */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof TenantsError) return { ...SERVICE_ANSWERS[error.kind], message: error.message, logged: false };
  const { code, statusCode } = (error ?? {}) as { readonly code?: unknown; readonly statusCode?: unknown };
  if (typeof code === "string" && code.startsWith("FST_CSRF_"))
    return { status: 403, title: "Form expired", message: CSRF_MESSAGE, logged: false };
  if (statusCode === 429)
    return {
      status: 429,
      title: "Too many requests",
      message: "You sent too many requests in a short time, so this one was not done. Wait a minute, then try again.",
      logged: false,
    };
  if (typeof statusCode === "number" && statusCode >= 400 && statusCode < 500)
    return { status: statusCode, title: "Request refused", message: "The request could not be read.", logged: false };
  return {
    status: 500,
    title: "Something went wrong",
    message: "The server could not answer this request; try again. The server's log has the details.",
    logged: true,
  };
}
