/**
 * Reads the structural inputs (which decide the children and their types) from a Tenant's args.
 * They must be plain at construction; everything else may be an Output.
 */
import type { TenantArgs } from "../generated/tenantTypes";
import { structureOfInputs, type TenantStructure } from "../model/tenantStructure";
import { TenantValidationError } from "../model/validationError";
import { isUnresolved } from "./unresolvedInputs";

/** The tenant's structure; throws when a structural input is an Output or a Promise, or breaks its rule. */
export function structureOfArgs(name: string, args: TenantArgs): TenantStructure {
  const platform = args.platform as
    { exposure?: { tlsRouteVersion?: unknown }; networkPolicy?: unknown; namespaceAccess?: unknown } | undefined;
  const exposure = platform?.exposure;
  const fields: [string, unknown][] = [
    ["platform", platform],
    ["platform.exposure", exposure],
    ["platform.exposure.tlsRouteVersion", exposure?.tlsRouteVersion],
    ["platform.networkPolicy", platform?.networkPolicy],
    ["platform.namespaceAccess", platform?.namespaceAccess],
  ];
  const unresolved = fields.filter(([, value]) => isUnresolved(value));
  if (unresolved.length > 0) {
    throw new TenantValidationError(
      name,
      unresolved.map(([path]) => ({
        path,
        message: "decides which resources the tenant has, so it must be a plain value, not an Output or Promise",
      })),
    );
  }
  return structureOfInputs(name, {
    exposed: exposure !== undefined,
    tlsRouteVersion: exposure?.tlsRouteVersion,
    networkPolicy: platform?.networkPolicy,
    namespaceAccess: platform?.namespaceAccess !== undefined,
  });
}
