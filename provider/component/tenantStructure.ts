/**
 * The few inputs that decide which children a Tenant has and their Pulumi types. They must be
 * known when the Tenant is constructed, so they may not be Outputs.
 */
import type { TenantArgs } from "../generated/tenantTypes";
import { isUnresolved } from "./unresolvedInputs";
import { TenantValidationError } from "../spec/validationError";

/** Which children a tenant has. */
export interface TenantStructure {
  /** Whether the Gateway objects exist. */
  readonly exposed: boolean;
  /** API version of the TLSRoute. */
  readonly tlsRouteVersion: string;
  /** Whether the NetworkPolicy exists. */
  readonly networkPolicy: boolean;
}

/** Reads the structural inputs; throws when one of them is an Output or a Promise. */
export function tenantStructure(name: string, args: TenantArgs): TenantStructure {
  const fields: [string, unknown][] = [
    ["exposure", args.exposure],
    ["exposure.tlsRouteVersion", args.exposure && (args.exposure as { tlsRouteVersion?: unknown }).tlsRouteVersion],
    ["isolation", args.isolation],
    ["isolation.networkPolicy", args.isolation && (args.isolation as { networkPolicy?: unknown }).networkPolicy],
  ];
  const unresolved = fields.filter(([, value]) => isUnresolved(value));
  if (unresolved.length > 0) {
    throw new TenantValidationError(
      name,
      unresolved.map(([path]) => ({ path, message: "decides which resources the tenant has, so it must be a plain value, not an Output or Promise" })),
    );
  }
  const exposure = args.exposure as { tlsRouteVersion?: string } | undefined;
  const isolation = args.isolation as { networkPolicy?: boolean } | undefined;
  return {
    exposed: exposure !== undefined,
    tlsRouteVersion: exposure?.tlsRouteVersion ?? "v1",
    networkPolicy: isolation?.networkPolicy !== false,
  };
}
