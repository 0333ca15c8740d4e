/**
 * Where a tenant stands against its `spec.expiresAt`: not expiring, warned (its status carries the
 * `Expiring` condition, from `platform.expiry.warnHours` before), or expired (the server deletes the
 * Tenant, and its finalizer tears it down like any delete). Pure, so that the reconciler, its timer
 * and the tests share one reading of the clock.
 */
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";
import { DEFAULT_EXPIRY_WARN_HOURS } from "../../model/tenantPlatformSchema";
import type { TenantResourceStatus } from "../tenantResourcePort";

/** The condition a tenant's status carries while it is about to expire. */
export const EXPIRING_CONDITION = "Expiring";

const HOUR_MS = 3_600_000;

/** A tenant's standing against its expiry at one moment. */
export type ExpiryStanding =
  /** It sets no expiry. */
  | { readonly state: "none" }
  /** It expires later; the warning starts at `warnAt` (epoch ms). */
  | { readonly state: "later"; readonly warnAt: number; readonly expiresAt: number }
  /** It expires at `expiresAt` (epoch ms), soon enough to be warned. */
  | { readonly state: "warned"; readonly expiresAt: number }
  /** Its time has come. */
  | { readonly state: "expired" };

/** Where a tenant expiring at `expiresAt` (RFC 3339, if any) stands at `now`, warned `warnHours` before. */
export function expiryStanding(expiresAt: string | undefined, now: Date, warnHours: number): ExpiryStanding {
  if (expiresAt === undefined) return { state: "none" };
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return { state: "none" };
  if (at <= now.getTime()) return { state: "expired" };
  const warnAt = at - warnHours * HOUR_MS;
  return warnAt <= now.getTime() ? { state: "warned", expiresAt: at } : { state: "later", warnAt, expiresAt: at };
}

/** When the reconciler must look at the tenant again: at the warning, then at the expiry. */
export function nextVisit(standing: ExpiryStanding): number | undefined {
  if (standing.state === "later") return standing.warnAt;
  if (standing.state === "warned") return standing.expiresAt;
  return undefined;
}

/** How long before expiry the policy warns. */
export const warnHoursOf = (policy: TenantPlatformInput | undefined): number =>
  policy?.expiry?.warnHours ?? DEFAULT_EXPIRY_WARN_HOURS;

/** A status's conditions with the `Expiring` condition set for `standing` (added when warned, removed otherwise). */
export function withExpiryCondition(
  conditions: TenantResourceStatus["conditions"],
  standing: ExpiryStanding,
  now: Date,
  observedGeneration: number,
): TenantResourceStatus["conditions"] {
  const others = conditions.filter((condition) => condition.type !== EXPIRING_CONDITION);
  if (standing.state !== "warned") return others;
  const previous = conditions.find((condition) => condition.type === EXPIRING_CONDITION);
  const at = new Date(standing.expiresAt).toISOString();
  return [
    ...others,
    {
      type: EXPIRING_CONDITION,
      status: "True",
      reason: "ExpiresSoon",
      message: `the tenant expires at ${at} and is then deleted with everything in it; extend spec.expiresAt to keep it`,
      lastTransitionTime: previous?.lastTransitionTime ?? now.toISOString(),
      observedGeneration,
    },
  ];
}

/** Whether a status already carries the `Expiring` condition. */
export const isWarned = (status: TenantResourceStatus | undefined): boolean =>
  (status?.conditions ?? []).some((condition) => condition.type === EXPIRING_CONDITION);
