/**
 * The tenant's own virtual cluster, on the real pinned vCluster: the real chart renders the
 * component's values (persistence on: a StatefulSet whose data PVC the test bed's static
 * provisioner binds), and the real control plane runs for its pod (test/testbed/lib/vclusterPod.sh)
 * with the release's ServiceAccount token. The tenant's kubeconfig opens that virtual cluster;
 * workloads created inside it run on the host under the tenant's quota and LimitRange; destroy
 * leaves nothing of it. The tests run in order and share one stack.
 */
import { AppsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api, type V1Pod } from "@kubernetes/client-node";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESTRICTED_CONTAINER_SECURITY, RESTRICTED_POD_SECURITY } from "../../provider/render/vclusterValues";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import { expectNothingLeft, forwardedKubeconfig, readWorkload, tenantNamespace } from "./support/tenantAssertions";
import { removeStack, tenantsStack, type TenantDecl } from "./support/tenantsStack";
import { testbedEnv, vclusterEndpoint } from "./support/testbed";

// Ephemeral storage for the control plane's 10Gi, CoreDNS and the four pods below at the LimitRange's 2Gi.
const TENANT: TenantDecl = {
  name: "e2e-vc",
  resources: { cpu: "6", memory: "8Gi", storage: "10Gi", ephemeralStorage: "30Gi", pods: 10 },
};
const hostNs = tenantNamespace(TENANT.name);
const { core, config } = hostClients();
const rbac = config.makeApiClient(RbacAuthorizationV1Api);

let stack: Stack;
let tenant: KubeConfig;

/** Host pods the syncer made from the tenant's virtual pods in namespace `virtualNs`. */
async function syncedPods(virtualNs: string): Promise<V1Pod[]> {
  const pods = await core.listNamespacedPod({ namespace: hostNs });
  return pods.items.filter((p) => p.metadata?.name?.endsWith(`-x-${virtualNs}-x-${TENANT.name}`));
}

beforeAll(async () => {
  stack = await tenantsStack("virtual-cluster", [TENANT]);
  const result = await stack.up();
  expect(result.summary.result).toBe("succeeded");
  const outputs = await stack.outputs();
  tenant = forwardedKubeconfig(outputs.kubeconfigs.value[TENANT.name], TENANT.name);
});

afterAll(() => removeStack(stack));

