/**
 * Pod Security "restricted" with the real vCluster chart: the test bed's API server enforces Pod
 * Security admission, so the chart's pods are admitted only because the component gives the
 * control plane (and its init container, and the virtual cluster's CoreDNS) security contexts that
 * comply; the control plane then runs as that non-root user (test/testbed/lib/vclusterRoot.sh
 * honours runAsUser/runAsGroup) and the tenant's kubeconfig opens its virtual cluster.
 */
import { OWNER_ANNOTATION, OWNER_LABEL } from "../../provider/model/names";
import { CoreV1Api } from "@kubernetes/client-node";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients } from "./support/hostCluster";
import { expectNothingLeft, forwardedKubeconfig, tenantNamespace } from "./support/tenantAssertions";
import { removeStack, tenantsStack } from "./support/tenantsStack";

const NAME = "e2e-restricted";
const namespace = tenantNamespace(NAME);
const { core } = hostClients();
let stack: Stack;

beforeAll(async () => {
  stack = await tenantsStack("pod-security", [
    { name: NAME, isolation: { podSecurity: "restricted" }, persistence: false },
  ]);
});

afterAll(() => removeStack(stack));

it("comes up under Pod Security restricted, its control plane running as non-root, and its kubeconfig works", async () => {
  const result = await stack.up();
  expect(result.summary.result).toBe("succeeded");
  const ns = await core.readNamespace({ name: namespace });
  expect(ns.metadata?.labels?.["pod-security.kubernetes.io/enforce"]).toBe("restricted");
  // The owner (the test program's `<name>@example.com`) as cost tools read it, and exactly.
  expect(ns.metadata?.labels?.[OWNER_LABEL]).toBe(`${NAME}_at_example.com`);
  expect(ns.metadata?.annotations?.[OWNER_ANNOTATION]).toBe(`${NAME}@example.com`);

  const [pod] = (await core.listNamespacedPod({ namespace, labelSelector: `app=vcluster,release=${NAME}` })).items;
  expect(pod.spec?.securityContext).toMatchObject({
    runAsNonRoot: true,
    runAsUser: 12345,
    seccompProfile: { type: "RuntimeDefault" },
  });
  expect(pod.spec?.containers.find((c) => c.name === "syncer")?.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    capabilities: { drop: ["ALL"] },
  });

  const kubeconfig: string = (await stack.outputs()).kubeconfigs.value[NAME];
  const names = (await forwardedKubeconfig(kubeconfig, NAME).makeApiClient(CoreV1Api).listNamespace()).items.map(
    (n) => n.metadata?.name,
  );
  expect(names).toEqual(expect.arrayContaining(["default", "kube-system"]));
});

it("is enforced: a root pod is refused in the tenant's host namespace", async () => {
  const root = {
    metadata: { name: "root" },
    spec: { containers: [{ name: "app", image: "busybox", securityContext: { runAsUser: 0 } }] },
  };
  await expect(core.createNamespacedPod({ namespace, body: root })).rejects.toThrow(
    /forbidden: violates PodSecurity \\*"restricted:latest\\*"/,
  );
});

it("leaves nothing after destroy", async () => {
  await stack.destroy();
  await expectNothingLeft(NAME);
});
