/**
 * The plain, complete description of one tenant that rendering works from: a request with the
 * platform's defaults filled in and its policy applied, and every derived name computed.
 */
import type { OBJECT_COUNTS } from "./schemaParts";
import type { TenantPlatform } from "./tenantPlatformSchema";
import type { TenantRequest } from "./tenantRequestSchema";

/** CPU and memory, both known. */
export interface CpuMemory {
  /** CPU. */
  readonly cpu: string;
  /** Memory. */
  readonly memory: string;
}

/** A validated tenant. */
export interface TenantSpec {
  /** Tenant name (the Pulumi resource name). */
  readonly name: string;
  /** Host namespace of the tenant: the platform's prefix and the name. */
  readonly namespace: string;
  /** Helm release name of the vCluster. */
  readonly releaseName: string;
  /** Who owns the tenant. */
  readonly owner: string;
  /** The quota: CPU, memory, storage and ephemeral storage always, object counts when set. */
  readonly resources: {
    readonly cpu: string;
    readonly memory: string;
    readonly storage: string;
    readonly ephemeralStorage: string;
  } & {
    readonly [K in keyof typeof OBJECT_COUNTS]?: number;
  };
  /** Container defaults. */
  readonly limitRange: TenantRequest["limitRange"];
  /** How the namespace is fenced. */
  readonly isolation: {
    readonly networkPolicy: boolean;
    readonly podSecurity: TenantPlatform["podSecurity"]["default"];
  };
  /** What the NetworkPolicy lets through: the platform's ranges and gateway pods. */
  readonly network: TenantPlatform["network"];
  /** The RoleBinding in the namespace, when the platform asks for one (the server does). */
  readonly namespaceAccess?: NonNullable<TenantPlatform["namespaceAccess"]>;
  /** Gateway API exposure, when the platform publishes tenants. */
  readonly exposure?: NonNullable<TenantPlatform["exposure"]>;
  /** The vCluster release. */
  readonly vcluster: {
    readonly chart: TenantPlatform["chart"];
    readonly kubernetesVersion: string;
    readonly controlPlaneResources: { readonly limits: CpuMemory; readonly requests: CpuMemory };
    readonly valuesOverrides: Record<string, unknown>;
    readonly allowUnsafeOverrides: boolean;
    readonly timeoutSeconds: number;
  };
  /** Whether the tenant sleeps: its control plane and synced workloads scaled to zero, its data kept. */
  readonly asleep: boolean;
  /** When the tenant expires (RFC 3339), if it does. */
  readonly expiresAt?: string;
  /** Whether an update may move the tenant to another namespace (losing what the old one holds). */
  readonly allowNamespaceMove: boolean;
  /** The readiness wait. */
  readonly readiness: { readonly timeoutSeconds: number };
  /** Public names, present when the tenant is exposed. */
  readonly endpoints?: {
    /** Hostname of the API server, served through TLS passthrough. */
    readonly apiHostname: string;
    /** `https://<apiHostname>:443`. */
    readonly apiServerUrl: string;
    /** Apps are published at `*.<appsDomain>`. */
    readonly appsDomain: string;
  };
}

/** A tenant with exposure: its public endpoints are known. */
export type ExposedTenantSpec = TenantSpec & Required<Pick<TenantSpec, "exposure" | "endpoints">>;

/** True when the tenant is published through the Gateway. */
export function isExposed(spec: TenantSpec): spec is ExposedTenantSpec {
  return spec.exposure !== undefined && spec.endpoints !== undefined;
}
