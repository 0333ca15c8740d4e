/**
 * The rendered quota and LimitRange together, as the host's admission applies them to the pods a
 * tenant namespace holds: the vCluster's own (as the pinned chart renders them) and a team's that
 * declare nothing. The quota caps ephemeral storage, so every container needs it declared or
 * defaulted; the footprint rule's sum is what these pods take.
 */
import { describe, expect, it } from "vitest";
import { validateTenant } from "../../provider/index";
import { valueAt } from "../../provider/model/overridesGuard";
import { CHART_DEFAULTS, vclusterFootprint } from "../../provider/model/vclusterFootprint";
import { quantityValue } from "../../provider/model/quantity";
import type { TenantSpec } from "../../provider/model/tenantSpec";
import { renderLimitRange } from "../../provider/render/limitRange";
import type { Manifest } from "../../provider/render/manifest";
import { renderResourceQuota } from "../../provider/render/resourceQuota";
import { renderVclusterValues } from "../../provider/render/vclusterValues";
import { missingForQuota, quotaUsage, withLimitRangeDefaults, type PodResources } from "./support/quotaAdmission";

/**
 * The vCluster's pods as the chart v0.36.1 renders them with the component's values: the control
 * plane's container takes the values' CPU and memory and the chart's ephemeral storage (1Gi
 * requested, CHART_DEFAULTS' limit), its distro init container the chart's CPU and memory only,
 * and CoreDNS the chart's CPU and memory only.
 */
function vclusterPods(spec: TenantSpec): PodResources[] {
  const values = renderVclusterValues(spec) as {
    controlPlane: { statefulSet: { resources: { limits: Record<string, string>; requests: Record<string, string> } } };
  };
  const { limits, requests } = values.controlPlane.statefulSet.resources;
  const controlPlane: PodResources = {
    containers: [
      {
        limits: { ...limits, "ephemeral-storage": CHART_DEFAULTS.controlPlaneEphemeralStorageLimit },
        requests: { ...requests, "ephemeral-storage": "1Gi" },
      },
    ],
    initContainers: [{ limits: { cpu: "100m", memory: "256Mi" }, requests: { cpu: "40m", memory: "64Mi" } }],
  };
  const coredns: PodResources = {
    containers: [{ limits: { ...CHART_DEFAULTS.corednsLimits }, requests: { cpu: "20m", memory: "64Mi" } }],
  };
  return [controlPlane, coredns];
}

const bareTeamPod: PodResources = { containers: [{}], initContainers: [{}] };

const spec = validateTenant("team-atlas", { owner: "alice@example.com" });
const ephemeralSpec = validateTenant("team-atlas", {
  owner: "alice@example.com",
  vcluster: {
    valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } },
  },
});
const quota = renderResourceQuota(spec);
const limitRange = renderLimitRange(spec);

describe("the default quota and LimitRange under the host's admission", () => {
  it("cap ephemeral storage as requests and limits", () => {
    expect((quota.spec as { hard: Record<string, string> }).hard).toMatchObject({
      "requests.ephemeral-storage": "32Gi",
      "limits.ephemeral-storage": "32Gi",
    });
  });

  it.each([
    ["the control plane (its init container declares no ephemeral storage)", vclusterPods(spec)[0]],
    ["CoreDNS (declares no ephemeral storage)", vclusterPods(spec)[1]],
    ["a team's pod that declares nothing", bareTeamPod],
  ])("admit %s: the LimitRange gives every container what the quota caps", (_, pod) => {
    expect(missingForQuota(withLimitRangeDefaults(pod, limitRange), quota)).toEqual([]);
  });

  it("would refuse the vCluster's pods without the LimitRange's ephemeral-storage defaults", () => {
    const withoutEphemeral = stripEphemeral(limitRange);
    const [controlPlane, coredns] = vclusterPods(spec).map((pod) => withLimitRangeDefaults(pod, withoutEphemeral));
    expect(missingForQuota(controlPlane, quota)).toEqual(["requests.ephemeral-storage", "limits.ephemeral-storage"]);
    expect(missingForQuota(coredns, quota)).toEqual(["requests.ephemeral-storage", "limits.ephemeral-storage"]);
  });

  it.each([
    ["with its data volume (a StatefulSet: no new control plane during an update)", spec, "14Gi"],
    ["without a data volume (a Deployment: a second control plane during an update)", ephemeralSpec, "24Gi"],
  ])(
    "admit the vCluster's pods at a rolling update's peak %s, counted as the footprint rule counts them",
    (_, tenant, ephemeralStorage) => {
      const quotaOfTenant = renderResourceQuota(tenant);
      const limitRangeOfTenant = renderLimitRange(tenant);
      const used = rolloutPeakPods(tenant)
        .map((pod) => quotaUsage(withLimitRangeDefaults(pod, limitRangeOfTenant), quotaOfTenant))
        .reduce((total, usage) => {
          for (const [key, value] of Object.entries(usage)) total[key] = (total[key] ?? 0) + value;
          return total;
        }, {});
      const footprint = vclusterFootprint(tenant).limits;
      expect(used["limits.cpu"]).toBe(footprint.cpu);
      expect(used["limits.memory"]).toBe(footprint.memory);
      expect(used["limits.ephemeral-storage"]).toBe(footprint.ephemeralStorage);
      // 10Gi each control plane, 2Gi each CoreDNS
      expect(footprint.ephemeralStorage).toBe(quantityValue(ephemeralStorage));
      const hard = (quotaOfTenant.spec as { hard: Record<string, string> }).hard;
      for (const [key, value] of Object.entries(used)) expect(value).toBeLessThanOrEqual(quantityValue(hard[key]));
    },
  );
});

/**
 * The pods a rolling update of the release has at once: the running ones and, beside each
 * Deployment's, one new pod (maxSurge 25% of one replica, rounded up). The control plane is a
 * Deployment when it keeps no volume.
 */
function rolloutPeakPods(tenant: TenantSpec): PodResources[] {
  const [controlPlane, coredns] = vclusterPods(tenant);
  const persistent = valueAt(
    tenant.vcluster.valuesOverrides,
    "controlPlane.statefulSet.persistence.volumeClaim.enabled",
  );
  return persistent === false ? [controlPlane, controlPlane, coredns, coredns] : [controlPlane, coredns, coredns];
}

/** `limitRange` without its ephemeral-storage defaults, as it was rendered before they were added. */
function stripEphemeral(limitRange: Manifest): Manifest {
  const strip = (list: Record<string, string>) =>
    Object.fromEntries(Object.entries(list).filter(([name]) => name !== "ephemeral-storage"));
  const items = (
    limitRange.spec as { limits: { default: Record<string, string>; defaultRequest: Record<string, string> }[] }
  ).limits;
  return {
    ...limitRange,
    spec: {
      limits: items.map((item) => ({
        ...item,
        default: strip(item.default),
        defaultRequest: strip(item.defaultRequest),
      })),
    },
  };
}
