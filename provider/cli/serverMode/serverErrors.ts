/**
 * The server's error answers (`{error: {kind, message, problems}}`, contracts/tenantsApi.ts) turned
 * back into the tenants service's error classes, so that runCli maps them to the same exit codes as
 * in local mode; the HTTP door's own kinds become CliErrors that say what to do. The server's
 * message is kept as it is: it was written for people, and the server never puts a token in it.
 */
import { API_ERROR_KINDS, type ApiErrorBody, type ApiErrorKind } from "../../contracts/tenantsApi";
import {
  HostUnavailableError,
  InterruptedError,
  OperationRefusedError,
  RequestConflictError,
  RequestInvalidError,
  StackBusyError,
  TenantFailedError,
  TenantNotFoundError,
  TenantNotReadyError,
  type TenantsError,
} from "../../tenants/tenantsErrors";
import { CliError, EXIT } from "../exitCodes";

/** What an error answer is about. */
export interface AnswerContext {
  /** The kubespaces server that answered. */
  readonly server: string;
  /** The tenant the request named, if any. */
  readonly tenant?: string;
}

/** The error of an answer with HTTP `status` and body `text` (an ApiErrorBody, or anything a proxy put there). */
export function errorOfAnswer(status: number, text: string, context: AnswerContext): Error {
  const body = apiErrorBody(text);
  const kind = body?.error.kind ?? kindOfStatus(status);
  const message = body?.error.message ?? `the server ${context.server} answered HTTP ${status}`;
  return errorOfKind(kind, message, body?.error.problems ?? [], context);
}

/** The error body in `text`, when it is one. */
function apiErrorBody(text: string): ApiErrorBody | undefined {
  try {
    const body = JSON.parse(text) as Partial<ApiErrorBody>;
    const error = body?.error;
    if (error && typeof error.message === "string" && (API_ERROR_KINDS as readonly string[]).includes(error.kind))
      return body as ApiErrorBody;
  } catch {
    // not JSON: a proxy's page, say
  }
  return undefined;
}

/** The kind an answer without an error body means, by its status. */
function kindOfStatus(status: number): ApiErrorKind {
  if (status === 401) return "unauthenticated";
  if (status === 404) return "notFound";
  if (status === 429) return "rateLimited";
  return status === 400 || status === 422 ? "invalid" : "internal";
}

/** The error of one kind. */
function errorOfKind(kind: ApiErrorKind, message: string, problems: readonly string[], context: AnswerContext): Error {
  const tenant = context.tenant ?? "";
  switch (kind) {
    case "invalid":
      return new RequestInvalidError(message, problems);
    case "conflict":
      return new RequestConflictError(message);
    case "refused":
      return new OperationRefusedError(message);
    case "hostUnavailable":
      return new HostUnavailableError(message);
    case "interrupted":
      return new InterruptedError(tenant, message);
    // These classes compose their own message from fields the answer does not carry: the server's is kept.
    case "notFound":
      return withMessage(new TenantNotFoundError(tenant), message);
    case "notReady":
      return withMessage(new TenantNotReadyError(tenant, "Pending", message), message);
    case "failed":
      return withMessage(new TenantFailedError(tenant, "ProvisioningFailed", message), message);
    case "busy":
      return withMessage(new StackBusyError(tenant, 0, ""), message);
    case "unauthenticated":
      return new CliError(
        `the server ${context.server} does not accept your sign-in (${message}): run \`kubespaces login --server ${context.server}\` again`,
        EXIT.error,
      );
    case "rateLimited":
      return new CliError(`the server ${context.server} refused: ${message}; try again in a minute`, EXIT.error);
    case "overloaded":
      return new CliError(`the server ${context.server} is busy: ${message}`, EXIT.error);
    case "csrf":
    case "internal":
      return new CliError(`the server ${context.server} failed: ${message}`, EXIT.error);
  }
}

/** `error`, its message replaced by the server's. */
function withMessage<E extends TenantsError>(error: E, message: string): E {
  error.message = message;
  return error;
}
