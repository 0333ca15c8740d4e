/** The ResourceQuota that caps the tenant namespace. */
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** The kind of the tenant's quota. */
export const RESOURCE_QUOTA_TYPE: TypeMeta = { apiVersion: "v1", kind: "ResourceQuota" };

/** Name of the tenant's ResourceQuota. */
export const RESOURCE_QUOTA_NAME = "kubespaces-quota";

// Optional object counts: input field -> quota key.
const OBJECT_COUNT_KEYS = {
  pods: "pods",
  services: "services",
  persistentVolumeClaims: "persistentvolumeclaims",
  secrets: "secrets",
  configMaps: "configmaps",
  servicesLoadBalancers: "services.loadbalancers",
  servicesNodePorts: "services.nodeports",
} as const;

/**
 * Object counts no request or policy sets: kinds that neither a tenant nor its vCluster creates in
 * the namespace, counted so that the namespace holds none beyond what the platform makes (the
 * multi-tenancy benchmarks' "namespace object limits" look for them too).
 */
const FIXED_OBJECT_COUNTS = {
  // vCluster syncs pods to the host, never the ReplicationControllers that make them, and the
  // vCluster's ServiceAccount may not create them: none belongs in the namespace.
  replicationcontrollers: "0",
  // A quota counts itself: this one is the only ResourceQuota of the namespace (the chart's own,
  // `policies.resourceQuota`, is off, see vclusterValues.ts), and no tenant identity may add one.
  resourcequotas: "1",
} as const;

/**
 * The quota's `spec.hard`: cpu, memory and ephemeral storage as requests and limits, storage as
 * requests, the object counts that are set, and the fixed ones.
 */
export function quotaHard(resources: TenantSpec["resources"]): Record<string, string> {
  const hard: Record<string, string> = {
    "requests.cpu": resources.cpu,
    "limits.cpu": resources.cpu,
    "requests.memory": resources.memory,
    "limits.memory": resources.memory,
    "requests.storage": resources.storage,
    "requests.ephemeral-storage": resources.ephemeralStorage,
    "limits.ephemeral-storage": resources.ephemeralStorage,
    ...FIXED_OBJECT_COUNTS,
  };
  for (const [field, key] of Object.entries(OBJECT_COUNT_KEYS)) {
    const count = resources[field as keyof typeof OBJECT_COUNT_KEYS];
    if (count !== undefined) hard[key] = String(count);
  }
  return hard;
}

/** Renders the tenant's ResourceQuota. */
export function renderResourceQuota(spec: TenantSpec): Manifest {
  return {
    ...RESOURCE_QUOTA_TYPE,
    metadata: tenantMetadata(spec, RESOURCE_QUOTA_NAME),
    spec: { hard: quotaHard(spec.resources) },
  };
}
