/**
 * The expiry stage. The expiry in force is the one of the generation that runs, as the status
 * records it (`status.expiry`, written by each run): a change the gates hold or the policy refuses
 * leaves the running generation's expiry standing, so no edit of `spec.expiresAt` escapes a
 * mandatory lifetime. Before any generation ran, the spec's expiry is the one (nothing runs to
 * lose); a newer generation the gates let through whose own expiry has passed is not brought up
 * but expires (provisioningStage.ts). A Tenant whose expiry has come is deleted (its finalizer tears it down like any delete);
 * one about to expire carries the `Expiring` condition, and the queue comes back at the warning
 * and at the expiry.
 */
import type { TenantResource } from "../../tenantResourcePort";
import {
  expiryStanding,
  type ExpiryStanding,
  isWarned,
  nextVisit,
  warnHoursOf,
  withExpiryCondition,
} from "../tenantExpiry";
import { isProvisioned, type StageContext } from "./stageContext";

/** The expiry in force for the tenant (RFC 3339), if any. */
export function expiryInForce(tenant: TenantResource): string | undefined {
  const recorded = tenant.status?.expiry;
  return recorded ? recorded.expiresAt : tenant.spec.expiresAt;
}

/** The expiry stage. */
export class ExpiryStage {
  constructor(private readonly context: StageContext) {}

  /**
   * Deletes the Tenant when its expiry in force has come, and says so. A tenant that runs at its
   * generation but has no recorded expiry (provisioned by a server from before the record) gets
   * its spec's recorded, which is the running one.
   */
  async expireIfDue(tenant: TenantResource): Promise<boolean> {
    const { resources } = this.context;
    const { name, generation } = tenant.metadata;
    if (this.standingOf(tenant).state === "expired") {
      await this.expire(tenant, expiryInForce(tenant)!);
      return true;
    }
    if (tenant.status && !tenant.status.expiry && isProvisioned(tenant)) {
      const { expiresAt } = tenant.spec;
      await resources.writeStatus(name, { ...tenant.status, expiry: { generation, ...(expiresAt && { expiresAt }) } });
    }
    return false;
  }

  /** Deletes the Tenant, which expired at `expiresAt`: the deletion's reconcile tears it down like any other. */
  async expire(tenant: TenantResource, expiresAt: string): Promise<void> {
    await this.context.config.events?.record(tenant, "Expired", `it expired at ${expiresAt}; deleting it`);
    await this.context.resources.delete(tenant.metadata.name);
  }

  /**
   * Sets or clears the status's Expiring condition as the expiry in force now stands, with an Event
   * when the warning starts; resolves to when the queue must come back (the warning, then the expiry).
   */
  async warn(name: string): Promise<number | undefined> {
    const { resources, config, now } = this.context;
    const tenant = await resources.get(name);
    if (!tenant?.status || tenant.metadata.deletionTimestamp) return undefined;
    const expiry = this.standingOf(tenant);
    const warned = expiry.state === "warned";
    if (warned !== isWarned(tenant.status)) {
      const conditions = withExpiryCondition(tenant.status.conditions, expiry, now(), tenant.metadata.generation);
      await resources.writeStatus(name, { ...tenant.status, conditions });
      if (warned) await config.events?.record(tenant, "ExpiringSoon", conditions.at(-1)!.message);
    }
    return nextVisit(expiry);
  }

  /** Where the tenant stands against its expiry in force now, warned as its running policy says. */
  private standingOf(tenant: TenantResource): ExpiryStanding {
    const { fleet, policy } = this.context.config;
    const running = fleet?.runningPolicy(tenant.status?.platformRevision)?.policy;
    return expiryStanding(expiryInForce(tenant), this.context.now(), warnHoursOf(running ?? policy));
  }
}
