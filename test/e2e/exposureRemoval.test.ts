/**
 * Removing a tenant's exposure removes what cert-manager would leave behind: the apps certificate's
 * Secret (a private key) in the gateway namespace. No cert-manager runs on the test bed, so the test
 * writes that Secret itself, labelled as cert-manager's `secretTemplate` labels it.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { removeStack, setTenants, tenantsStack } from "./support/tenantsStack";

const TENANT = "e2e-unexposed";
const exposure = { baseDomain: "kubespaces.test", issuerRef: { name: "kubespaces-testbed-selfsigned" } };
const secret = { namespace: "kubespaces-gateway", name: `kubespaces-${TENANT}-apps-tls` };
let stack: Stack;

beforeAll(async () => {
  stack = await tenantsStack("exposure-removal", [{ name: TENANT, exposure }]);
  await stack.up();
});

afterAll(() => removeStack(stack));

it("deletes the certificate's Secret when exposure is removed, and keeps the tenant", async () => {
  const { core } = hostClients();
  await core.createNamespacedSecret({
    namespace: secret.namespace,
    body: {
      metadata: { name: secret.name, labels: { "kubespaces.io/tenant": TENANT } },
      type: "kubernetes.io/tls",
      data: {
        "tls.crt": Buffer.from("certificate").toString("base64"),
        "tls.key": Buffer.from("key").toString("base64"),
      },
    },
  });

  await setTenants(stack, [{ name: TENANT }]);
  await stack.up();

  expect(await readOrUndefined(() => core.readNamespacedSecret(secret))).toBeUndefined();
  expect(await readOrUndefined(() => core.readNamespace({ name: `kubespaces-tenant-${TENANT}` }))).toBeDefined();
});
