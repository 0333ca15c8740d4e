/**
 * The vCluster values: what the component sets, how overrides merge, and that every values object
 * validates against the chart's own values.schema.json (vendored under third_party/).
 */
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { mergeHelmValues } from "../../provider/render/helmMerge";
import { renderVclusterValues } from "../../provider/render/vclusterValues";
import { SAFE_OVERRIDE_PATHS, validateTenant } from "../../provider/index";
import { readVendoredJson } from "./support/vendoredData";
import { VENDORED_CHART_SCHEMA } from "../../provider/model/vclusterChart";

const chartSchema = readVendoredJson(VENDORED_CHART_SCHEMA) as { $defs: Record<string, unknown> };
const validateValues = new Ajv2020({ strict: false, allErrors: true }).compile(chartSchema);

const valuesFor = (args: Record<string, unknown>) =>
  renderVclusterValues(validateTenant("team-atlas", { owner: "alice", ...args }));
const exposure = { baseDomain: "kubespaces.example.com", issuerRef: { name: "le" } };

/** A quota with room for three control-plane replicas. */
const ROOM_FOR_THREE = { cpu: "8", memory: "16Gi", ephemeralStorage: "64Gi" };

const representative: Record<string, Record<string, unknown>> = {
  defaults: {},
  exposed: { platform: { exposure } },
  "another Kubernetes version": { vcluster: { kubernetesVersion: "1.35.2" } },
  "safe overrides": {
    vcluster: {
      valuesOverrides: {
        controlPlane: {
          statefulSet: { persistence: { volumeClaim: { enabled: false } } },
          coredns: { enabled: false },
        },
        sync: { toHost: { persistentVolumeClaims: { enabled: true } } },
        telemetry: { enabled: false },
      },
    },
  },
  asleep: {
    sleep: true,
    resources: ROOM_FOR_THREE,
    vcluster: { valuesOverrides: { controlPlane: { statefulSet: { highAvailability: { replicas: 3 } } } } },
  },
  "admin overrides": {
    platform: { allowUnsafeOverrides: true },
    vcluster: { valuesOverrides: { rbac: { clusterRole: { enabled: true } } } },
  },
};

describe("vCluster values", () => {
  it.each(Object.entries(representative))("validate against the chart schema: %s", (_, args) => {
    const values = valuesFor(args);
    expect(validateValues(values), JSON.stringify(validateValues.errors)).toBe(true);
  });

  it("set the public hostname in the SANs and the exported kubeconfig when exposed", () => {
    const values = valuesFor({ platform: { exposure } }) as any;
    expect(values.controlPlane.proxy.extraSANs).toContain("team-atlas.api.kubespaces.example.com");
    expect(values.exportKubeConfig).toEqual({
      server: "https://team-atlas.api.kubespaces.example.com:443",
      context: "team-atlas",
    });
  });

  it("cover the in-cluster Service name in the SANs when not exposed", () => {
    const values = valuesFor({}) as any;
    expect(values.controlPlane.proxy.extraSANs).toEqual([
      "team-atlas.kubespaces-tenant-team-atlas.svc",
      "team-atlas.kubespaces-tenant-team-atlas.svc.cluster.local",
    ]);
  });

  it("scale a sleeping tenant's control plane to zero, whatever its overrides ask, and keep its volume", () => {
    const overrides = { controlPlane: { statefulSet: { highAvailability: { replicas: 3 } } } };
    const asleep = (
      valuesFor({ sleep: true, resources: ROOM_FOR_THREE, vcluster: { valuesOverrides: overrides } }) as any
    ).controlPlane.statefulSet;
    expect(asleep.highAvailability.replicas).toBe(0);
    expect(asleep.persistence.volumeClaim).toEqual({ retentionPolicy: "Delete" });
    const awake = (
      valuesFor({ sleep: false, resources: ROOM_FOR_THREE, vcluster: { valuesOverrides: overrides } }) as any
    ).controlPlane.statefulSet;
    expect(awake.highAvailability.replicas).toBe(3);
    expect((valuesFor({}) as any).controlPlane.statefulSet.highAvailability).toBeUndefined();
  });

  it("give the control plane an explicit CPU limit and delete its PVC with the StatefulSet", () => {
    const statefulSet = (valuesFor({}) as any).controlPlane.statefulSet;
    expect(statefulSet.resources.limits.cpu).toBe("1");
    expect(statefulSet.persistence.volumeClaim.retentionPolicy).toBe("Delete");
  });

  it("set the Kubernetes version as the distro image tag, with a leading v", () => {
    expect((valuesFor({ vcluster: { kubernetesVersion: "1.35.2" } }) as any).controlPlane.distro.k8s.image.tag).toBe(
      "v1.35.2",
    );
  });

  it("run the control plane and CoreDNS non-root under the default level, restricted, and leave them to the chart under baseline", () => {
    const restricted = (valuesFor({}) as any).controlPlane;
    expect(restricted.statefulSet.security.podSecurityContext).toMatchObject({ runAsNonRoot: true });
    expect(restricted.coredns.security.containerSecurityContext).toMatchObject({ capabilities: { drop: ["ALL"] } });
    const baseline = (valuesFor({ isolation: { podSecurity: "baseline" } }) as any).controlPlane;
    expect(baseline.statefulSet.security).toBeUndefined();
    expect(baseline.coredns).toBeUndefined();
  });

  it("keep the chart's own quota, LimitRange and NetworkPolicy off", () => {
    expect((valuesFor({}) as any).policies).toEqual({
      resourceQuota: { enabled: false },
      limitRange: { enabled: false },
      networkPolicy: { enabled: false },
    });
  });

  it("let overrides win over the component's values", () => {
    const values = valuesFor({
      platform: { allowUnsafeOverrides: true },
      vcluster: { valuesOverrides: { controlPlane: { statefulSet: { resources: { limits: { memory: "3Gi" } } } } } },
    }) as any;
    expect(values.controlPlane.statefulSet.resources.limits).toEqual({ cpu: "1", memory: "3Gi" });
  });
});

describe("mergeHelmValues", () => {
  it("merges maps, replaces lists and scalars, and removes keys set to null", () => {
    const base = { a: { list: [1, 2], keep: 1, drop: 2 }, scalar: "x" };
    const merged = mergeHelmValues(base, { a: { list: [3], drop: null, added: true }, scalar: "y" });
    expect(merged).toEqual({ a: { list: [3], keep: 1, added: true }, scalar: "y" });
    expect(base).toEqual({ a: { list: [1, 2], keep: 1, drop: 2 }, scalar: "x" });
  });
});

describe("SAFE_OVERRIDE_PATHS", () => {
  const schemaHasPath = (path: string): boolean => {
    let node: any = chartSchema;
    for (const key of path.split(".")) {
      while (node.$ref) node = chartSchema.$defs[node.$ref.replace("#/$defs/", "")];
      node = node.properties?.[key];
      if (!node) return false;
    }
    return true;
  };

  it.each(SAFE_OVERRIDE_PATHS)("names a path of the chart's values: %s", (path) => {
    expect(schemaHasPath(path)).toBe(true);
  });
});
