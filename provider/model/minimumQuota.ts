/**
 * The smallest quota a tenant can have under a policy: what its own vCluster takes (the control
 * plane's and CoreDNS's limits, its data volumes), with the request's defaults. Help texts and
 * docs quote it; the footprint rule (vclusterFootprint.ts) is what refuses a smaller request.
 */
import { tenantArgsSchema } from "./tenantArgsSchema";
import type { TenantPlatformInput } from "./tenantPlatformSchema";
import { tenantSpecOf } from "./tenantSpecOf";
import { vclusterFootprint } from "./vclusterFootprint";

/** The minimum, in Kubernetes quantities. */
export interface MinimumQuota {
  /** CPU cores of limits. */
  readonly cpu: string;
  /** Memory of limits, in Mi. */
  readonly memory: string;
  /** Storage the data volumes request, in Gi. */
  readonly storage: string;
}

/** The minimum quota of a tenant with default vCluster settings under `platform`. */
export function minimumQuota(platform: TenantPlatformInput = {}): MinimumQuota {
  const args = tenantArgsSchema.parse({ owner: "minimum@example.com", platform });
  const footprint = vclusterFootprint(tenantSpecOf("minimum", args));
  return {
    cpu: String(footprint.limits.cpu),
    memory: `${Math.ceil(footprint.limits.memory / 2 ** 20)}Mi`,
    storage: `${Math.ceil(footprint.storageBytes / 2 ** 30)}Gi`,
  };
}
