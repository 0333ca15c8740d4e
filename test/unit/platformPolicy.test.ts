/** How the platform's policy fills in and bounds a team's request. */
import { describe, expect, it } from "vitest";
import { renderTenant, validateRequest } from "../../provider/index";
import { renderNetworkPolicy } from "../../provider/render/networkPolicy";
import { renderResourceQuota } from "../../provider/render/resourceQuota";
import { allows, allowsAmong, type Peer } from "./support/networkPolicyEvaluator";
import { VCLUSTER_CHART_VERSION } from "../../provider/model/vclusterChart";

const platform = {
  namespacePrefix: "teams-",
  podSecurity: { default: "restricted" as const },
  quota: { default: { cpu: "3", memory: "4Gi", storage: "10Gi", secrets: 50 }, ceilings: { cpu: "8", pods: 30 } },
  controlPlaneDefaults: { limits: { cpu: "500m", memory: "1Gi" } },
};

describe("a request under the platform's policy", () => {
  const spec = validateRequest("team-atlas", { owner: "alice@example.com" }, platform);

  it("gets the platform's quota defaults for what it leaves out", () => {
    expect(spec.resources).toEqual({
      cpu: "3",
      memory: "4Gi",
      storage: "10Gi",
      ephemeralStorage: "32Gi",
      pods: 30, // the default of 50, held to the ceiling
      services: 20,
      persistentVolumeClaims: 20,
      secrets: 50,
      configMaps: 100,
      servicesNodePorts: 0,
      servicesLoadBalancers: 0,
    });
  });

  it("gets the platform's namespace, pod security level and control-plane defaults", () => {
    expect(spec.namespace).toBe("teams-team-atlas");
    expect(spec.isolation).toEqual({ networkPolicy: true, podSecurity: "restricted" });
    expect(spec.vcluster.controlPlaneResources).toEqual({
      limits: { cpu: "500m", memory: "1Gi" },
      requests: { cpu: "200m", memory: "256Mi" },
    });
  });

  it("keeps what it asks for within the ceilings", () => {
    const asked = validateRequest(
      "team-atlas",
      { owner: "a", resources: { cpu: "8", pods: 12 }, isolation: { podSecurity: "baseline" } },
      platform,
    );
    expect(asked.resources).toMatchObject({ cpu: "8", pods: 12 });
    expect(asked.isolation.podSecurity).toBe("baseline");
  });

  it("takes only the platform's chart, gateway and switches, never the request's", () => {
    expect(spec.vcluster.chart).toEqual({
      repository: "https://charts.loft.sh",
      name: "vcluster",
      version: VCLUSTER_CHART_VERSION,
    });
    expect(spec.vcluster.allowUnsafeOverrides).toBe(false);
    expect(spec.exposure).toBeUndefined();
  });
});

describe("NodePort and LoadBalancer Services", () => {
  const quotaOf = (request: Record<string, unknown>, policy: Record<string, unknown> = {}) =>
    renderResourceQuota(validateRequest("team-atlas", { owner: "a", ...request }, policy)).spec as {
      hard: Record<string, string>;
    };

  it("are blocked by default: the quota allows none of them", () => {
    expect(quotaOf({}).hard).toMatchObject({ "services.nodeports": "0", "services.loadbalancers": "0" });
  });

  it("cannot be asked for unless the platform raises its ceiling", () => {
    expect(() => validateRequest("team-atlas", { owner: "a", resources: { servicesNodePorts: 2 } })).toThrow(
      "resources.servicesNodePorts: 2 is above the platform's ceiling (platform.quota.ceilings.servicesNodePorts: 0)",
    );
    expect(() => validateRequest("team-atlas", { owner: "a", resources: { servicesLoadBalancers: 1 } })).toThrow(
      "resources.servicesLoadBalancers: 1 is above the platform's ceiling (platform.quota.ceilings.servicesLoadBalancers: 0)",
    );
    const allowed = { quota: { ceilings: { servicesNodePorts: 2, servicesLoadBalancers: 1 } } };
    expect(quotaOf({ resources: { servicesNodePorts: 2, servicesLoadBalancers: 1 } }, allowed).hard).toMatchObject({
      "services.nodeports": "2",
      "services.loadbalancers": "1",
    });
    expect(quotaOf({}, allowed).hard).toMatchObject({ "services.nodeports": "0", "services.loadbalancers": "0" });
  });
});

describe("the chart's schema", () => {
  const wrongType = { owner: "a", vcluster: { valuesOverrides: { controlPlane: { coredns: { enabled: "yes" } } } } };

  it("checks the values of the chart version whose schema is vendored", () => {
    expect(() => validateRequest("team-atlas", wrongType)).toThrow("chart's schema rejects");
  });

  it("leaves another chart version's values to Helm, having no schema for it", () => {
    expect(() => validateRequest("team-atlas", wrongType, { chart: { version: "0.37.0" } })).not.toThrow();
  });
});

describe("the platform's network ranges", () => {
  const gatewayPod = (labels: Record<string, string>): Peer => ({
    pod: {
      namespace: "kubespaces-gateway",
      ip: "10.1.0.5",
      labels,
      namespaceLabels: { "kubernetes.io/metadata.name": "kubespaces-gateway" },
    },
  });
  const narrowedSpec = validateRequest(
    "team-atlas",
    { owner: "a" },
    {
      exposure: { baseDomain: "example.com", issuerRef: { name: "le" } },
      network: { apiServerCidrs: ["10.0.0.1/32"], apiServerPorts: [6443], gatewayPodLabels: { app: "envoy" } },
    },
  );
  const narrowed = renderNetworkPolicy(narrowedSpec);
  const policies = renderTenant(narrowedSpec)
    .objects.map((object) => object.manifest)
    .filter((manifest) => manifest.kind === "NetworkPolicy");
  const controlPlane = { app: "vcluster", release: "team-atlas" };

  it.each([
    ["the API server the platform names", { ip: "10.0.0.1" }, 6443, true],
    ["another private address on the API server's port", { ip: "10.0.0.2" }, 6443, false],
    ["another private address on 443", { ip: "10.5.6.7" }, 443, false],
    ["the API server on a port the platform did not name", { ip: "10.0.0.1" }, 443, false],
  ])("the control plane's egress to %s: allowed %s", (_what, peer, port, allowed) => {
    expect(allowsAmong(policies, controlPlane, { direction: "Egress", peer, protocol: "TCP", port })).toBe(allowed);
  });

  it("admits only the gateway's pods the platform names", () => {
    expect(
      allows(narrowed, { direction: "Ingress", peer: gatewayPod({ app: "envoy" }), protocol: "TCP", port: 8443 }),
    ).toBe(true);
    expect(
      allows(narrowed, { direction: "Ingress", peer: gatewayPod({ app: "debug-shell" }), protocol: "TCP", port: 8443 }),
    ).toBe(false);
  });
});
