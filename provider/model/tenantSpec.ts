/** The plain, complete description of one tenant that rendering works from. */
import type { TenantArgsComplete } from "./tenantArgsSchema";

/** A validated tenant: every default filled in and every derived name computed. */
export interface TenantSpec extends Omit<TenantArgsComplete, "hostKubeconfig" | "targetNamespace"> {
  /** Tenant name (the Pulumi resource name). */
  readonly name: string;
  /** Host namespace of the tenant. */
  readonly namespace: string;
  /** Helm release name of the vCluster. */
  readonly releaseName: string;
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
