/** The Tenant's status output, as the KubeSpaces operator reports a ready tenant. */
import type { TenantStatus } from "../../generated/tenantTypes";

/** The status of a tenant whose virtual cluster was seen ready at `readyAt` after waiting `waitedMs`. */
export function readyStatus(tenant: string, readyAt: string, waitedMs: number): TenantStatus {
  const message = `virtual cluster of tenant ${tenant} is ready (waited ${(waitedMs / 1000).toFixed(1)}s)`;
  return {
    phase: "Ready",
    conditions: [{ type: "Ready", status: "True", reason: "Provisioned", message, lastTransitionTime: readyAt }],
    message,
  };
}
