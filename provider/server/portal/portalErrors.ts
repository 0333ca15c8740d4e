/**
 * What a portal page answers when a route fails. The status and the kind come from the server's
 * one mapping of errors (http/httpErrors.ts), so a page and the API answer the same failure with
 * the same status; this adds what a person reads: a title, and for the HTTP layer's own refusals
 * (CSRF, rate limit, an unreadable request) and for failures, words of the portal's. The tenants
 * service's messages are shown as they are. Tenant not found has its own page (messagePages.ts).
 */
import type { ApiErrorKind } from "../../contracts/tenantsApi";
import { TenantsError } from "../../tenants/tenantsErrors";
import { errorAnswer as httpAnswer } from "../http/httpErrors";

/** A failed request's answer. */
export interface ErrorAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The headers beside the status (Retry-After, when the error says when to try again). */
  readonly headers: Readonly<Record<string, string>>;
  /** The page's title. */
  readonly title: string;
  /** What was refused or went wrong, and what to do. */
  readonly message: string;
  /** Whether the server's log should have the error (a failure, not a refusal). */
  readonly logged: boolean;
}

/** The page's title for each kind. */
const TITLES: Readonly<Record<ApiErrorKind, string>> = {
  invalid: "Request refused",
  conflict: "Request refused",
  refused: "Not allowed",
  notFound: "Tenant not found",
  notReady: "Tenant not Ready",
  failed: "Tenant failed",
  busy: "Tenant busy",
  hostUnavailable: "Host cluster unavailable",
  interrupted: "Interrupted",
  unauthenticated: "Sign in again",
  csrf: "Form expired",
  rateLimited: "Too many requests",
  overloaded: "Server busy",
  internal: "Something went wrong",
};

/** The portal's own words for what is not the tenants service's refusal. */
const PORTAL_MESSAGES: Partial<Readonly<Record<ApiErrorKind, string>>> = {
  csrf: "The form could not be checked as coming from this portal (its security token is missing or out of date), so nothing was changed. Go back, reload the page and send the form again.",
  rateLimited: "You sent too many requests in a short time, so this one was not done. Wait a minute, then try again.",
  invalid: "The request could not be read.",
  internal: "The server could not answer this request; try again. The server's log has the details.",
};

/** The answer to `error`, thrown by a portal route. */
export function errorAnswer(error: unknown): ErrorAnswer {
  const { status, headers, body } = httpAnswer(error);
  const { kind, message } = body.error;
  const words = error instanceof TenantsError ? message : (PORTAL_MESSAGES[kind] ?? message);
  return { status, headers, title: TITLES[kind], message: words, logged: kind === "internal" };
}
