/**
 * A `kubespaces server` replica on another machine, as far as the test bed can make one
 * (`testbed.sh machine`, lib/machine.sh, a stand-in for a machine: a network namespace and a host
 * name of its own, reaching only the host's API server and PostgreSQL, and publishing the port it
 * serves on). It reaches the host as a pod does: as the server's ServiceAccount, with a token,
 * after the installation's plain manifests (`deploy/`) are applied; its chart is the test bed's
 * packaged one, from its configuration, as an image would carry it.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { KUBESPACES_BIN, Running, type CliUser } from "./kubespacesCli";
import { REPO_ROOT, testbedEnv } from "./testbed";

const run = promisify(execFile);
const TESTBED_SCRIPT = path.join(REPO_ROOT, "test/testbed/testbed.sh");
/** The context of the ServiceAccount's kubeconfig. */
const CONTEXT = "kubespaces-server";

/** kubectl as the test bed's admin. */
const adminKubectl = (...args: string[]) =>
  run("kubectl", args, { env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG }, encoding: "utf8" });

/**
 * Applies the installation's plain manifests: the Tenant resource, its RBAC and admission policy,
 * and the server's rights in the shared Gateway's namespace, which the test bed has.
 */
export async function applyServerInstallManifests(): Promise<void> {
  const manifests = ["tenant-crd.yaml", "rbac.yaml", "gateway/gateway-rbac.yaml", "admission.yaml"].flatMap((f) => [
    "-f",
    path.join(REPO_ROOT, "deploy", f),
  ]);
  await adminKubectl("apply", ...manifests);
}

/** A token of the server's ServiceAccount from the TokenRequest API (`kubectl create token`), valid `seconds`. */
export async function serverAccountToken(seconds: number): Promise<string> {
  const duration = `--duration=${seconds}s`;
  return (
    await adminKubectl("create", "token", "kubespaces-server", "-n", "kubespaces-system", duration)
  ).stdout.trim();
}

/**
 * Applies the installation's plain manifests and writes a kubeconfig of the server's
 * ServiceAccount, with a token of two hours.
 */
export async function serverAccountKubeconfig(): Promise<string> {
  await applyServerInstallManifests();
  const token = await serverAccountToken(7200);
  const admin = parse(readFileSync(testbedEnv().KUBECONFIG, "utf8"));
  const cluster = { ...admin.clusters[0], name: CONTEXT };
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-server-account-")), "kubeconfig");
  const kubeconfig = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [cluster],
    users: [{ name: CONTEXT, user: { token } }],
    contexts: [{ name: CONTEXT, context: { cluster: CONTEXT, user: CONTEXT } }],
    "current-context": CONTEXT,
  };
  writeFileSync(file, stringify(kubeconfig), { mode: 0o600 });
  return file;
}

/** A loopback port free now on this machine (the replica serves on it inside its machine, published here). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/** A replica on machine `id` (its host name too), and the URL of its API here. */
export interface MachineReplica {
  readonly running: Running;
  readonly url: string;
}

/**
 * Starts replica `id` on a machine of its own named `id`, for `user` (its home), with `config`
 * and `more` arguments, reaching the host with `kubeconfig`. Its process group holds the machine's
 * forwarders too: killing the group kills the machine.
 */
export async function startReplicaOnMachine(
  user: CliUser,
  id: string,
  kubeconfig: string,
  config: object,
  more: readonly string[] = [],
): Promise<MachineReplica> {
  const port = await freePort();
  const { KUBECONFIG: _admin, ...engineEnv } = testbedEnv();
  const chart = { localPath: engineEnv.KUBESPACES_VCLUSTER_CHART };
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-server-config-")), "server.yaml");
  writeFileSync(file, stringify({ ...config, platform: { chart } }));
  const server = [
    "server",
    "--id",
    id,
    "--config",
    file,
    "--listen",
    `127.0.0.1:${port}`,
    "--context",
    CONTEXT,
    ...more,
  ];
  const args = [TESTBED_SCRIPT, "machine", id, "--publish", String(port), "--", KUBESPACES_BIN, ...server];
  const env = { ...user.env, ...engineEnv, KUBESPACES_HOME: user.home, KUBECONFIG: kubeconfig };
  const running = new Running(spawn("bash", args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true }));
  return { running, url: `http://127.0.0.1:${port}` };
}
