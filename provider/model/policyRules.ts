/**
 * The rules a request must keep once the platform's defaults are filled in: within the platform's
 * policy (ceilings, allowed levels, the overrides allowlist), consistent with itself (requests below
 * limits below the quota), and with room for the vCluster it gets. Each problem names the field and
 * the rule.
 */
import { overrideValueProblems, SAFE_OVERRIDES_DOC, unsafeOverridePaths } from "./overridesGuard";
import { quantityValue } from "./quantity";
import { apiHostname } from "./names";
import { DNS_LABEL_MAX_LENGTH, DNS_SUBDOMAIN_MAX_LENGTH, OBJECT_COUNTS } from "./schemaParts";
import type { TenantArgsComplete } from "./tenantArgsSchema";
import type { CpuMemory, TenantSpec } from "./tenantSpec";
import type { InputProblem } from "./validationError";
import { footprintProblems } from "./vclusterFootprint";
import { expiryProblems, sleepProblems } from "./lifecycleRules";

/** Options that depend on the rest of the program rather than on the tenant alone. */
export interface ValidationContext {
  /** The tenant that already claimed a namespace in this program, if any. */
  readonly namespaceOwner?: (namespace: string) => string | undefined;
  /** The time an expiry is checked against (the cap counts from it). @default the clock's */
  readonly now?: () => Date;
}

/** Every rule `spec` (built from `args`) breaks. */
export function policyProblems(spec: TenantSpec, args: TenantArgsComplete, context: ValidationContext): InputProblem[] {
  const overrides = [...overrideProblems(spec), ...overrideValueProblems(spec.vcluster.valuesOverrides)];
  return [
    ...namespaceProblems(spec, context),
    ...podSecurityProblems(spec, args),
    ...ceilingProblems(spec, args),
    ...notAbove(
      "limitRange.defaultRequest",
      spec.limitRange.defaultRequest,
      "limitRange.defaultLimit",
      spec.limitRange.defaultLimit,
      CONTAINER_RESOURCES,
    ),
    ...notAbove(
      "limitRange.defaultLimit",
      spec.limitRange.defaultLimit,
      "resources",
      spec.resources,
      CONTAINER_RESOURCES,
    ),
    ...notAbove(
      "vcluster.controlPlaneResources.requests",
      spec.vcluster.controlPlaneResources.requests,
      "vcluster.controlPlaneResources.limits",
      spec.vcluster.controlPlaneResources.limits,
      CPU_AND_MEMORY,
    ),
    ...notAbove(
      "vcluster.controlPlaneResources.limits",
      spec.vcluster.controlPlaneResources.limits,
      "resources",
      spec.resources,
      CPU_AND_MEMORY,
    ),
    ...hostnameProblems(spec),
    ...sleepProblems(spec),
    ...expiryProblems(spec, args, context.now?.() ?? new Date()),
    ...overrides,
    // The footprint reads the overrides, so it is checked only once they are safe and each value keeps its rule.
    ...(overrides.length === 0 ? footprintProblems(spec) : []),
  ];
}

function namespaceProblems(spec: TenantSpec, context: ValidationContext): InputProblem[] {
  const { namespace } = spec;
  if (namespace.length > DNS_LABEL_MAX_LENGTH) {
    return [
      {
        path: "",
        message: `gives namespace "${namespace}" of ${namespace.length} characters (at most ${DNS_LABEL_MAX_LENGTH}, with platform.namespacePrefix); choose a shorter name`,
      },
    ];
  }
  if (namespace === "default" || namespace.startsWith("kube-") || namespace === spec.exposure?.gateway.namespace) {
    return [
      {
        path: "platform.namespacePrefix",
        message: `gives namespace "${namespace}", which is reserved for the cluster or the platform (kube-*, default, the gateway namespace)`,
      },
    ];
  }
  const owner = context.namespaceOwner?.(namespace);
  if (owner !== undefined && owner !== spec.name)
    return [{ path: "", message: `namespace "${namespace}" is already claimed by Tenant "${owner}" in this program` }];
  return [];
}

