/**
 * A STAND-IN of the host's API server for the Tenant resources alone, on the loopback: it answers
 * their list and their watch as the real one does (a list's resourceVersion, then the watch's
 * events as JSON lines), counts the lists it answers, and sends the changes a test makes to every
 * open watch. What a watch (client-node's informer) sees of the Tenants, with every list counted.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_VERSION } from "../../../provider/contracts/tenantResourceNames";

/** The Tenants' collection, as a client requests it. */
const TENANTS_PATH = `/apis/${TENANT_GROUP}/${TENANT_VERSION}/${TENANT_PLURAL}`;

/** A Tenant as the stand-in keeps it. */
interface StandInTenant {
  readonly metadata: { readonly name: string; readonly resourceVersion: string };
  readonly status?: { readonly phase: string };
}

/** The stand-in API server. */
export class StandInTenantApi {
  /** The lists of Tenants it answered. */
  lists = 0;
  private version = 1;
  private readonly tenants = new Map<string, StandInTenant>();
  private readonly watches = new Set<ServerResponse>();
  private readonly server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    if (url.pathname !== TENANTS_PATH) return void response.writeHead(404).end();
    if (url.searchParams.get("watch") === "true") return this.watch(response);
    this.lists++;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ items: [...this.tenants.values()], metadata: { resourceVersion: `${this.version}` } }),
    );
  });

  /** Starts it; resolves with a kubeconfig that reaches it. */
  async start(): Promise<KubeConfig> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    const config = new KubeConfig();
    config.loadFromOptions({
      // Plain HTTP on the loopback: client-node takes it only with TLS verification off.
      clusters: [{ name: "stand-in", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
      users: [{ name: "stand-in", token: "stand-in" }],
      contexts: [{ name: "stand-in", cluster: "stand-in", user: "stand-in" }],
      currentContext: "stand-in",
    });
    return config;
  }

  /** Creates or changes Tenant `name` with `phase` (none: no status yet), and tells the watches. */
  put(name: string, phase?: string): void {
    const type = this.tenants.has(name) ? "MODIFIED" : "ADDED";
    const tenant = { metadata: { name, resourceVersion: `${++this.version}` }, ...(phase && { status: { phase } }) };
    this.tenants.set(name, tenant);
    this.send(type, tenant);
  }

  /** Deletes Tenant `name`, and tells the watches. */
  remove(name: string): void {
    const tenant = this.tenants.get(name);
    if (!tenant) return;
    this.tenants.delete(name);
    this.send("DELETED", { ...tenant, metadata: { ...tenant.metadata, resourceVersion: `${++this.version}` } });
  }

  /** Stops it, ending the open watches. */
  async stop(): Promise<void> {
    for (const watch of this.watches) watch.end();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private watch(response: ServerResponse): void {
    response.writeHead(200, { "content-type": "application/json" });
    response.flushHeaders();
    this.watches.add(response);
    response.on("close", () => this.watches.delete(response));
  }

  private send(type: string, object: StandInTenant): void {
    for (const watch of this.watches) watch.write(`${JSON.stringify({ type, object })}\n`);
  }
}
