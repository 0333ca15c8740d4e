/**
 * The rules of a tenant's life: a tenant may sleep only where its data outlives its control plane,
 * and its expiry keeps the platform's cap and is set where the platform requires one.
 */
import { valueAt } from "./overridesGuard";
import type { TenantArgsComplete } from "./tenantArgsSchema";
import type { TenantSpec } from "./tenantSpec";
import type { InputProblem } from "./validationError";

const HOUR_MS = 3_600_000;

/** A sleeping tenant's data lives on its control plane's volume: without one, waking would find it empty. */
export function sleepProblems(spec: TenantSpec): InputProblem[] {
  if (!spec.asleep) return [];
  if (valueAt(spec.vcluster.valuesOverrides, "controlPlane.statefulSet.persistence.volumeClaim.enabled") !== false)
    return [];
  return [
    {
      path: "sleep",
      message:
        "must not be true while vcluster.valuesOverrides turns off the control plane's volume (controlPlane.statefulSet.persistence.volumeClaim.enabled: false): the virtual cluster's data would not survive its sleep",
    },
  ];
}

/** The expiry the platform requires of the tenant's owner, and its cap, checked at `now`. */
export function expiryProblems(spec: TenantSpec, args: TenantArgsComplete, now: Date): InputProblem[] {
  const { maxLifetimeHours, requiredFor } = args.platform.expiry;
  if (!spec.expiresAt) {
    const required = requiredFor.owners.includes("*") || requiredFor.owners.includes(spec.owner);
    return required
      ? [{ path: "expiresAt", message: `is required for owner ${spec.owner} (platform.expiry.requiredFor.owners)` }]
      : [];
  }
  if (maxLifetimeHours === undefined) return [];
  const latest = new Date(now.getTime() + maxLifetimeHours * HOUR_MS);
  if (Date.parse(spec.expiresAt) <= latest.getTime()) return [];
  return [
    {
      path: "expiresAt",
      message: `${spec.expiresAt} is more than ${maxLifetimeHours} hours ahead (platform.expiry.maxLifetimeHours); the latest allowed now is ${latest.toISOString()}`,
    },
  ];
}
