/**
 * What a tenant command goes through, wherever the tenants are: the operations it runs
 * (TenantOperations, which the tenants service implements as it is and the server's client
 * implements over the API), who it acts as, its previews, and the abilities only some doors have
 * (owners named on the command line, a tenant's local endpoint, notes), which the commands ask for without knowing which door it is.
 */
import type { OwnerCapsBody } from "../contracts/tenantsApi";
import type { QuotaUsage } from "../tenantResource/tenantReplies";
import type { RevisionView } from "../tenantResource/platformRevisionStatus";
import type { ChangePlan } from "../tenants/tenantPlan";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { TenantView } from "../tenantResource/tenantReplies";
import type { Actor, StackUpdate } from "../tenants/ports";
import type { TenantEvent, TenantObject } from "../tenants/tenantObject";
import type { DeleteResult, OperationOptions } from "../tenants/tenantsService";
import { CliError, EXIT } from "./exitCodes";

/** A tenant as a command shows it: the service's, or the server's (whose phase may also be AwaitingApproval). */
export type ShownTenant = TenantObject | TenantView;

/** What a delete did: the service's result, or, through a server, only where it finished. */
export type DeleteOutcome = DeleteResult | { readonly deletedBy: string };

/** The operations the tenant commands run (the tenants service's, by name and meaning). */
export interface TenantOperations {
  /** Tenant `name` as `actor` may see it; TenantNotFoundError otherwise. */
  get(name: string, actor: Actor): Promise<ShownTenant>;
  /** The tenants `actor` owns or, with `all`, every tenant it may see. */
  list(actor: Actor, options?: { readonly all?: boolean }): Promise<ShownTenant[]>;
  /** The request as it will be made, checked as far as this side can; RequestInvalidError otherwise. */
  check(name: string, request: TenantRequestInput, actor: Actor): TenantRequestInput;
  /**
   * Creates tenant `name` (or resumes it, with no request) and follows it until it is Ready,
   * reporting through `options`; TenantFailedError with the reason when it fails.
   */
  create(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options?: OperationOptions,
  ): Promise<ShownTenant>;
  /** Deletes tenant `name` completely, reporting through `options`. */
  delete(name: string, actor: Actor, options?: OperationOptions): Promise<DeleteOutcome>;
  /** Tenant `name`'s updates, newest first, each with what it recorded (the request among it). */
  history(name: string, actor: Actor): Promise<StackUpdate[]>;
  /** Tenant `name`'s kubeconfig; TenantNotReadyError before it has one. */
  kubeconfig(name: string, actor: Actor): Promise<string>;
  /** Tenant `name`'s changes as they happen; ends once nothing is going to change it. */
  watch(name: string, actor: Actor, signal?: AbortSignal): AsyncIterable<TenantEvent>;
}

/** How a door follows a tenant: where each run's progress goes, and what stops the follow. */
export type FollowOptions = Pick<OperationOptions, "onEvent" | "signal">;

/** Previews on the tenants' stacks, where they run: what a create or delete would change, storing nothing. */
export interface TenantPreviews {
  /** What creating tenant `name` with `request` (or, with none, deleting it) would change. */
  preview(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options?: OperationOptions,
  ): Promise<ChangePlan>;
  /** The request stored for tenant `name`: what resuming it asks for. */
  storedRequest(name: string, actor: Actor): Promise<TenantRequestInput>;
}

/**
 * The door of the recorded login: the operations every door has, and the abilities only some have,
 * each absent where it means nothing (a command asks for the one it needs, `ability`).
 */
