/**
 * The tenants service's errors: one class per kind, so that each front end maps them once (the
 * command to exit codes, the server to HTTP statuses). Messages say what happened and what to do
 * in words that fit every door; they never carry a flag, a kubeconfig or a token.
 */
import type { InputProblem } from "../model/validationError";
import type { ReadyReason, TenantPhase } from "./tenantObject";

/** The kinds a front end maps. */
export type TenantsErrorKind =
  "invalid" | "conflict" | "notFound" | "notReady" | "failed" | "busy" | "hostUnavailable" | "interrupted" | "refused";

/** An error the service expects and explains; anything else is a bug or an engine failure. */
export abstract class TenantsError extends Error {
  /** What kind of error it is, for the front end's one mapping. */
  abstract readonly kind: TenantsErrorKind;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request broke a rule; nothing was stored or run. */
export class RequestInvalidError extends TenantsError {
  readonly kind = "invalid";
  /**
   * @param message the whole explanation (the component's text for a request).
   * @param problems each broken rule, naming its field.
   * @param inputProblems the same rules as the component's checks found them (path, rule, and the
   *   values of a bound), when they did: for a door that words them for its own fields.
   */
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
    readonly inputProblems: readonly InputProblem[] = [],
  ) {
    super(message);
  }
}

/** The tenant is already requested with another request; nothing was changed. */
export class RequestConflictError extends TenantsError {
  readonly kind = "conflict";
}

/**
 * The stored request is no longer the one the caller checked (it changed, or is gone, since the
 * caller read its generation); nothing was run.
 */
export class RequestChangedError extends TenantsError {
  readonly kind = "conflict";
  constructor(
    readonly tenant: string,
    readonly checkedGeneration: number,
    readonly storedGeneration: number | undefined,
  ) {
    super(
      `tenant ${tenant}'s request changed since generation ${checkedGeneration} was checked (${storedGeneration === undefined ? "it is gone" : `it is at generation ${storedGeneration}`}); nothing was run`,
    );
  }
}

/** No tenant of that name that the actor may see. */
export class TenantNotFoundError extends TenantsError {
  readonly kind = "notFound";
  constructor(readonly tenant: string) {
    super(`tenant ${tenant} not found`);
  }
}

/** The tenant exists, but what was asked for needs it Ready. */
export class TenantNotReadyError extends TenantsError {
  readonly kind = "notReady";
  constructor(
    readonly tenant: string,
    readonly phase: TenantPhase,
    detail: string,
  ) {
    super(`tenant ${tenant} is ${phase}, not Ready: ${detail}`);
  }
}

/** The tenant failed to become ready; the reason is the operator's word, the message the engine's. */
export class TenantFailedError extends TenantsError {
  readonly kind = "failed";
  constructor(
    readonly tenant: string,
    readonly reason: ReadyReason,
    readonly detail: string,
  ) {
    super(`tenant ${tenant} failed (${reason}): ${detail}`);
  }
}

/** Another update of the tenant's stack held its lock for longer than the caller would wait. */
export class StackBusyError extends TenantsError {
  readonly kind = "busy";
  /**
   * @param holders the lock's holders, for people.
   * @param recovery how to remove the lock by hand, when this door cannot tell whether its holder is gone.
   */
  constructor(
    readonly tenant: string,
    readonly waitedMs: number,
    holders: string,
    recovery?: string,
  ) {
    super(
      `tenant ${tenant}'s stack is still locked by another update after ${Math.round(waitedMs / 1000)}s (${holders}); try again later${recovery ? `, or ${recovery}` : ""}`,
    );
  }
}

/** The host cluster (or what reaches it) is not there. */
export class HostUnavailableError extends TenantsError {
  readonly kind = "hostUnavailable";
}

/** The caller's signal stopped the operation; what was stored is kept. */
export class InterruptedError extends TenantsError {
  readonly kind = "interrupted";
  constructor(
    readonly tenant: string,
    message: string,
  ) {
    super(message);
  }
}

/** The operation would touch what this door did not make, or what the actor may not change. */
export class OperationRefusedError extends TenantsError {
  readonly kind = "refused";
}
