/**
 * The Kubernetes adapters of the server (KubeTenantResources, KubePeopleHost) refuse, before they
 * ask the API server anything, a name that Kubernetes could not have given an object: in a
 * client's path, "" or "." names the collection (a delete of every Tenant), ".." the API group, and
 * a comma in the watch's field selector adds a condition. The API server here is a stand-in on the
 * loopback that records every request and answers 404.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { KubePeopleHost } from "../../provider/server/kube/kubePeopleHost";
import { KubeTenantResources } from "../../provider/server/kube/kubeTenantResources";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";

const requests: string[] = [];
let server: Server;
let config: KubeConfig;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(404, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", reason: "NotFound", code: 404 }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      { name: "stand-in", server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
    ],
    users: [{ name: "server", token: "stand-in-token" }],
    contexts: [{ name: "stand-in", cluster: "stand-in", user: "server" }],
    currentContext: "stand-in",
  });
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  requests.length = 0;
});

const BAD_NAMES = ["", ".", "..", "Atlas", "a/b", "a,metadata.name!=x", "a".repeat(254)];
const ref = (name: string, namespace = "kubespaces-tenant-atlas") => ({ name, namespace, key: "config" });

/** Each adapter call that takes a name, with `name` in it. */
const calls: readonly (readonly [string, (name: string) => Promise<unknown>])[] = [
  ["get", (name) => new KubeTenantResources(config).get(name)],
  ["create", (name) => new KubeTenantResources(config).create(name, { owner: "alice@example.com" })],
  ["delete", (name) => new KubeTenantResources(config).delete(name)],
  ["addFinalizer", (name) => new KubeTenantResources(config).addFinalizer(name, "kubespaces.io/finalizer")],
  ["removeFinalizer", (name) => new KubeTenantResources(config).removeFinalizer(name, "kubespaces.io/finalizer")],
  [
    "writeStatus",
    (name) => new KubeTenantResources(config).writeStatus(name, { phase: "Pending", conditions: [], message: "" }),
  ],
  [
    "writeKubeconfig's tenant",
    (name) => new KubeTenantResources(config).writeKubeconfig(name, ref("atlas-kubeconfig"), "kind: Config"),
  ],
  [
    "writeKubeconfig's Secret",
    (name) => new KubeTenantResources(config).writeKubeconfig("atlas", ref(name), "kind: Config"),
  ],
  [
    "writeKubeconfig's namespace",
    (name) => new KubeTenantResources(config).writeKubeconfig("atlas", ref("atlas-kubeconfig", name), "kind: Config"),
  ],
  ["readSecret's name", (name) => new KubePeopleHost(config).readSecret(ref(name))],
  ["readSecret's namespace", (name) => new KubePeopleHost(config).readSecret(ref("atlas-kubeconfig", name))],
  ["readQuota", (name) => new KubePeopleHost(config).readQuota(name)],
  [
    "watchTenant",
    async (name) => {
      for await (const _ of new KubePeopleHost(config).watchTenant(name, "1", AbortSignal.timeout(5_000))) return;
    },
  ],
];

describe("the Kubernetes adapters", () => {
  it.each(calls)("refuse a name no object can have in %s, asking the API server nothing", async (_call, call) => {
    const outcomes = await Promise.all(
      BAD_NAMES.map((name) =>
        call(name).then(
          () => "asked",
          (error: unknown) => (error instanceof RequestInvalidError ? "refused" : `failed: ${String(error)}`),
        ),
      ),
    );
    expect(Object.fromEntries(BAD_NAMES.map((name, i) => [name, outcomes[i]]))).toEqual(
      Object.fromEntries(BAD_NAMES.map((name) => [name, "refused"])),
    );
    expect(requests).toEqual([]);
  });

  it("name the field and the rule", async () => {
    const refusal = await new KubeTenantResources(config).delete("").catch((error: unknown) => error);
    expect((refusal as RequestInvalidError).problems).toEqual([
      `metadata.name: must be a DNS-1123 subdomain of at most 253 characters (lower-case letters, digits, '-' and '.'), got ""`,
    ]);
  });

  it("ask the API server about a name an object can have, such as a Tenant named team.atlas", async () => {
    await new KubeTenantResources(config).get("team.atlas");
    expect(requests).toEqual(["GET /apis/kubespaces.io/v1alpha1/tenants/team.atlas"]);
  });
});
