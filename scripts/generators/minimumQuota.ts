/**
 * The smallest quota a tenant can have under a policy: what its own vCluster takes (the control
 * plane's and CoreDNS's limits, its data volumes), with the request's defaults. Help texts and
 * docs quote it (from provider/generated/defaultMinimumQuota.ts, which `npm run generate` writes);
 * the footprint rule (provider/model/vclusterFootprint.ts) is what refuses a smaller request.
 */
import { tenantArgsSchema } from "../../provider/model/tenantArgsSchema";
import type { TenantPlatformInput } from "../../provider/model/tenantPlatformSchema";
import { tenantSpecOf } from "../../provider/model/tenantSpecOf";
import { vclusterFootprint } from "../../provider/model/vclusterFootprint";

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
