/**
 * The tenant lifecycle on the real engine and the test bed's real API server: preview, up,
 * admission under quota and LimitRange, secrets in state, updates, refresh, removal, destroy.
 * The tests run in order and share one stack.
 */
import { SchedulingV1Api } from "@kubernetes/client-node";
import type { Stack } from "@pulumi/pulumi/automation";
import { VCLUSTER_MARKER_LABEL, vclusterMarker } from "../../provider/lifecycle/cleanup/vclusterMarker";
import { RESTRICTED_CONTAINER_SECURITY, RESTRICTED_POD_SECURITY } from "../../provider/render/vclusterValues";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changes,
  removeStack,
  setTenants,
  stepRecorder,
  storedStateText,
  tenantsStack,
  type TenantDecl,
} from "./support/tenantsStack";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import {
  expectNoPlaintextKubeconfig,
  expectNothingLeft,
  expectReadyStatus,
  expectTenantOnHost,
  expectWorkingKubeconfig,
  readWorkload,
} from "./support/tenantAssertions";
import { PLATFORM_DEFAULT_QUOTA } from "../expected/platformDefaultQuota";

const exposure = { baseDomain: "kubespaces.test", issuerRef: { name: "kubespaces-testbed-selfsigned" } };
const atlas: TenantDecl = {
  name: "e2e-atlas",
  resources: { cpu: "4", memory: "8Gi", storage: "10Gi", pods: 10 },
  exposure,
};
// Persistence off: the chart's Deployment variant (atlas has the default StatefulSet).
const borealis: TenantDecl = { name: "e2e-borealis", resources: { cpu: "4", memory: "5Gi" }, persistence: false };
const atlasNs = "kubespaces-tenant-e2e-atlas";
const borealisNs = "kubespaces-tenant-e2e-borealis";

let stack: Stack;
const { core, objects, config } = hostClients();
const scheduling = config.makeApiClient(SchedulingV1Api);

const namespaceGone = (name: string) => async () =>
  (await readOrUndefined(() => core.readNamespace({ name }))) === undefined;

beforeAll(async () => {
  stack = await tenantsStack("lifecycle", [atlas, borealis]);
});

afterAll(() => removeStack(stack));