function podSecurityProblems(spec: TenantSpec, args: TenantArgsComplete): InputProblem[] {
  const { allowed } = args.platform.podSecurity;
  const level = spec.isolation.podSecurity;
  if (allowed.includes(level)) return [];
  const path = args.isolation.podSecurity === undefined ? "platform.podSecurity.default" : "isolation.podSecurity";
  return [
    {
      path,
      message: `${level} is not a level the platform allows (platform.podSecurity.allowed: ${allowed.join(", ")})`,
    },
  ];
}

function ceilingProblems(spec: TenantSpec, args: TenantArgsComplete): InputProblem[] {
  const { ceilings } = args.platform.quota;
  const quantities = (["cpu", "memory", "storage", "ephemeralStorage"] as const)
    .filter(
      (field) =>
        ceilings[field] !== undefined && quantityValue(spec.resources[field]) > quantityValue(ceilings[field]!),
    )
    .map((field) => ({
      path: `resources.${field}`,
      message: `${spec.resources[field]} is above the platform's ceiling (platform.quota.ceilings.${field}: ${ceilings[field]})`,
    }));
  const counts = (Object.keys(OBJECT_COUNTS) as (keyof typeof OBJECT_COUNTS)[])
    .filter((field) => ceilings[field] !== undefined && (spec.resources[field] ?? Infinity) > ceilings[field]!)
    .map((field) => ({
      path: `resources.${field}`,
      message: `${spec.resources[field]} is above the platform's ceiling (platform.quota.ceilings.${field}: ${ceilings[field]})`,
    }));
  return [...quantities, ...counts];
}

/** What the control plane's resources and the quota share. */
const CPU_AND_MEMORY: readonly (keyof CpuMemory)[] = ["cpu", "memory"];
/** What a container's defaults and the quota share: the LimitRange's fields. */
const CONTAINER_RESOURCES = ["cpu", "memory", "ephemeralStorage"] as const;

/** Each of `fields` of `lower` must not exceed the same field of `upper`. */
function notAbove<F extends string>(
  lowerPath: string,
  lower: Record<F, string>,
  upperPath: string,
  upper: Record<F, string>,
  fields: readonly F[],
): InputProblem[] {
  return fields
    .filter((field) => quantityValue(lower[field]) > quantityValue(upper[field]))
    .map((field) => ({
      path: `${lowerPath}.${field}`,
      message: `${lower[field]} must not exceed ${upperPath}.${field} (${upper[field]})`,
      exceeds: { value: lower[field], boundPath: `${upperPath}.${field}`, bound: upper[field] },
    }));
}

function hostnameProblems(spec: TenantSpec): InputProblem[] {
  if (!spec.exposure) return [];
  const host = apiHostname(spec.name, spec.exposure.baseDomain);
  const longLabel = spec.exposure.baseDomain.split(".").find((label) => label.length > DNS_LABEL_MAX_LENGTH);
  if (longLabel)
    return [
      {
        path: "platform.exposure.baseDomain",
        message: `has a label longer than ${DNS_LABEL_MAX_LENGTH} characters ("${longLabel}")`,
      },
    ];
  if (host.length > DNS_SUBDOMAIN_MAX_LENGTH)
    return [
      {
        path: "platform.exposure.baseDomain",
        message: `makes the API hostname "${host}" longer than ${DNS_SUBDOMAIN_MAX_LENGTH} characters`,
      },
    ];
  return [];
}

function overrideProblems(spec: TenantSpec): InputProblem[] {
  if (spec.vcluster.allowUnsafeOverrides) return [];
  const unsafe = unsafeOverridePaths(spec.vcluster.valuesOverrides);
  if (unsafe.length === 0) return [];
  return [
    {
      path: "vcluster.valuesOverrides",
      message: `sets paths outside the self-service allowlist: ${unsafe.join(", ")} (see the allowlist in ${SAFE_OVERRIDES_DOC}; only the platform can allow more, with platform.allowUnsafeOverrides)`,
    },
  ];
}
