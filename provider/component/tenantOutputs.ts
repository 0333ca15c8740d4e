/** The shapes of a Tenant's outputs, mirroring the KubeSpaces operator's Tenant status. */

/** Where the vCluster keeps the tenant's kubeconfig on the host. */
export interface KubeconfigSecretRef {
  /** Namespace of the Secret (the tenant namespace). */
  readonly namespace: string;
  /** Secret name, `vc-<release>`. */
  readonly name: string;
  /** Key of the kubeconfig in the Secret. */
  readonly key: string;
}

/** A status condition, as Kubernetes objects carry them. */
export interface TenantCondition {
  /** Condition type; the component reports `Ready`. */
  readonly type: string;
  /** `True`, `False` or `Unknown`. */
  readonly status: "True" | "False" | "Unknown";
  /** Machine-readable reason, e.g. `Provisioned`. */
  readonly reason: string;
  /** Human-readable detail. */
  readonly message: string;
  /** When the condition last changed (ISO 8601). */
  readonly lastTransitionTime: string;
}

/** Lifecycle phase, as the operator names it. */
export type TenantPhase = "Pending" | "Provisioning" | "Ready" | "Failed";

/** The tenant's status. After a successful `pulumi up` it is always Ready: a tenant that does not become ready fails the update instead. */
export interface TenantStatus {
  /** Lifecycle phase. */
  readonly phase: TenantPhase;
  /** Conditions; includes `Ready`. */
  readonly conditions: readonly TenantCondition[];
  /** Summary for people. */
  readonly message: string;
}

/** The status of a tenant whose virtual cluster was seen ready at `readyAt`. */
export function readyStatus(tenant: string, readyAt: string, waitedMs: number): TenantStatus {
  const message = `virtual cluster of tenant ${tenant} is ready (waited ${(waitedMs / 1000).toFixed(1)}s)`;
  return {
    phase: "Ready",
    conditions: [{ type: "Ready", status: "True", reason: "Provisioned", message, lastTransitionTime: readyAt }],
    message,
  };
}