describe("tenant lifecycle", () => {
  it("previews every child of each tenant and creates nothing", async () => {
    const { steps, record } = stepRecorder();
    await stack.preview({ onEvent: record });
    const created = steps.filter((s) => s.op === "create" && s.name.startsWith("e2e-atlas")).map((s) => s.name);
    expect(created.sort()).toEqual(
      [
        "e2e-atlas",
        "e2e-atlas-namespace",
        "e2e-atlas-quota",
        "e2e-atlas-limit-range",
        "e2e-atlas-network-policy",
        "e2e-atlas-control-plane-network-policy",
        "e2e-atlas-api-reference-grant",
        "e2e-atlas-api-route",
        "e2e-atlas-apps-certificate",
        "e2e-atlas-apps-listener-set",
        "e2e-atlas-cleanup",
        "e2e-atlas-vcluster",
        "e2e-atlas-readiness",
        "e2e-atlas-host-check",
      ].sort(),
    );
    expect(await namespaceGone(atlasNs)()).toBe(true);
  });

  it("creates every object with its spec, and returns only once the virtual cluster is ready", async () => {
    const result = await stack.up();
    expect(result.summary.result).toBe("succeeded");

    await expectTenantOnHost("e2e-atlas", "e2e-atlas@example.com", {
      "requests.cpu": "4",
      "limits.cpu": "4",
      "requests.memory": "8Gi",
      "limits.memory": "8Gi",
      "requests.storage": "10Gi",
      ...PLATFORM_DEFAULT_QUOTA,
      pods: "10",
    });
    const route = await objects.read({
      apiVersion: "gateway.networking.k8s.io/v1",
      kind: "TLSRoute",
      metadata: { name: "kubespaces-e2e-atlas-api", namespace: "kubespaces-gateway" },
    });
    expect((route as any).spec.hostnames).toEqual(["e2e-atlas.api.kubespaces.test"]);

    const outputs = await stack.outputs();
    expect(outputs.apiServerUrls.value["e2e-atlas"]).toBe("https://e2e-atlas.api.kubespaces.test:443");
    expect(outputs.appsDomains.value["e2e-atlas"]).toBe("e2e-atlas.apps.kubespaces.test");
    expect(outputs.apiServerUrls.value["e2e-borealis"]).toBe(`https://e2e-borealis.${borealisNs}.svc:443`);
    expectReadyStatus(outputs.statuses.value["e2e-atlas"]);
    expect(outputs.kubeconfigSecretRefs.value["e2e-atlas"]).toEqual({
      namespace: atlasNs,
      name: "vc-e2e-atlas",
      key: "config",
    });
  });

  it("gives a pod without limits the LimitRange defaults and rejects one over the quota", async () => {
    // Non-root, as Pod Security "restricted" (the default level) admits only.
    const pod = (name: string, resources?: Record<string, unknown>) => ({
      metadata: { name },
      spec: {
        securityContext: RESTRICTED_POD_SECURITY,
        containers: [
          {
            name: "app",
            image: "busybox",
            securityContext: RESTRICTED_CONTAINER_SECURITY,
            ...(resources && { resources }),
          },
        ],
      },
    });
    const admitted = await core.createNamespacedPod({ namespace: atlasNs, body: pod("no-limits") });
    expect(admitted.spec?.containers[0].resources).toEqual({
      limits: { cpu: "1", memory: "1Gi", "ephemeral-storage": "2Gi" },
      requests: { cpu: "100m", memory: "128Mi", "ephemeral-storage": "256Mi" },
    });
    const tooBig = pod("too-big", { limits: { cpu: "64", memory: "1Gi" }, requests: { cpu: "1", memory: "128Mi" } });
    await expect(core.createNamespacedPod({ namespace: atlasNs, body: tooBig })).rejects.toThrow(/exceeded quota/);
    await core.deleteNamespacedPod({ name: "no-limits", namespace: atlasNs, gracePeriodSeconds: 0 });
  });

  it("keeps the kubeconfig secret in state, and the kubeconfig works", async () => {
    const outputs = await stack.outputs();
    expect(outputs.kubeconfigs.secret).toBe(true);
    const kubeconfig: string = outputs.kubeconfigs.value["e2e-atlas"];
    expectNoPlaintextKubeconfig(storedStateText(stack), kubeconfig);
    await expectWorkingKubeconfig(kubeconfig, "e2e-atlas", "https://e2e-atlas.api.kubespaces.test:443");
  });

  it("refreshes right after up without changes", async () => {
    const refreshed = await stack.refresh();
    expect(refreshed.summary.resourceChanges).not.toHaveProperty("update");
    const { steps, record } = stepRecorder();
    await stack.preview({ onEvent: record });
    expect(changes(steps)).toEqual([]);
  });

  it("updates only the ResourceQuota when the CPU quota changes", async () => {
    await setTenants(stack, [{ ...atlas, resources: { ...atlas.resources, cpu: "6" } }, borealis]);
    const { steps, record } = stepRecorder();
    await stack.preview({ onEvent: record });
    expect(changes(steps)).toEqual([
      { op: "update", type: "kubernetes:core/v1:ResourceQuota", name: "e2e-atlas-quota" },
    ]);
    await stack.up();
    const quota = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace: atlasNs });
    expect(quota.spec?.hard?.["limits.cpu"]).toBe("6");
  });

  it("upgrades the release and waits again when the Kubernetes version changes", async () => {
    await setTenants(stack, [
      { ...atlas, resources: { ...atlas.resources, cpu: "6" }, kubernetesVersion: "v1.35.2" },
      borealis,
    ]);
    const { steps, record } = stepRecorder();
    await stack.up({ onEvent: record });
    const changed = changes(steps).map((s) => `${s.op} ${s.name}`);
    expect(changed).toContain("update e2e-atlas-vcluster");
    expect(changed).toContain("update e2e-atlas-readiness");
    const workload = await readWorkload("e2e-atlas");
    expect(JSON.stringify(workload.spec?.template)).toContain("v1.35.2");
  });

  it("removes only the objects of a tenant dropped from the program", async () => {
    await setTenants(stack, [{ ...atlas, resources: { ...atlas.resources, cpu: "6" }, kubernetesVersion: "v1.35.2" }]);
    const { steps, record } = stepRecorder();
    await stack.up({ onEvent: record });
    const deleted = changes(steps).filter((s) => s.op === "delete");
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((s) => s.name.startsWith("e2e-borealis"))).toBe(true);
    await eventually(namespaceGone(borealisNs), 120_000, `namespace ${borealisNs} to be gone`);
    expect(await namespaceGone(atlasNs)()).toBe(false);
  });

  it("destroys everything: the certificate Secret in the gateway namespace and synced PriorityClasses included", async () => {
    // The Secret the test bed's cert-manager issued for the apps certificate: it outlives the Certificate.
    const certificateSecret = { namespace: "kubespaces-gateway", name: "kubespaces-e2e-atlas-apps-tls" };
    await eventually(
      async () => (await readOrUndefined(() => core.readNamespacedSecret(certificateSecret))) !== undefined,
      60_000,
      "cert-manager to issue the apps certificate's Secret",
    );
    // A PriorityClass the running vCluster would have synced to the host, marked as it marks them.
    await scheduling.createPriorityClass({
      body: {
        metadata: {
          name: "e2e-atlas-synced",
          labels: { [VCLUSTER_MARKER_LABEL]: vclusterMarker(atlasNs, "e2e-atlas") },
        },
        value: 1000,
      },
    });
    await stack.destroy();
    await expectNothingLeft("e2e-atlas");
    expect(await readOrUndefined(() => scheduling.readPriorityClass({ name: "e2e-atlas-synced" }))).toBeUndefined();
  });
});