export interface TenantsDoor {
  /** The tenants. */
  readonly tenants: TenantOperations;
  /** Who the command acts as. */
  readonly actor: Actor;
  /**
   * Follows tenant `name` until `until` holds of it, and returns it as it then stands. `until` is
   * asked at each change the door sees: each event of a server's stream; each phase change of a run
   * of the command's own stacks, and, between runs, a look every few seconds (nothing tells the
   * command when another process starts one). Each run's progress goes to `options.onEvent`.
   * InterruptedError once `options.signal` aborts; TenantNotFoundError once the tenant is gone.
   */
  follow(name: string, until: (tenant: ShownTenant) => boolean, options: FollowOptions): Promise<ShownTenant>;
  /** What the first Ctrl-C during a create or delete does, for people. */
  readonly onInterrupt: string;
  /**
   * How tenant `tenant`'s stack lock is removed when no wait ends it, for people, added to the busy
   * error's message: for a door whose own error cannot say it. The local tenants service names the
   * `pulumi cancel` command itself where its backend needs one; the server's state is not the
   * command's to touch.
   */
  readonly onStuckLock?: (tenant: string) => string;
  /**
   * The asks of `--wait=false`, each returning the tenant as it then stands, following nothing.
   * Only a server has them: it goes on by itself, while the command's own stacks run only while
   * the command waits on them.
   */
  readonly asks?: {
    /** Asks for tenant `name` with `request`; none: its stored request goes on. */
    create(name: string, request: TenantRequestInput | undefined, actor: Actor): Promise<ShownTenant>;
    /** Asks for tenant `name`'s teardown. */
    delete(name: string): Promise<ShownTenant>;
  };
  /** The kubespaces server the tenants are on, in server mode. */
  readonly server?: string;
  /** Previews (`--preview`): run here on the command's own stacks, or by the server on its. */
  readonly previews: TenantPreviews;
  /** Whether a command may name a tenant's owner (`--owner`): not through a server, which takes your sign-in's. */
  readonly namesOwners?: true;
  /**
   * Tenant `name`'s API server URL as this machine reaches it, when the tenant's own URL does not
   * resolve here (the local test bed's loopback port for it); absent where it does.
   */
  readonly localEndpoint?: (name: string, hostNamespace: string) => string;
  /** A note for `tenant list` about tenants it cannot show (made in the command's old layout). */
  readonly listNote?: () => string | undefined;
  /** The PlatformRevisions and their fleet preview: the server's, for its admins; absent in local mode. */
  readonly fleet?: FleetReads;
  /**
   * Puts the request of the tenant's update `version` back as its request: a new generation, which
   * the server previews and holds for approval as any change. Only a server has it: the command's
   * own stacks keep a request that never changes.
   */
  readonly rollback?: (name: string, version: number) => Promise<ShownTenant>;
  /**
   * Puts the tenant to sleep (`asleep`) or wakes it: its request's `sleep` changes, a new
   * generation. Only a server has it, for the same reason as `rollback`.
   */
  readonly setSleep?: (name: string, asleep: boolean) => Promise<ShownTenant>;
  /**
   * Tenant `name`'s host quota, used against each ceiling; undefined while its namespace has none.
   * Through a server, its API; in local mode, the host's ResourceQuota with the host's credentials.
   */
  readonly quota: (name: string) => Promise<QuotaUsage | undefined>;
  /** What you hold across your tenants against the platform's caps per owner: a server's, which sets them. */
  readonly caps?: () => Promise<OwnerCapsBody>;
  /** Snapshots and restores, through a server: its store keeps them. */
  readonly snapshots?: {
    /** Asks for a snapshot of tenant `name`. */
    take(name: string): Promise<ShownTenant>;
    /** Asks for tenant `name` to be restored from `snapshot`. */
    restore(name: string, snapshot: string): Promise<ShownTenant>;
  };
}

/** The PlatformRevisions as the server's API answers them (its admins only). */
export interface FleetReads {
  /** Every revision, newest first. */
  revisions(): Promise<readonly RevisionView[]>;
  /** Revision `name`; a CliError (not found) when there is none. */
  revision(name: string): Promise<RevisionView>;
}

/**
 * `have`, the door's ability that `flag` needs, or a CliError when the tenants are on a server:
 * `flag` has no meaning there, and `why` says so.
 */
export function ability<T>(door: TenantsDoor, have: T | undefined, flag: string, why: string): T {
  if (have !== undefined) return have;
  throw new CliError(`${flag} is refused through the server ${door.server}: ${why}`, EXIT.invalid);
}
