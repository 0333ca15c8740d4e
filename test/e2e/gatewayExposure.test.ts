/**
 * Exposure acted on by real controllers: the test bed runs Traefik as the controller of the shared
 * Gateway's class (test/testbed/lib/gateway.sh) and cert-manager (lib/certManager.sh). Traefik
 * accepts the tenant's TLSRoute, enforces its ReferenceGrant, and routes TLS by SNI, passed through
 * to the vCluster; cert-manager issues the apps certificate. A user's kubectl reaches the virtual
 * cluster with the exported kubeconfig as it is: only the address its hostname resolves to is the
 * test bed's. The tests run in order and share one stack.
 */
import { X509Certificate } from "node:crypto";
import type { Stack } from "@pulumi/pulumi/automation";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  conditionOf,
  handshakeThroughGateway,
  kubeconfigFile,
  routeParentConditions,
  throughGateway,
  TRAEFIK_CONTROLLER,
  type Condition,
} from "./support/gateway";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import { expectNothingLeft, tenantNamespace } from "./support/tenantAssertions";
import { removeStack, tenantsStack, type TenantDecl } from "./support/tenantsStack";

const TENANT: TenantDecl = {
  name: "e2e-gateway",
  resources: { cpu: "4", memory: "5Gi" },
  persistence: false,
  exposure: { baseDomain: "kubespaces.test", issuerRef: { name: "kubespaces-testbed-selfsigned" } },
};
const HOSTNAME = "e2e-gateway.api.kubespaces.test";
const GATEWAY_NAMESPACE = "kubespaces-gateway";
const route = {
  apiVersion: "gateway.networking.k8s.io/v1",
  kind: "TLSRoute",
  namespace: GATEWAY_NAMESPACE,
  name: "kubespaces-e2e-gateway-api",
};
const grant = {
  apiVersion: "gateway.networking.k8s.io/v1",
  kind: "ReferenceGrant",
  metadata: { namespace: tenantNamespace(TENANT.name), name: "kubespaces-e2e-gateway-api" },
};
const certificate = {
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { namespace: GATEWAY_NAMESPACE, name: "kubespaces-e2e-gateway-apps" },
};
const certificateSecret = { namespace: GATEWAY_NAMESPACE, name: "kubespaces-e2e-gateway-apps-tls" };

const { core, objects } = hostClients();
let stack: Stack;
let kubeconfig: { file: string; remove: () => void };
let tenantCa: Buffer;

/** `kubectl get namespaces` with the exported kubeconfig, its hostname resolving to the gateway. */
const kubectlNamespaces = () =>
  throughGateway([HOSTNAME], ["kubectl", "--kubeconfig", kubeconfig.file, "get", "namespaces", "-o", "name"]);

/** The route's conditions as Traefik set them for the shared Gateway, once it has seen its latest spec. */
async function routeConditions(): Promise<Condition[] | undefined> {
  const { generation, conditions } = await routeParentConditions(route, TRAEFIK_CONTROLLER);
  return conditions.length > 0 && conditions.every((c) => c.observedGeneration === generation) ? conditions : undefined;
}

const routeCondition = async (type: string) => conditionOf((await routeConditions()) ?? [], type);

beforeAll(async () => {
  stack = await tenantsStack("gateway-exposure", [TENANT]);
  const result = await stack.up();
  expect(result.summary.result).toBe("succeeded");
  const exported = (await stack.outputs()).kubeconfigs.value[TENANT.name] as string;
  kubeconfig = kubeconfigFile(exported);
  const parsed = new KubeConfig();
  parsed.loadFromString(exported);
  tenantCa = Buffer.from(parsed.getCurrentCluster()!.caData!, "base64");
});

afterAll(async () => {
  kubeconfig?.remove();
  await removeStack(stack);
});

