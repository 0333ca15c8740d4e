/**
 * Removing a tenant's exposure removes what cert-manager leaves behind: the apps certificate's
 * Secret (a private key) in the gateway namespace, which cert-manager does not delete with the
 * Certificate. The test bed's cert-manager issues it for real, and would issue it again within a
 * second while the Certificate still names it: the update that removes exposure deletes the Secret
 * before the engine deletes the Certificate (removed children go last), so the cleanup takes the
 * Certificate away first. This is that race, tried.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { conditionOf, type Condition } from "./support/gateway";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import { removeStack, setTenants, tenantsStack } from "./support/tenantsStack";

const TENANT = "e2e-unexposed";
const exposure = { baseDomain: "kubespaces.test", issuerRef: { name: "kubespaces-testbed-selfsigned" } };
const secret = { namespace: "kubespaces-gateway", name: `kubespaces-${TENANT}-apps-tls` };
const certificate = {
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { namespace: "kubespaces-gateway", name: `kubespaces-${TENANT}-apps` },
};
const { core, objects } = hostClients();
let stack: Stack;

beforeAll(async () => {
  stack = await tenantsStack("exposure-removal", [{ name: TENANT, exposure, persistence: false }]);
  await stack.up();
});

afterAll(() => removeStack(stack));

it("deletes the issued certificate's Secret when exposure is removed, for good, and keeps the tenant", async () => {
  const issued = async () => {
    const found = (await objects.read(certificate)) as { status?: { conditions?: Condition[] } };
    return conditionOf(found.status?.conditions ?? [], "Ready")?.status === "True";
  };
  await eventually(issued, 60_000, "cert-manager to issue the apps certificate");
  expect(await readOrUndefined(() => core.readNamespacedSecret(secret))).toBeDefined();

  await setTenants(stack, [{ name: TENANT, persistence: false }]);
  await stack.up();

  expect(await readOrUndefined(() => objects.read(certificate))).toBeUndefined();
  expect(await readOrUndefined(() => core.readNamespacedSecret(secret))).toBeUndefined();
  // Long enough for cert-manager to have issued it again, were anything still asking for it.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  expect(await readOrUndefined(() => core.readNamespacedSecret(secret))).toBeUndefined();
  const requests = await objects.list("cert-manager.io/v1", "CertificateRequest", secret.namespace);
  expect(requests.items.filter((r) => r.metadata?.name?.startsWith(`${certificate.metadata.name}-`))).toEqual([]);
  expect(await readOrUndefined(() => core.readNamespace({ name: `kubespaces-tenant-${TENANT}` }))).toBeDefined();
});
