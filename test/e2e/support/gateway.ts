/**
 * The test bed's gateway (Traefik, test/testbed/lib/gateway.sh) as a user meets it: commands run
 * where it listens on 443 with the tenant's API hostname resolving to it, a TLS handshake with a
 * chosen SNI through its loopback port, and what its controller reports on a route.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { hostClients } from "./hostCluster";
import { REPO_ROOT, testbedEnv } from "./testbed";

/** Traefik's Gateway controller name, fixed by Traefik; the fixture's GatewayClass names it. */
export const TRAEFIK_CONTROLLER = "traefik.io/gateway-controller";

/** What a finished command printed. */
export interface CommandResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` as a user would, except that each of `hosts` resolves to the gateway, which
 * listens on 443 there (`testbed.sh gateway-run`): a kubeconfig naming `https://<host>:443` is used
 * as it is.
 */
export function throughGateway(hosts: readonly string[], command: readonly string[]): CommandResult {
  const result = spawnSync(
    "bash",
    [path.join(REPO_ROOT, "test/testbed/testbed.sh"), "gateway-run", ...hosts, "--", ...command],
    { encoding: "utf8", timeout: 60_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A kubeconfig in a private file of its own, removed by the returned function. */
export function kubeconfigFile(kubeconfig: string): { file: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-gateway-"));
  const file = path.join(dir, "config");
  writeFileSync(file, kubeconfig, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What a TLS client saw of the server that answered. */
export interface Handshake {
  /** True when the server's certificate verified against the CA given, for the name asked. */
  readonly authorized: boolean;
  /** Why it did not verify, when it did not. */
  readonly authorizationError?: string;
  /** The answering certificate's subject CN and issuer CN. */
  readonly subject?: string;
  readonly issuer?: string;
  /** The handshake failed or the connection closed before it completed. */
  readonly failed?: string;
}

/** A TLS handshake through the gateway's loopback port on this machine, with SNI `servername`. */
export function handshakeThroughGateway(servername: string, ca: string | Buffer): Promise<Handshake> {
  const port = Number(testbedEnv().KUBESPACES_TESTBED_GATEWAY_PORT);
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port, servername, ca, rejectUnauthorized: false });
    const done = (handshake: Handshake) => {
      socket.destroy();
      resolve(handshake);
    };
    socket.setTimeout(10_000, () => done({ authorized: false, failed: "timed out" }));
    socket.on("error", (error) => done({ authorized: false, failed: error.message }));
    socket.on("close", () => done({ authorized: false, failed: "closed before the handshake completed" }));
    socket.on("secureConnect", () => {
      const peer = socket.getPeerCertificate();
      done({
        authorized: socket.authorized,
        authorizationError: socket.authorizationError ? String(socket.authorizationError) : undefined,
        subject: String(peer.subject?.CN ?? ""),
        issuer: String(peer.issuer?.CN ?? ""),
      });
    });
  });
}

/** A condition as a Gateway API controller reports it. */
export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly observedGeneration?: number;
}

/** The conditions `controller` reports on a route for its parent, and the route's generation. */
export async function routeParentConditions(
  ref: { apiVersion: string; kind: string; namespace: string; name: string },
  controller: string,
): Promise<{ generation?: number; conditions: Condition[] }> {
  const { objects } = hostClients();
  const route = (await objects.read({
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    metadata: { namespace: ref.namespace, name: ref.name },
  })) as {
    metadata: { generation?: number };
    status?: { parents?: { controllerName: string; conditions?: Condition[] }[] };
  };
  const parent = route.status?.parents?.find((p) => p.controllerName === controller);
  return { generation: route.metadata.generation, conditions: parent?.conditions ?? [] };
}

/** `status` of the condition of `type`, or undefined. */
export const conditionOf = (conditions: readonly Condition[], type: string): Condition | undefined =>
  conditions.find((c) => c.type === type);
