/**
 * A tenant as every self-service door returns it: the `kubespaces.io/v1alpha1` Tenant with the
 * team's request as its spec and a status that mirrors the KubeSpaces operator's (phase, a Ready
 * condition with a reason, message, endpoints, observed generation). Front ends print or serve it;
 * none of them computes it.
 */
import type { TENANT_MANIFEST } from "../contracts/tenantManifest";
import type { TenantRequestInput } from "../model/tenantRequestSchema";

/** The phases a tenant's status takes, as the operator names them. */
export const TENANT_PHASES = ["Pending", "Provisioning", "Ready", "Sleeping", "Failed", "Deleting"] as const;
/** One of them. */
export type TenantPhase = (typeof TENANT_PHASES)[number];

/** The phases a finished create leaves a tenant in: as its request asks, running or asleep. */
export const PROVISIONED_PHASES: readonly TenantPhase[] = ["Ready", "Sleeping"];

/** Whether `phase` is one a finished create leaves (Ready, or Sleeping). */
export const isProvisionedPhase = (phase: string | undefined): boolean =>
  PROVISIONED_PHASES.includes(phase as TenantPhase);

/**
 * Whether a tenant's latest request has settled: its status speaks of its current generation (when
 * it says which) and is Ready, Sleeping or Failed. A Ready status of the generation before a change
 * has not settled: the change is still to come.
 */
export function isSettled(tenant: {
  readonly metadata: { readonly generation: number };
  readonly status: { readonly phase: string; readonly observedGeneration?: number };
}): boolean {
  const { phase, observedGeneration } = tenant.status;
  const current = observedGeneration === undefined || observedGeneration >= tenant.metadata.generation;
  return current && (isProvisionedPhase(phase) || phase === "Failed");
}

/**
 * Why the Ready condition is what it is: the operator's reasons. `InvalidRequest`: the request
 * broke a rule; `QuotaFailed` and `NetworkingFailed`: the quota or the network fence could not be
 * put in place; `ProvisioningFailed`: anything else failed; `Interrupted`: the last run stopped
 * before it finished; `Deleting`: a teardown runs or stopped half way; `Sleeping`: the tenant was
 * put to sleep as its request asks (its Ready condition is False, and nothing failed).
 */
export type ReadyReason =
  | "Pending"
  | "Provisioning"
  | "Provisioned"
  | "InvalidRequest"
  | "QuotaFailed"
  | "NetworkingFailed"
  | "ProvisioningFailed"
  | "Interrupted"
  | "Deleting"
  | "Sleeping";

/** The standard `Ready` condition (metav1.Condition's fields). */
export interface ReadyCondition {
  /** Always `Ready`. */
  readonly type: "Ready";
  /** `True` once the virtual cluster answered; `False` when it failed, sleeps or is being removed; `Unknown` while it is on its way. */
  readonly status: "True" | "False" | "Unknown";
  /** One word, CamelCase, for machines. */
  readonly reason: ReadyReason;
  /** For people: what happened and, when it failed, what to do. */
  readonly message: string;
  /** When the condition last changed (RFC 3339), when known. */
  readonly lastTransitionTime?: string;
  /** The generation of the request the condition speaks of. */
  readonly observedGeneration: number;
}

/** The tenant's status. */
export interface TenantStatus {
  /** The phase. */
  readonly phase: TenantPhase;
  /** The Ready condition (the only one so far). */
  readonly conditions: readonly ReadyCondition[];
  /** The Ready condition's message, repeated for people and tables. */
  readonly message: string;
  /** The API server URL, once the tenant was provisioned. */
  readonly apiServerUrl?: string;
  /** The apps domain, when the tenant is exposed. */
  readonly appsDomain?: string;
  /** The host namespace, once the tenant was provisioned. */
  readonly namespace?: string;
  /** The generation of the request the last finished run provisioned. */
  readonly observedGeneration?: number;
}

/** A tenant: the request and its status. */
export interface TenantObject {
  /** The Tenant manifest's apiVersion. */
  readonly apiVersion: typeof TENANT_MANIFEST.apiVersion;
  /** The Tenant manifest's kind. */
  readonly kind: typeof TENANT_MANIFEST.kind;
  /** The name and the request's generation. */
  readonly metadata: {
    /** The tenant's name. */
    readonly name: string;
    /** Bumped each time the request changes. */
    readonly generation: number;
    /** When the request was first stored (RFC 3339), when known. */
    readonly creationTimestamp?: string;
  };
  /** The team's request, as stored. */
  readonly spec: TenantRequestInput;
  /** What the doors know of it now. */
  readonly status: TenantStatus;
}

/** The phases an event can move a tenant to: the status phases, and `Deleted` at the end of a teardown. */
export type TenantEventPhase = TenantPhase | "Deleted";

/** What one step of a run did to a tenant. */
export interface TenantEvent {
  /** The tenant. */
  readonly name: string;
  /** Its phase from now on, when the step changes it. */
  readonly phase?: TenantEventPhase;
  /** The reason of a phase change to Failed. */
  readonly reason?: ReadyReason;
  /** What happened, for people: a resource step, a wait's progress, an error. */
  readonly detail?: string;
}

/** A change a run makes (or a preview would make) to one resource of the tenant. */
export interface ResourceStep {
  /** The step: create, update, replace, delete, ... */
  readonly op: string;
  /** The resource's type token. */
  readonly type: string;
  /** The resource's name. */
  readonly name: string;
  /** Changed input keys, for updates. */
  readonly diffs: readonly string[];
}
