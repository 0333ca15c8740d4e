/** The KubespacesServer component under Pulumi mocks: what it registers, with which inputs and order, and its secrets. */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { expect, it } from "vitest";
import { KubespacesServer, type KubespacesServerArgs } from "../../provider/index";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { programEach, registeredEdges, registeredUrnOf, settle, typesAndNames, valueOf } from "./support/pulumiMocks";

const registered = programEach();

const ARGS: KubespacesServerArgs = {
  image: "registry.example.com/kubespaces-server:1.2.3",
  stateBackend: { url: "s3://kubespaces-state" },
  config: { signIn: { issuer: "https://login.example.com" } },
  route: { gateway: { name: "platform", namespace: "gateways" }, hostname: "kubespaces.example.com" },
};

const SECRETS = {
  portalClientSecret: "portal-client-secret-value",
  sessionKey: "session-key-value-of-at-least-32-bytes",
  statePassphrase: "state-passphrase-value",
};

it("registers the configuration, Deployment, disruption budget, Service and route, each a typed child", async () => {
  const server = new KubespacesServer("kubespaces", ARGS);
  await settle();
  expect(typesAndNames(registered())).toEqual(
    [
      "kubespaces:index:KubespacesServer kubespaces",
      "kubernetes:core/v1:ConfigMap kubespaces-config",
      "kubernetes:apps/v1:Deployment kubespaces-deployment",
      "kubernetes:policy/v1:PodDisruptionBudget kubespaces-disruption-budget",
      "kubernetes:core/v1:Service kubespaces-service",
      "kubernetes:networking.k8s.io/v1:NetworkPolicy kubespaces-network-policy",
      "kubernetes:gateway.networking.k8s.io/v1:HTTPRoute kubespaces-route",
    ].sort(),
  );
  for (const { name } of registered().filter((r) => r.name !== "kubespaces"))
    expect(registeredEdges.get(name)?.parent).toBe(registeredUrnOf("kubespaces"));
  expect(await valueOf(server.serviceUrl)).toBe("http://kubespaces-server.kubespaces-system.svc:80");
});

it("gives each child the rendered object's fields", async () => {
  new KubespacesServer("kubespaces", ARGS);
  await settle();
  for (const { role, object } of serverInstallation(ARGS).objects) {
    const { apiVersion, kind, ...fields } = object;
    const inputs = registered().find((r) => r.name === `kubespaces-${role}`)?.inputs;
    expect(inputs, role).toMatchObject({ ...JSON.parse(JSON.stringify(fields)), kind });
    if (kind === "HTTPRoute") expect(inputs?.apiVersion).toBe(apiVersion);
  }
});

it("makes the Secret of the values it is given, marked secret, before the pods that mount it", async () => {
  new KubespacesServer("kubespaces", { ...ARGS, secrets: SECRETS });
  await settle();
  const secret = registered().find((r) => r.type === "kubernetes:core/v1:Secret");
  expect(secret?.name).toBe("kubespaces-secret");
  expect(secret?.inputs.metadata).toMatchObject({ name: "kubespaces-server", namespace: "kubespaces-system" });
  // What the engine gets: the values in a secret envelope, which the state keeps encrypted.
  expect(secret?.inputs.stringData).toEqual({
    [specialSigKey]: specialSecretSig,
    value: {
      "portal-client-secret": SECRETS.portalClientSecret,
      "session-key": SECRETS.sessionKey,
      "state-passphrase": SECRETS.statePassphrase,
    },
  });
  expect(registeredEdges.get("kubespaces-deployment")?.dependencies).toContain(registeredUrnOf("kubespaces-secret"));
  // No value reaches another child.
  const others = JSON.stringify(registered().filter((r) => r !== secret));
  for (const value of Object.values(SECRETS)) expect(others).not.toContain(value);
});

it("makes no Secret without values: the platform's Secret is mounted by name", async () => {
  new KubespacesServer("kubespaces", { ...ARGS, secretName: "platform-made" });
  await settle();
  expect(registered().map((r) => r.type)).not.toContain("kubernetes:core/v1:Secret");
  const volumes = registered().find((r) => r.name === "kubespaces-deployment")?.inputs.spec.template.spec.volumes;
  expect(
    volumes.filter((v: { secret?: { secretName: string } }) => v.secret).map((v: any) => v.secret.secretName),
  ).toEqual(["platform-made", "platform-made"]);
});

it("registers nothing when an option is bad, naming each", async () => {
  expect(
    () => new KubespacesServer("kubespaces", { ...ARGS, replicas: 0, stateBackend: { url: "file:///state" } }),
  ).toThrow(/replicas: .*\n.*stateBackend\.url: must be a backend every replica shares/);
  await settle();
  expect(registered()).toEqual([]);
});
