/** The LimitRange that gives containers without limits the tenant's defaults. */
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** The kind of the tenant's container defaults. */
export const LIMIT_RANGE_TYPE: TypeMeta = { apiVersion: "v1", kind: "LimitRange" };

/** Name of the tenant's LimitRange. */
export const LIMIT_RANGE_NAME = "kubespaces-defaults";

/** A container's resources as a LimitRange lists them. */
const containerResources = (resources: TenantSpec["limitRange"]["defaultLimit"]) => ({
  cpu: resources.cpu,
  memory: resources.memory,
  "ephemeral-storage": resources.ephemeralStorage,
});

/**
 * Renders the tenant's LimitRange. Every resource the quota caps as requests and limits gets a
 * default, since the quota refuses a pod any of whose containers (init containers included, such as
 * the vCluster control plane's) lacks one.
 */
export function renderLimitRange(spec: TenantSpec): Manifest {
  const { defaultLimit, defaultRequest } = spec.limitRange;
  return {
    ...LIMIT_RANGE_TYPE,
    metadata: tenantMetadata(spec, LIMIT_RANGE_NAME),
    spec: {
      limits: [
        {
          type: "Container",
          default: containerResources(defaultLimit),
          defaultRequest: containerResources(defaultRequest),
        },
      ],
    },
  };
}
