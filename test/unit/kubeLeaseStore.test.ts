/**
 * The Lease adapter over @kubernetes/client-node, against a local HTTP server that plays an API
 * server: each call carries the election's signal, so a call that hangs is aborted.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { afterEach, beforeEach, expect, it } from "vitest";
import { KubeLeaseStore } from "../../provider/server/kube/kubeLeaseStore";

let server: Server;
let requests: IncomingMessage[];
let store: KubeLeaseStore;

beforeEach(async () => {
  requests = [];
  // Takes every request and never answers it: an API server that hangs.
  server = createServer((request) => requests.push(request));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [
      { name: "c", server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
    ],
    users: [{ name: "u", token: "t" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  store = new KubeLeaseStore(config, "kubespaces-system", "kubespaces-server");
});

afterEach(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

it.each([
  ["read", (signal: AbortSignal) => store.read(signal)],
  ["create", (signal: AbortSignal) => store.create({ holderIdentity: "a" }, signal)],
  ["replace", (signal: AbortSignal) => store.replace({ holderIdentity: "a", resourceVersion: "1" }, signal)],
])("aborts a %s that hangs when its signal aborts, closing its connection", async (_, call) => {
  const stop = new AbortController();
  const calling = call(stop.signal);
  const [request] = (await once(server, "request")) as [IncomingMessage];
  expect(request.url).toContain("/apis/coordination.k8s.io/v1/namespaces/kubespaces-system/leases");
  const closed = once(request.socket, "close");
  stop.abort();
  await expect(calling).rejects.toThrow(/abort/i);
  await closed;
});
