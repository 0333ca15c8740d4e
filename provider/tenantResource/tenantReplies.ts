/**
 * What the server's API answers with about a tenant, which the command reads too: a Tenant
 * resource as a person sees it, its quota, and a followed tenant's changes. Here, below both the
 * server and the command, rather than in contracts/: it is made of the tenants service's and the
 * Tenant resource's types, which sit above contracts.
 */
import type { TenantObject } from "../tenants/tenantObject";
import type { TenantResourceStatus } from "./tenantResourceStatus";

/** A tenant as the API answers with it: the Tenant resource's request and status, without where its secrets are kept. */
export interface TenantView extends Omit<TenantObject, "status" | "metadata"> {
  /** The name, generation, creation time and the resource's version. */
  readonly metadata: TenantObject["metadata"] & {
    /** The Tenant resource's resourceVersion: the id of the event that showed this state. */
    readonly resourceVersion?: string;
    /** Set once a deletion was asked for. */
    readonly deletionTimestamp?: string;
  };
  /** The status the reconciler wrote (Pending, before it wrote any). */
  readonly status: Omit<TenantResourceStatus, "kubeconfigSecretRef">;
}

/** The host quota of a tenant: its ceiling and what its pods use now, as the API answers it. */
export type { QuotaUsage } from "../contracts/tenantsApi";

/** One change of a followed tenant. */
export type TenantChange =
  | {
      /** The resourceVersion of the state shown: the event's id. */
      readonly id: string;
      /** The tenant as it now stands. */
      readonly tenant: TenantView;
    }
  | {
      /** The resourceVersion of the deletion. */
      readonly id: string;
      /** The tenant is gone. */
      readonly deleted: true;
    };
