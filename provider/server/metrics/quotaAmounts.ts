/**
 * A tenant's quota as numbers for the cost metrics: the ceiling and the use of cpu (cores), memory
 * and storage (bytes), read from its ResourceQuota's status with the package's quantity parser.
 */
import { isQuantity, quantityValue } from "../../model/quantity";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";

/** The resources a tenant's cost is shown in (the `resource` label). */
export const COST_RESOURCES = ["cpu", "memory", "storage"] as const;
/** One of them. */
export type CostResource = (typeof COST_RESOURCES)[number];

/**
 * The quota key each resource is read from: what the tenant's pods and claims request, which the
 * host sets aside for them whatever they use (the quota's `limits.*` have the same ceiling).
 */
export const COST_QUOTA_KEYS: Readonly<Record<CostResource, string>> = {
  cpu: "requests.cpu",
  memory: "requests.memory",
  storage: "requests.storage",
};

/** Some of the resources, each as a number; a resource the quota does not give is absent. */
export type CostAmounts = Readonly<Partial<Record<CostResource, number>>>;

/** A tenant's quota as numbers. */
export interface QuotaAmounts {
  /** Each resource's ceiling. */
  readonly hard: CostAmounts;
  /** What is used of each. */
  readonly used: CostAmounts;
}

/**
 * The amounts of `quota`. A resource is left out when the quota does not name it (a status the
 * quota controller has not written yet), or when its value is no quantity or overflows a number:
 * a missing series reads as unknown, where a made-up 0 would read as free.
 */
export function quotaAmounts(quota: QuotaUsage): QuotaAmounts {
  return { hard: amounts(quota.hard), used: amounts(quota.used) };
}

function amounts(values: Readonly<Record<string, string>>): CostAmounts {
  const result: Partial<Record<CostResource, number>> = {};
  for (const resource of COST_RESOURCES) {
    const text = values[COST_QUOTA_KEYS[resource]];
    if (text === undefined || !isQuantity(text)) continue;
    const value = quantityValue(text);
    if (Number.isFinite(value)) result[resource] = value;
  }
  return result;
}
