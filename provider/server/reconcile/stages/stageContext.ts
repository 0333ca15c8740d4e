/**
 * What every stage of a reconcile is given (the tenants service, the Tenant resources, the
 * server's configuration and its clock), the types the reconciler's callers see, and the few facts
 * about a Tenant that several stages read.
 */
import { isProvisionedPhase } from "../../../tenants/tenantObject";
import type { Actor } from "../../../tenants/ports";
import { TenantsError } from "../../../tenants/tenantsErrors";
import type { TenantsService } from "../../../tenants/tenantsService";
import type { OwnerCaps } from "../../../tenants/ownerCaps";
import type { TenantPlatformInput } from "../../../model/tenantPlatformSchema";
import { apiErrorText } from "../../../util/kubeClientErrors";
import type { TenantResource, TenantResources } from "../../tenantResourcePort";
import type { FleetPort } from "../../revisions/replicaFleet";
import type { SnapshotStore } from "../../snapshots/snapshotStore";
import type { VclusterSnapshots } from "../../snapshots/vclusterSnapshots";
import type { TenantEvents } from "../tenantEvents";

/** How the reconciler works, as the server's configuration sets it. */
export interface ReconcilerConfig {
  /** Who the server acts as in the service: the platform's admin (admission already checked the owner). */
  readonly actor: Actor;
  /** Whether a changed Tenant waits, previewed, until an admin approves its generation and spec. */
  readonly requireApproval: boolean;
  /** Where the Events of `kubectl describe tenant` are recorded (none: no Events). */
  readonly events?: TenantEvents;
  /** The service's notes on a tenant's run (a wait for its stack's lock, a dead update's lock removed). */
  readonly onNote?: (tenant: string, line: string) => void;
  /** Told how each resync of a Ready tenant ended (ResyncOutcome). */
  readonly onResync?: (outcome: ResyncOutcome) => void;
  /** The fleet: the platform revision a tenant runs with, is to be previewed on, or brought up on (replicaFleet.ts). */
  readonly fleet?: FleetPort;
  /** The server's own policy, for what a tenant's run does not read (how long before its expiry it is warned). */
  readonly policy?: TenantPlatformInput;
  /** The caps per owner a new generation is held to (tenants/ownerCaps.ts); none: no cap. */
  readonly caps?: OwnerCaps;
  /** Where snapshots are kept, and vCluster's snapshot and restore; none: the asks are answered with a refusal. */
  readonly snapshots?: {
    readonly store: Pick<SnapshotStore, "objectOf" | "exists">;
    readonly vcluster: VclusterSnapshots;
  };
}

/**
 * How a resync of a Ready tenant ended: its preview after a refresh planned nothing (clean: no
 * update ran), planned a change (drifted), or failed (unknown: the update ran to tell).
 */
export type ResyncOutcome = "clean" | "drifted" | "unknown";

/** What one reconcile asks of the queue. */
export interface ReconcileResult {
  /** Whether to try again later (with backoff): a failure that may pass. */
  readonly retry: boolean;
  /** When to reconcile the tenant again whatever happens before (epoch ms): its expiry's warning, or the expiry. */
  readonly revisitAt?: number;
}

/** How one reconcile runs. */
export interface ReconcileOptions {
  /**
   * A resync (the periodic one, or a change the drift watch saw): a tenant Ready at its generation
   * is previewed after a refresh of the host's objects, and brought up (after a refresh) only when
   * that plans a change. A tenant with nothing to put back costs no update.
   */
  readonly resync?: boolean;
  /** Stops the reconcile (the server is stopping or lost the lead). */
  readonly signal?: AbortSignal;
}

/**
 * What the stages may ask of the tenants service: to read, preview and tear down. Bringing a
 * stack up (create, putBack) is not among it: the provisioning stage alone is handed that.
 */
export type StageService = Pick<TenantsService, "get" | "preview" | "delete" | "kubeconfig" | "runningRequest">;

/** What the provisioning stage alone may ask of the tenants service: to bring a stack up. */
export type StackBringUp = Pick<TenantsService, "create" | "putBack">;

/** What every stage is given. */
export interface StageContext {
  /** The tenants service, without its bring-ups. */
  readonly service: StageService;
  /** The Tenant resources on the host. */
  readonly resources: TenantResources;
  /** The server's configuration of the reconciler. */
  readonly config: ReconcilerConfig;
  /** The clock. */
  readonly now: () => Date;
}

/** A reconcile that asks for nothing more. */
export const DONE: ReconcileResult = { retry: false };

/** Where the service's notes on tenant `name`'s run go. */
export const noteOf =
  (context: StageContext, name: string) =>
  (line: string): void =>
    context.config.onNote?.(name, line);

/** Whether the tenant is as its current generation asks (Ready, or Sleeping). */
export const isProvisioned = (tenant: TenantResource): boolean =>
  isProvisionedPhase(tenant.status?.phase) && tenant.status?.observedGeneration === tenant.metadata.generation;

/** Whether the Tenant is gone or going, or the reconcile was stopped: a later stage then does nothing. */
export const isGoneOrStopped = (tenant: TenantResource | undefined, options: ReconcileOptions): boolean =>
  !tenant || tenant.metadata.deletionTimestamp !== undefined || options.signal?.aborted === true;

/** An error's text: the service's own message, or the API server's. */
export const errorMessage = (error: unknown): string =>
  error instanceof TenantsError ? error.message : apiErrorText(error);
