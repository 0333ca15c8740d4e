/**
 * Which children a tenant has and the API versions they use. These few inputs must be known when
 * the Tenant is constructed (they decide what is registered), so they are read apart from the rest,
 * with the defaults and rules of the zod schema.
 */
import type { z } from "zod";
import { exposureSchema, tenantPlatformSchema } from "./tenantPlatformSchema";
import type { TenantSpec } from "./tenantSpec";
import { toProblem } from "./inputProblems";
import { TenantValidationError, type InputProblem } from "./validationError";

/** API version of the TLSRoute. */
export type TlsRouteVersion = z.output<typeof exposureSchema.shape.tlsRouteVersion>;

/** Which children a tenant has. */
export interface TenantStructure {
  /** API version of the TLSRoute when the tenant is exposed through the Gateway; undefined when it is not. */
  readonly tlsRouteVersion?: TlsRouteVersion;
  /** Whether the NetworkPolicy exists. */
  readonly networkPolicy: boolean;
  /** Whether the RoleBinding of `platform.namespaceAccess` exists (absent: it does not). */
  readonly namespaceAccess?: boolean;
}

/** The structure of a validated tenant. */
export function structureOfSpec(spec: TenantSpec): TenantStructure {
  return {
    tlsRouteVersion: spec.exposure?.tlsRouteVersion,
    networkPolicy: spec.isolation.networkPolicy,
    namespaceAccess: spec.namespaceAccess !== undefined,
  };
}

/** The raw structural inputs: whether exposure is set, and the two fields that decide types. */
export interface StructuralInputs {
  /** Whether `platform.exposure` is set at all. */
  readonly exposed: boolean;
  /** `platform.exposure.tlsRouteVersion` as given. */
  readonly tlsRouteVersion: unknown;
  /** `platform.networkPolicy` as given. */
  readonly networkPolicy: unknown;
  /** Whether `platform.namespaceAccess` is set at all (its fields are checked with the rest). */
  readonly namespaceAccess: boolean;
}

/** The structure from raw inputs; throws TenantValidationError naming a structural field that breaks its rule. */
export function structureOfInputs(tenant: string, inputs: StructuralInputs): TenantStructure {
  const tlsRoute = exposureSchema.shape.tlsRouteVersion.safeParse(inputs.tlsRouteVersion);
  const networkPolicy = tenantPlatformSchema.shape.networkPolicy.safeParse(inputs.networkPolicy);
  const problems: InputProblem[] = [];
  if (inputs.exposed && !tlsRoute.success)
    problems.push(
      ...tlsRoute.error.issues.map((issue) => toProblem(issue, ["platform", "exposure", "tlsRouteVersion"])),
    );
  if (!networkPolicy.success)
    problems.push(...networkPolicy.error.issues.map((issue) => toProblem(issue, ["platform", "networkPolicy"])));
  if (problems.length > 0) throw new TenantValidationError(tenant, problems);
  return {
    tlsRouteVersion: inputs.exposed ? tlsRoute.data : undefined,
    networkPolicy: networkPolicy.data as boolean,
    namespaceAccess: inputs.namespaceAccess,
  };
}