describe("exposure with a real gateway controller and cert-manager", () => {
  it("the TLSRoute is Accepted by the gateway controller, with its references resolved", async () => {
    await eventually(async () => (await routeConditions()) !== undefined, 60_000, "Traefik's status on the TLSRoute");
    const conditions = (await routeConditions())!;
    expect(conditionOf(conditions, "Accepted")).toMatchObject({ status: "True", reason: "Accepted" });
    expect(conditionOf(conditions, "ResolvedRefs")).toMatchObject({ status: "True", reason: "ResolvedRefs" });
  });

  it("kubectl with the exported kubeconfig, as it is, reaches the virtual cluster through the gateway by SNI", async () => {
    const parsed = new KubeConfig();
    parsed.loadFromFile(kubeconfig.file);
    // What a user runs: the name and port the kubeconfig carries, its CA; the gateway passes TLS through.
    expect(parsed.getCurrentCluster()?.server).toBe(`https://${HOSTNAME}:443`);
    expect(parsed.getCurrentCluster()?.tlsServerName).toBeUndefined();

    await eventually(async () => kubectlNamespaces().status === 0, 60_000, "kubectl through the gateway");
    const names = kubectlNamespaces().stdout.split("\n");
    expect(names).toEqual(expect.arrayContaining(["namespace/default", "namespace/kube-system"]));
    // The virtual cluster's, not the host's.
    expect(names).not.toContain(`namespace/${tenantNamespace(TENANT.name)}`);
    expect(names).not.toContain(`namespace/${GATEWAY_NAMESPACE}`);
  });

  it("answers the tenant's name with the tenant's own certificate, and an unknown name with no tenant's", async () => {
    const known = await handshakeThroughGateway(HOSTNAME, tenantCa);
    expect(known).toMatchObject({ authorized: true });

    const unknown = await handshakeThroughGateway("nobody.api.kubespaces.test", tenantCa);
    expect(unknown.authorized).toBe(false);
    // Whatever answers (the gateway's own default certificate, or nothing), it is not a vCluster.
    expect(unknown.issuer ?? "").not.toBe(known.issuer);
    expect(unknown.subject ?? "").not.toBe(known.subject);
  });

  it("stops routing without the ReferenceGrant (RefNotPermitted), and routes again once it is back", async () => {
    const saved = await objects.read(grant);
    await objects.delete(saved);
    await eventually(
      async () => (await routeCondition("ResolvedRefs"))?.reason === "RefNotPermitted",
      60_000,
      "ResolvedRefs RefNotPermitted",
    );
    expect(await routeCondition("ResolvedRefs")).toMatchObject({ status: "False", reason: "RefNotPermitted" });
    await eventually(async () => kubectlNamespaces().status !== 0, 30_000, "kubectl through the gateway to fail");
    expect((await handshakeThroughGateway(HOSTNAME, tenantCa)).authorized).toBe(false);

    // The component puts it back: the next up after a refresh finds it missing and creates it.
    const result = await stack.up({ refresh: true });
    expect(result.summary.result).toBe("succeeded");
    expect(await readOrUndefined(() => objects.read(grant))).toBeDefined();
    await eventually(
      async () => (await routeCondition("ResolvedRefs"))?.status === "True",
      60_000,
      "ResolvedRefs True again",
    );
    await eventually(async () => kubectlNamespaces().status === 0, 60_000, "kubectl through the gateway again");
  });

  it("has the apps certificate issued: Ready, its Secret labelled for the tenant and covering the apps domain", async () => {
    const ready = async () => {
      const found = (await objects.read(certificate)) as { status?: { conditions?: Condition[] } };
      return conditionOf(found.status?.conditions ?? [], "Ready")?.status === "True";
    };
    await eventually(ready, 60_000, "the apps Certificate to be Ready");
    const secret = await core.readNamespacedSecret(certificateSecret);
    expect(secret.type).toBe("kubernetes.io/tls");
    expect(secret.metadata?.labels).toMatchObject({ "kubespaces.io/tenant": TENANT.name });
    const issued = new X509Certificate(Buffer.from(secret.data!["tls.crt"], "base64"));
    expect(issued.subjectAltName).toBe("DNS:*.e2e-gateway.apps.kubespaces.test");
  });

  it("teardown leaves nothing of either: route, grant, certificate, its requests and its Secret", async () => {
    await stack.destroy();
    await expectNothingLeft(TENANT.name);
    expect(await readOrUndefined(() => core.readNamespacedSecret(certificateSecret))).toBeUndefined();
    // cert-manager had its chance to issue it again (it does so within a second while a Certificate
    // names it); nothing did.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await readOrUndefined(() => core.readNamespacedSecret(certificateSecret))).toBeUndefined();
    expect(await readOrUndefined(() => objects.read(certificate))).toBeUndefined();
    const requests = await objects.list("cert-manager.io/v1", "CertificateRequest", GATEWAY_NAMESPACE);
    const ours = requests.items.filter((r) => r.metadata?.name?.startsWith(`${certificate.metadata.name}-`));
    expect(ours.map((r) => r.metadata?.name)).toEqual([]);
    // Nothing answers for the tenant's name any more.
    expect((await handshakeThroughGateway(HOSTNAME, tenantCa)).authorized).toBe(false);
  });
});
