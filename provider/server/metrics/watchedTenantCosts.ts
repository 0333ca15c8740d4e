/**
 * Each tenant's cost as this replica's watches see it, for the per-tenant metrics: its quota's
 * ceiling and use (the drift watch's ResourceQuota events, status changes included), whether it is
 * awake, and for how long it was awake since this replica first saw it. A scrape reads what the
 * watches already hold and lists nothing from the host.
 *
 * A tenant is awake while its phase is known and is not Sleeping, and its namespace has its quota.
 * The quota stands for "something of it is provisioned": the phase alone does not tell that for a
 * Tenant that is Pending, AwaitingApproval or Previewed before its first create (a GitOps pull
 * request's preview-only Tenant may wait days, and nothing of it runs).
 */
import type { TenantPhase } from "../../tenants/tenantObject";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";
import { quotaAmounts, type QuotaAmounts } from "./quotaAmounts";

/** The phase in which a tenant's control plane and pods are scaled to zero. */
const ASLEEP: TenantPhase = "Sleeping";

/** One tenant's cost, as a scrape shows it. */
export interface TenantCost {
  /** The tenant's name (the `tenant` label). */
  readonly tenant: string;
  /** Whether it is awake now. */
  readonly awake: boolean;
  /** How long it was awake since this replica first saw it, in seconds; it never goes down. */
  readonly awakeSeconds: number;
  /** Its quota's ceiling and use; undefined while its namespace has no quota. */
  readonly quota?: QuotaAmounts;
}

/** A Tenant the watch holds. */
interface Watched {
  phase: string | undefined;
  /** Milliseconds awake before the current stretch. */
  awakeMs: number;
  /** When the current stretch awake began, by the clock; undefined while asleep. */
  awakeSince?: number;
}

/** The costs the watches saw, by tenant. */
export class WatchedTenantCosts {
  private readonly tenants = new Map<string, Watched>();
  // Apart from the Tenants: the two watches list in either order, and a quota may come first.
  private readonly quotas = new Map<string, QuotaAmounts>();

  /** `now` is a monotonic clock in milliseconds (a wall clock set back would take awake time away). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Tenant `name` was added or changed, with `phase` (undefined: no status yet). */
  phaseSeen(name: string, phase: string | undefined): void {
    const tenant = this.tenants.get(name) ?? { phase: undefined, awakeMs: 0 };
    this.tenants.set(name, tenant);
    tenant.phase = phase;
    this.settle(name, tenant);
  }

  /** Tenant `name` is gone: its costs are forgotten, and its series go with them. */
  gone(name: string): void {
    this.tenants.delete(name);
  }

  /** The quota of tenant `tenant`'s namespace was listed or changed. */
  quotaSeen(tenant: string, quota: QuotaUsage): void {
    this.quotas.set(tenant, quotaAmounts(quota));
    this.settle(tenant, this.tenants.get(tenant));
  }

  /** The quota of tenant `tenant`'s namespace is gone. */
  quotaGone(tenant: string): void {
    this.quotas.delete(tenant);
    this.settle(tenant, this.tenants.get(tenant));
  }

  /** Every Tenant's cost; a quota whose Tenant the watch does not hold is not one (its label could name anything). */
  costs(): TenantCost[] {
    const now = this.now();
    return [...this.tenants].map(([name, tenant]) => {
      const stretch = tenant.awakeSince === undefined ? 0 : now - tenant.awakeSince;
      const quota = this.quotas.get(name);
      return {
        tenant: name,
        awake: tenant.awakeSince !== undefined,
        awakeSeconds: (tenant.awakeMs + stretch) / 1000,
        ...(quota && { quota }),
      };
    });
  }

  /** Starts or ends tenant `name`'s stretch awake when what it is now says so. */
  private settle(name: string, tenant: Watched | undefined): void {
    if (!tenant) return;
    const awake = tenant.phase !== undefined && tenant.phase !== ASLEEP && this.quotas.has(name);
    if (awake && tenant.awakeSince === undefined) tenant.awakeSince = this.now();
    if (!awake && tenant.awakeSince !== undefined) {
      tenant.awakeMs += this.now() - tenant.awakeSince;
      tenant.awakeSince = undefined;
    }
  }
}
