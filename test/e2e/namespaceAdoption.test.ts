/**
 * A tenant never takes over a namespace it did not create: the Kubernetes provider 4.25 creates
 * by server-side apply, which would silently adopt it (and a later destroy would delete it). The
 * host check, which the namespace waits for, refuses it before anything is created.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { removeStack, tenantsStack } from "./support/tenantsStack";

const TENANT = "e2e-adopter";
const NAMESPACE = `kubespaces-tenant-${TENANT}`;
let stack: Stack;

beforeAll(async () => {
  const { core } = hostClients();
  await core.createNamespace({ body: { metadata: { name: NAMESPACE, labels: { team: "someone-else" } } } });
  await core.createNamespacedConfigMap({
    namespace: NAMESPACE,
    body: { metadata: { name: "precious" }, data: { keep: "me" } },
  });
  stack = await tenantsStack("namespace-adoption", [{ name: TENANT }]);
});

afterAll(async () => {
  await removeStack(stack);
  await hostClients().core.deleteNamespace({ name: NAMESPACE });
});

it("refuses an existing namespace that is not the tenant's, and leaves it untouched", async () => {
  const failed = await stack.up().then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed?.message).toContain(
    `namespace ${NAMESPACE} already exists and has no kubespaces.io/tenant label; tenant ${TENANT} will not take it over`,
  );

  const { core } = hostClients();
  const namespace = await core.readNamespace({ name: NAMESPACE });
  expect(namespace.metadata?.labels).toEqual({ team: "someone-else", "kubernetes.io/metadata.name": NAMESPACE });
  expect(namespace.metadata?.annotations?.["kubespaces.io/owner"]).toBeUndefined();
  expect((await core.readNamespacedConfigMap({ namespace: NAMESPACE, name: "precious" })).data).toEqual({ keep: "me" });
  expect(
    await readOrUndefined(() => core.readNamespacedResourceQuota({ namespace: NAMESPACE, name: "kubespaces-quota" })),
  ).toBeUndefined();
});
