/**
 * The one mapping from errors to HTTP answers: the tenants service's kinds, the sign-in's, the
 * replica's own (no place for a preview), and Fastify's (a body that is not JSON, a missing CSRF
 * token, too many creates). Everything else is a 500 whose answer says nothing of what broke; the
 * server's log has it.
 */
import type { FastifyError } from "fastify";
import type { ApiErrorBody, ApiErrorKind } from "../../contracts/tenantsApi";
import { RequestInvalidError, TenantsError } from "../../tenants/tenantsErrors";
import { UnauthenticatedError } from "../auth/tokenVerifier";
import { PreviewsBusyError } from "../people/previewPool";

/** The status of each kind. */
const STATUS_OF_KIND: Readonly<Record<ApiErrorKind, number>> = {
  invalid: 400,
  conflict: 409,
  refused: 403,
  notFound: 404,
  notReady: 409,
  failed: 409,
  busy: 409,
  hostUnavailable: 503,
  interrupted: 503,
  unauthenticated: 401,
  csrf: 403,
  rateLimited: 429,
  overloaded: 503,
  internal: 500,
};

/** An error the HTTP front raises itself, of one kind. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
  ) {
    super(message);
  }
}

/** The answer to an error. */
export interface ErrorReply {
  /** The HTTP status. */
  readonly status: number;
  /** The headers beside the status: Retry-After when the error says when to try again. */
  readonly headers: Readonly<Record<string, string>>;
  /** The error body. */
  readonly body: ApiErrorBody;
}

/** The status, headers and body that answer `error`. */
export function errorAnswer(error: unknown): ErrorReply {
  const { kind, message, problems } = describe(error);
  return {
    status: STATUS_OF_KIND[kind],
    headers: error instanceof PreviewsBusyError ? { "retry-after": String(error.retryAfterSeconds) } : {},
    body: { error: { kind, message, ...(problems && { problems }) } },
  };
}

/** Whether `error` is one the server did not foresee (it is logged; its answer is a bare 500). */
export const isUnforeseen = (error: unknown): boolean => describe(error).kind === "internal";

function describe(error: unknown): { kind: ApiErrorKind; message: string; problems?: readonly string[] } {
  if (error instanceof RequestInvalidError)
    return { kind: "invalid", message: error.message, problems: error.problems };
  if (
    error instanceof TenantsError ||
    error instanceof ApiError ||
    error instanceof UnauthenticatedError ||
    error instanceof PreviewsBusyError
  )
    return { kind: error.kind, message: error.message };
  const fastify = error as Partial<FastifyError>;
  // Only Fastify's codes are text: @kubernetes/client-node's errors carry the HTTP status as `code`.
  if (typeof fastify.code === "string" && fastify.code.startsWith("FST_CSRF_"))
    return { kind: "csrf", message: "the request carries no valid CSRF token; reload the page and try again" };
  if (fastify.statusCode === 429) return { kind: "rateLimited", message: fastify.message ?? "too many requests" };
  if (fastify.statusCode !== undefined && fastify.statusCode >= 400 && fastify.statusCode < 500)
    return { kind: "invalid", message: fastify.message ?? "the request is not valid" };
  return { kind: "internal", message: "the server failed; its log says why" };
}
