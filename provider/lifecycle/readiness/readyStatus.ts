/** The Tenant's status output, as the KubeSpaces operator reports a ready (or sleeping) tenant. */
import type { TenantStatus } from "../../generated/tenantTypes";

/**
 * The status of a tenant whose virtual cluster was seen ready at `readyAt` after waiting
 * `waitedMs`, or, when `asleep`, seen scaled to zero: phase Sleeping, its Ready condition False.
 */
export function readyStatus(tenant: string, readyAt: string, waitedMs: number, asleep = false): TenantStatus {
  const waited = `waited ${(waitedMs / 1000).toFixed(1)}s`;
  if (asleep) {
    const message = `virtual cluster of tenant ${tenant} is asleep: its control plane and synced pods are scaled to zero, its data and kubeconfig kept (${waited}); set sleep to false to wake it`;
    return {
      phase: "Sleeping",
      conditions: [{ type: "Ready", status: "False", reason: "Sleeping", message, lastTransitionTime: readyAt }],
      message,
    };
  }
  const message = `virtual cluster of tenant ${tenant} is ready (${waited})`;
  return {
    phase: "Ready",
    conditions: [{ type: "Ready", status: "True", reason: "Provisioned", message, lastTransitionTime: readyAt }],
    message,
  };
}
