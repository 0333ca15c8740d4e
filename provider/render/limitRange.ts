/** The LimitRange that gives containers without limits the tenant's defaults. */
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** The kind of the tenant's container defaults. */
export const LIMIT_RANGE_TYPE: TypeMeta = { apiVersion: "v1", kind: "LimitRange" };

/** Name of the tenant's LimitRange. */
export const LIMIT_RANGE_NAME = "kubespaces-defaults";

/** Renders the tenant's LimitRange. */
export function renderLimitRange(spec: TenantSpec): Manifest {
  const { defaultLimit, defaultRequest } = spec.limitRange;
  return {
    ...LIMIT_RANGE_TYPE,
    metadata: tenantMetadata(spec, LIMIT_RANGE_NAME),
    spec: {
      limits: [
        {
          type: "Container",
          default: { cpu: defaultLimit.cpu, memory: defaultLimit.memory },
          defaultRequest: { cpu: defaultRequest.cpu, memory: defaultRequest.memory },
        },
      ],
    },
  };
}