describe("the tenant's virtual cluster", () => {
  it("runs the real chart's StatefulSet, its data claim bound to a test-bed volume", async () => {
    const workload = await readWorkload(TENANT.name);
    expect(workload.kind ?? "StatefulSet").toBe("StatefulSet");
    const claim = await core.readNamespacedPersistentVolumeClaim({ name: `data-${TENANT.name}-0`, namespace: hostNs });
    expect(claim.status?.phase).toBe("Bound");
    // The chart's ServiceAccount token is all the control plane holds: no access to the host's namespaces.
    const secret = await core.readNamespacedSecret({ name: `vc-${TENANT.name}`, namespace: hostNs });
    expect(secret.metadata?.ownerReferences?.map((o) => `${o.kind}/${o.name}`)).toContain(`Service/${TENANT.name}`);
  });

  it("lists the virtual cluster's namespaces with the tenant's kubeconfig, and not the host's", async () => {
    const virtual = tenant.makeApiClient(CoreV1Api);
    const names = (await virtual.listNamespace()).items.map((n) => n.metadata?.name);
    expect(names).toEqual(expect.arrayContaining(["default", "kube-system", "kube-public"]));
    expect(names).not.toContain(hostNs);
    await expect(virtual.readNamespace({ name: hostNs })).rejects.toMatchObject({ code: 404 });
  });

  it("cannot read the host with the tenant's credentials", async () => {
    const onHost = new KubeConfig();
    onHost.loadFromString(tenant.exportConfig());
    onHost.clusters = [
      {
        ...onHost.getCurrentCluster()!,
        server: testbedEnv().KUBESPACES_TESTBED_SERVER,
        skipTLSVerify: true,
        tlsServerName: undefined,
        caData: undefined,
      },
    ];
    await expect(onHost.makeApiClient(CoreV1Api).listNamespace()).rejects.toMatchObject({ code: 401 });
  });

  /** Creates Deployment `name` inside the tenant, its pod template's one container taking `resources`. */
  async function deployInside(name: string, replicas: number, resources?: Record<string, Record<string, string>>) {
    const labels = { app: name };
    const container = {
      name,
      image: "nginx",
      securityContext: RESTRICTED_CONTAINER_SECURITY,
      ...(resources && { resources }),
    };
    await tenant.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace: "default",
      body: {
        metadata: { name },
        spec: {
          replicas,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { securityContext: RESTRICTED_POD_SECURITY, containers: [container] },
          },
        },
      },
    });
  }

  /** The synced host pods of Deployment `name`, once `count` of them are Ready on the host. */
  async function readyOnHost(name: string, count: number): Promise<V1Pod[]> {
    let pods: V1Pod[] = [];
    const ready = (p: V1Pod) => p.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");
    await eventually(
      async () => {
        pods = (await syncedPods("default")).filter((p) => p.metadata?.name?.startsWith(`${name}-`));
        return pods.length === count && pods.every(ready);
      },
      120_000,
      `${count} synced pods of ${name} Ready on the host`,
    );
    return pods;
  }

  it("syncs a Deployment's pods into the host namespace under translated names, scheduled by the host scheduler under the quota and the LimitRange defaults, Ready through KWOK", async () => {
    // No resources inside the tenant: the host's LimitRange gives the defaults. (Inside the tenant
    // these pods then stay Pending: vCluster 0.36.1 on a host >= 1.35 resizes the host pod back to
    // the virtual pod's resources whenever they differ, pkg/controllers/resources/pods/syncer.go
    // resizeHostPodContainerResourcesInPlace, and the host refuses that resize; see test/testbed/README.md.)
    await deployInside("web", 2);
    for (const pod of await readyOnHost("web", 2)) {
      expect(pod.metadata?.name).toMatch(new RegExp(`^web-[a-z0-9]+-[a-z0-9]+-x-default-x-${TENANT.name}$`));
      expect(pod.spec?.nodeName).toBe("kwok-node-0");
      expect(pod.spec?.containers[0].resources).toEqual({
        limits: { cpu: "1", memory: "1Gi", "ephemeral-storage": "2Gi" },
        requests: { cpu: "100m", memory: "128Mi", "ephemeral-storage": "256Mi" },
      });
    }
    const quota = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace: hostNs });
    expect(quota.status?.used?.pods).toBe("4"); // control plane, CoreDNS, the two web pods
  });

  it("reports a Deployment that declares its resources Ready inside the tenant", async () => {
    // Every resource the host's quota caps, ephemeral storage too: else the host's LimitRange adds
    // it, and the synced pod's resources differ from the virtual pod's (see the test above).
    const resources = {
      requests: { cpu: "100m", memory: "64Mi", "ephemeral-storage": "256Mi" },
      limits: { cpu: "500m", memory: "256Mi", "ephemeral-storage": "1Gi" },
    };
    await deployInside("api", 1, resources);
    const [pod] = await readyOnHost("api", 1);
    expect(pod.spec?.containers[0].resources).toEqual(resources);
    const apps = tenant.makeApiClient(AppsV1Api);
    await eventually(
      async () =>
        (await apps.readNamespacedDeployment({ name: "api", namespace: "default" })).status?.readyReplicas === 1,
      120_000,
      "api to be ready inside the tenant",
    );
  });

  it("keeps a virtual pod over the host quota Pending inside the tenant, and the syncer says why", async () => {
    const virtual = tenant.makeApiClient(CoreV1Api);
    const tooBig = { limits: { cpu: "3", memory: "1Gi" }, requests: { cpu: "1", memory: "128Mi" } };
    await virtual.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "too-big" },
        spec: {
          securityContext: RESTRICTED_POD_SECURITY,
          containers: [
            { name: "app", image: "busybox", securityContext: RESTRICTED_CONTAINER_SECURITY, resources: tooBig },
          ],
        },
      },
    });
    let why = "";
    await eventually(
      async () => {
        const events = await virtual.listNamespacedEvent({
          namespace: "default",
          fieldSelector: "involvedObject.name=too-big",
        });
        why = events.items.map((e) => `${e.reason}: ${e.message}`).find((m) => m.includes("exceeded quota")) ?? "";
        return why !== "";
      },
      120_000,
      "an event on the virtual pod naming the exceeded quota",
    );
    expect(why).toMatch(/^SyncError: .*exceeded quota: kubespaces-quota/);
    expect((await virtual.readNamespacedPod({ name: "too-big", namespace: "default" })).status?.phase).toBe("Pending");
    expect((await syncedPods("default")).map((p) => p.metadata?.name)).not.toContain(
      `too-big-x-default-x-${TENANT.name}`,
    );
  });

  it("destroy leaves nothing: synced pods and services, claims and volumes, release Secrets, cluster-scoped objects, the control plane", async () => {
    const endpoint = vclusterEndpoint(hostNs, TENANT.name);
    expect(endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await stack.destroy();
    await expectNothingLeft(TENANT.name);
    expect((await core.listPodForAllNamespaces({ fieldSelector: `metadata.namespace=${hostNs}` })).items).toEqual([]);
    expect((await core.listServiceForAllNamespaces({ fieldSelector: `metadata.namespace=${hostNs}` })).items).toEqual(
      [],
    );
    expect(
      (await core.listPersistentVolumeClaimForAllNamespaces({ fieldSelector: `metadata.namespace=${hostNs}` })).items,
    ).toEqual([]);
    await eventually(
      async () => (await core.listPersistentVolume()).items.every((pv) => pv.spec?.claimRef?.namespace !== hostNs),
      60_000,
      "the test bed's volume for the data claim to be reclaimed",
    );
    for (const list of [
      () => rbac.listClusterRole({ labelSelector: `release=${TENANT.name}` }),
      () => rbac.listClusterRoleBinding({ labelSelector: `release=${TENANT.name}` }),
    ]) {
      expect((await list()).items).toEqual([]);
    }
    await eventually(
      async () => {
        try {
          vclusterEndpoint(hostNs, TENANT.name);
          return false;
        } catch {
          return true;
        }
      },
      60_000,
      "the control plane to be stopped",
    );
    expect(await readOrUndefined(() => core.readNamespace({ name: hostNs }))).toBeUndefined();
  });
});
