/** How the platform's policy fills in and bounds a team's request. */
import { describe, expect, it } from "vitest";
import { validateRequest } from "../../provider/index";

const platform = {
  namespacePrefix: "teams-",
  podSecurity: { default: "restricted" as const },
  quota: { default: { cpu: "2", memory: "4Gi", storage: "10Gi", secrets: 50 }, ceilings: { cpu: "8", pods: 30 } },
  controlPlaneDefaults: { limits: { cpu: "500m", memory: "1Gi" } },
};

describe("a request under the platform's policy", () => {
  const spec = validateRequest("team-atlas", { owner: "alice@example.com" }, platform);

  it("gets the platform's quota defaults for what it leaves out", () => {
    expect(spec.resources).toEqual({ cpu: "2", memory: "4Gi", storage: "10Gi", secrets: 50, pods: 30 });
  });

  it("gets the platform's namespace, pod security level and control-plane defaults", () => {
    expect(spec.namespace).toBe("teams-team-atlas");
    expect(spec.isolation).toEqual({ networkPolicy: true, podSecurity: "restricted" });
    expect(spec.vcluster.controlPlaneResources).toEqual({ limits: { cpu: "500m", memory: "1Gi" }, requests: { cpu: "200m", memory: "256Mi" } });
  });

  it("keeps what it asks for within the ceilings", () => {
    const asked = validateRequest("team-atlas", { owner: "a", resources: { cpu: "8", pods: 12 }, isolation: { podSecurity: "baseline" } }, platform);
    expect(asked.resources).toMatchObject({ cpu: "8", pods: 12 });
    expect(asked.isolation.podSecurity).toBe("baseline");
  });

  it("takes only the platform's chart, gateway and switches, never the request's", () => {
    expect(spec.vcluster.chart).toEqual({ repository: "https://charts.loft.sh", name: "vcluster", version: "0.36.1" });
    expect(spec.vcluster.allowUnsafeOverrides).toBe(false);
    expect(spec.exposure).toBeUndefined();
  });
});

describe("the chart's schema", () => {
  const wrongType = { owner: "a", vcluster: { valuesOverrides: { controlPlane: { statefulSet: { highAvailability: { replicas: "three" } } } } } };

  it("checks the values of the chart version whose schema is vendored", () => {
    expect(() => validateRequest("team-atlas", wrongType)).toThrow("chart's schema rejects");
  });

  it("leaves another chart version's values to Helm, having no schema for it", () => {
    expect(() => validateRequest("team-atlas", wrongType, { chart: { version: "0.37.0" } })).not.toThrow();
  });
});
