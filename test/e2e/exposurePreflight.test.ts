/**
 * Exposure on a host that lacks a kind it needs: preview fails at once, naming the kind and its
 * CRD, and nothing is created. The test bed serves Gateway API 1.6.1, whose TLSRoute is v1 only,
 * so a tenant asking for the v1alpha2 TLSRoute of Gateway API 1.4 and older finds it missing.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { removeStack, tenantsStack } from "./support/tenantsStack";

let stack: Stack;

beforeAll(async () => {
  const exposure = {
    baseDomain: "kubespaces.test",
    issuerRef: { name: "kubespaces-testbed-selfsigned" },
    tlsRouteVersion: "v1alpha2",
  };
  stack = await tenantsStack("preflight", [{ name: "e2e-old-gateway", exposure }]);
});

afterAll(() => removeStack(stack));

it("fails preview naming the kind the host does not serve, and creates nothing", async () => {
  const failed = await stack.preview().then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed?.message).toContain(
    'Tenant "e2e-old-gateway" sets exposure, but the host cluster does not serve: TLSRoute gateway.networking.k8s.io/v1alpha2 (CRD tlsroutes.gateway.networking.k8s.io)',
  );
  const { core } = hostClients();
  expect(
    await readOrUndefined(() => core.readNamespace({ name: "kubespaces-tenant-e2e-old-gateway" })),
  ).toBeUndefined();
});
