/**
 * A request and the platform's policy, combined into the TenantSpec that rendering works from:
 * what the request leaves out comes from the platform's defaults, what only the platform decides
 * comes from the platform.
 */
import { apiHostname, appsDomain, releaseName } from "./names";
import { OBJECT_COUNTS, type ObjectCountField } from "./schemaParts";
import type { TenantArgsComplete } from "./tenantArgsSchema";
import type { TenantPlatform } from "./tenantPlatformSchema";
import type { TenantSpec } from "./tenantSpec";

/** The spec of tenant `name` from parsed arguments. */
export function tenantSpecOf(name: string, args: TenantArgsComplete): TenantSpec {
  const { platform, vcluster } = args;
  const counts = Object.fromEntries(
    (Object.keys(OBJECT_COUNTS) as ObjectCountField[])
      .map((field) => [field, args.resources[field] ?? platformCount(platform.quota, field)] as const)
      .filter(([, count]) => count !== undefined),
  );
  const defaults = platform.controlPlaneDefaults;
  const { limits, requests } = vcluster.controlPlaneResources;
  return {
    name,
    namespace: `${platform.namespacePrefix}${name}`,
    releaseName: releaseName(name),
    owner: args.owner,
    resources: {
      cpu: args.resources.cpu ?? platform.quota.default.cpu,
      memory: args.resources.memory ?? platform.quota.default.memory,
      storage: args.resources.storage ?? platform.quota.default.storage,
      ephemeralStorage: args.resources.ephemeralStorage ?? platform.quota.default.ephemeralStorage,
      ...counts,
    },
    limitRange: args.limitRange,
    network: platform.network,
    isolation: {
      networkPolicy: platform.networkPolicy,
      podSecurity: args.isolation.podSecurity ?? platform.podSecurity.default,
    },
    ...(platform.exposure && { exposure: platform.exposure }),
    ...(platform.namespaceAccess && { namespaceAccess: platform.namespaceAccess }),
    vcluster: {
      chart: platform.chart,
      kubernetesVersion: vcluster.kubernetesVersion,
      controlPlaneResources: {
        limits: { cpu: limits.cpu ?? defaults.limits.cpu, memory: limits.memory ?? defaults.limits.memory },
        requests: { cpu: requests.cpu ?? defaults.requests.cpu, memory: requests.memory ?? defaults.requests.memory },
      },
      valuesOverrides: vcluster.valuesOverrides,
      allowUnsafeOverrides: platform.allowUnsafeOverrides,
      timeoutSeconds: platform.helmTimeoutSeconds,
    },
    asleep: args.sleep,
    ...(args.expiresAt && { expiresAt: args.expiresAt }),
    allowNamespaceMove: platform.allowNamespaceMoves,
    readiness: { timeoutSeconds: platform.readinessTimeoutSeconds },
    ...(platform.exposure && {
      endpoints: {
        apiHostname: apiHostname(name, platform.exposure.baseDomain),
        apiServerUrl: `https://${apiHostname(name, platform.exposure.baseDomain)}:443`,
        appsDomain: appsDomain(name, platform.exposure.baseDomain),
      },
    }),
  };
}

/**
 * The count of `field` for a request that sets none: the platform's default held to its ceiling
 * (a platform that caps pods at 30 means 30 for everyone, not a default above it), else the ceiling.
 */
function platformCount(quota: TenantPlatform["quota"], field: ObjectCountField): number | undefined {
  const fallback = quota.default[field];
  const ceiling = quota.ceilings[field];
  if (fallback === undefined) return ceiling;
  return ceiling === undefined ? fallback : Math.min(fallback, ceiling);
}
