/**
 * A tenant's claim: the Lease a replica holds while it reconciles that tenant, so that one tenant
 * is never reconciled by two replicas at once, even while they disagree on who owns it (a replica
 * just joined or just gone: tenantOwnership.ts). The claim is renewed while the reconcile runs,
 * whose signal aborts if the claim is lost, and removed when it ends, so an idle tenant holds no
 * Lease. A claim whose holder is gone (replicaMembership.ts) is taken over at once; any other,
 * after it has gone a whole lease duration unrenewed.
 */
import { holdLease, LeaseObserver, type Held, type LeaseOptions, type RemovableLeaseStore } from "./leases";

/** The label every tenant claim carries; its value is the server's Lease name (ServerConfig.leaseName). */
export const CLAIM_OF_LABEL = "kubespaces.io/claim-of";

/** The name of tenant `tenant`'s claim: `<leaseName>-tenant-<tenant>` (a tenant's name is a DNS label). */
export const tenantClaimName = (leaseName: string, tenant: string) => `${leaseName}-tenant-${tenant}`;

/** The claims of this replica. */
export class TenantClaims {
  /** How this replica has seen each tenant's claim change, for the claims it could not take. */
  private readonly observers = new Map<string, LeaseObserver>();

  constructor(
    private readonly claimOf: (tenant: string) => RemovableLeaseStore,
    private readonly options: LeaseOptions,
    private readonly isGone: (identity: string) => boolean,
  ) {}

  /**
   * Runs `work` holding tenant `tenant`'s claim; its signal aborts when the claim is lost or
   * `signal` aborts. `{ held: false }` when another replica holds the claim: `work` never ran.
   */
  async hold<T>(tenant: string, work: (held: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<Held<T>> {
    const observer = this.observers.get(tenant) ?? new LeaseObserver();
    const expiry = {
      expired: (lease: Parameters<LeaseObserver["expired"]>[0], now: Date) => {
        const unrenewed = observer.expired(lease, now);
        return unrenewed || (lease.holderIdentity !== undefined && this.isGone(lease.holderIdentity));
      },
    };
    const result = await holdLease(this.claimOf(tenant), this.options, expiry, work, signal);
    if (result.held) this.observers.delete(tenant);
    else this.observers.set(tenant, observer);
    return result;
  }
}
