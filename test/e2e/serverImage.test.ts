/**
 * The server's image, built on the test bed from deploy/image/Containerfile (`testbed.sh image`:
 * a Debian base with the Node.js CI runs, the test bed's Go-built Pulumi tools), run with podman
 * as the Deployment `serverInstallation(...)` renders runs its pod: the init container's script
 * first, in the same image, then the server, each with the pod's security context, env, volumes
 * and file modes (support/serverContainer.ts reads them from the Deployment). What stands in for
 * the kubelet: podman (runc) and this test, which make the volumes, resolve the env, and mount a
 * ServiceAccount token from the TokenRequest API where the kubelet mounts one. The network is the
 * machine's (`--network host`), where the test bed's API server, PostgreSQL and a local Dex
 * listen on loopback, so the server's ports are moved to free ones (a pod has its own network).
 * What is not run: a kubelet, its probes and restarts, token renewal (the token outlives the test).
 */
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { V1Deployment } from "@kubernetes/client-node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { startLocalDex, type LocalDex } from "../../provider/server/auth/localDex";
import { replicaLeaseName } from "../../provider/server/replicas/replicaMembership";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { CONFIG_FILE_KEY, SERVER_UID } from "../../provider/serverInstall/serverPodLayout";
import { placeholderInstall, STATE_BACKEND_SECRET } from "../../scripts/generators/serverDeployFile";
import { eventually } from "./support/hostCluster";
import { kubectl } from "./support/hostKubectl";
import { applyServerInstallManifests, freePort, serverAccountToken } from "./support/otherMachine";
import { podContainer, podmanRunArgs, type ContainerRun, type HostVolume } from "./support/serverContainer";
import { expectNothingLeft } from "./support/tenantAssertions";
import { REPO_ROOT, testbedEnv, testbedPostgres } from "./support/testbed";

const run = promisify(execFile);
const TESTBED_SCRIPT = path.join(REPO_ROOT, "test/testbed/testbed.sh");
const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const POD_NAME = `kubespaces-server-e2e-${randomBytes(3).toString("hex")}`;
const NAMESPACE = "kubespaces-system";
const ALICE = "alice@example.com";
const TENANT = "team-image";
/** Where the kubelet mounts a pod's ServiceAccount token, CA and namespace (provider/hosts/inClusterHost.ts). */
const SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
/** Where the test bed's vCluster chart is mounted: the chart repository a platform's configuration would name, which this machine cannot reach. */
const CHART_IN_CONTAINER = "/opt/testbed/vcluster-chart.tgz";

/** `testbed.sh ARGS`; its stderr (the build log) returned, the last line of stdout too. */
function testbedCommand(...args: string[]): { stdout: string; stderr: string; seconds: number } {
  const started = Date.now();
  const result = spawnSync("bash", [TESTBED_SCRIPT, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`testbed.sh ${args.join(" ")} failed:\n${result.stderr.slice(-4000)}`);
  return { stdout: result.stdout.trim(), stderr: result.stderr, seconds: (Date.now() - started) / 1000 };
}

/** podman with the test bed's configuration and image storage. */
const podman = (...args: string[]) => run("bash", [TESTBED_SCRIPT, "podman", ...args], { encoding: "utf8" });

/** The server's image, built or taken from the cache, with what its builds printed. */
interface BuiltImage {
  readonly ref: string;
  readonly coldLog: string[];
  readonly firstSeconds: number;
  readonly warmSeconds: number;
}

/** A folder of files with `mode`, owned by root and the pod's fsGroup, as the kubelet writes a Secret's or ConfigMap's volume. */
function filesVolume(name: string, files: Record<string, string>, mode: number, gid: number): HostVolume {
  const folder = path.join(work, name);
  mkdirSync(folder);
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(path.join(folder, file), content);
    chownSync(path.join(folder, file), 0, gid);
    chmodSync(path.join(folder, file), mode);
  }
  return { folder };
}

/** An emptyDir on disk, shared by the pod's containers: group-owned by the fsGroup, setgid, as the kubelet makes one. */
function emptyDir(name: string, gid: number): HostVolume {
  const folder = path.join(work, name);
  mkdirSync(folder);
  chownSync(folder, 0, gid);
  chmodSync(folder, 0o2777);
  return { folder };
}

/** The container's memory in bytes now, as podman reads its cgroup. */
async function memoryBytes(name: string): Promise<number> {
  const { stdout } = await podman("stats", "--no-stream", "--no-reset", "--format", "json", name);
  const [stats] = JSON.parse(stdout) as { mem_usage: string }[];
  const [used] = stats.mem_usage.split("/").map((part) => part.trim());
  const match = /^([\d.]+)([kMG]?B)$/.exec(used)!;
  const unit = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9 }[match[2] as "B" | "kB" | "MB" | "GB"];
  return Number(match[1]) * unit;
}

/** The server container's state as podman has it. */
async function containerState(name: string): Promise<{ Running: boolean; ExitCode: number }> {
  const { stdout } = await podman("inspect", "--format", "json", name);
  return (JSON.parse(stdout) as { State: { Running: boolean; ExitCode: number } }[])[0].State;
}

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MiB`;

let work: string;
let image: BuiltImage;
let dex: LocalDex | undefined;
let deployment: V1Deployment;
let serverRun: ContainerRun;
let httpPort: number;
const measured: string[] = [];

beforeAll(async () => {
  // The images: cold when the cache lacks them (this run builds them), then warm (all cached).
  const first = testbedCommand("image");
  const warm = testbedCommand("image");
  expect(warm.stdout.split("\n").at(-1)).toBe(first.stdout.split("\n").at(-1));
  image = {
    ref: first.stdout.split("\n").at(-1)!,
    coldLog: first.stderr.split("\n").filter((line) => /built in|installed in|: cached/.test(line)),
    firstSeconds: first.seconds,
    warmSeconds: warm.seconds,
  };
  const { stdout: size } = await podman("image", "inspect", "--format", "{{.Size}}", image.ref);
  const base = /NODE_IMAGE=(\S+?)\)/.exec(first.stderr)?.[1];
  measured.push(
    `image ${image.ref}: ${mb(Number(size))}`,
    ...image.coldLog.map((line) => `first testbed.sh image: ${line.replace(/^\[testbed [\d:]+\] /, "")}`),
    `first testbed.sh image: ${image.firstSeconds.toFixed(1)} s; warm: ${image.warmSeconds.toFixed(1)} s`,
  );
  if (base)
    measured.push(
      `base ${base}: ${mb(Number((await podman("image", "inspect", "--format", "{{.Size}}", base)).stdout))}`,
    );

  work = mkdtempSync(path.join(os.tmpdir(), "kubespaces-server-image-"));
  await applyServerInstallManifests();
  // The state backend: the test bed's PostgreSQL, its password in the Secret the pods take their env from.
  const postgres = new URL(testbedPostgres());
  const password = decodeURIComponent(postgres.password);
  postgres.password = "";
  httpPort = await freePort();
  const publicUrl = `http://127.0.0.1:${httpPort}`;
  dex = await startLocalDex({ dir: path.join(work, "dex"), portalRedirectUris: [`${publicUrl}/auth/callback`] });
  const installation = serverInstallation({
    ...placeholderInstall(version),
    image: image.ref,
    stateBackend: { url: postgres.href, credentialsSecret: STATE_BACKEND_SECRET },
    config: {
      signIn: { issuer: dex.issuer },
      http: { publicUrl },
      platform: { chart: { localPath: CHART_IN_CONTAINER } },
    },
  });
  deployment = installation.objects.find((o) => o.role === "deployment")!.object as V1Deployment;
  const configMap = installation.objects.find((o) => o.role === "config")!.object as unknown as {
    data: Record<string, string>;
  };
  // A pod has its own network; on the machine's, the server's ports move to free loopback ones.
  const config = parse(configMap.data[CONFIG_FILE_KEY]);
  config.http.listen = `127.0.0.1:${httpPort}`;
  config.metricsListen = `127.0.0.1:${await freePort()}`;

  const pod = deployment.spec!.template.spec!;
  const gid = pod.securityContext!.fsGroup!;
  const secretData: Record<string, string> = {
    [SERVER_SECRET_KEYS.portalClientSecret]: dex.portalClient.secret,
    [SERVER_SECRET_KEYS.sessionKey]: randomBytes(48).toString("base64"),
    [SERVER_SECRET_KEYS.statePassphrase]: randomBytes(48).toString("base64"),
  };
  const volumes: Record<string, HostVolume> = {};
  for (const volume of pod.volumes ?? []) {
    if (volume.emptyDir) volumes[volume.name] = volume.name === "tmp" ? { tmpfs: true } : emptyDir(volume.name, gid);
    else if (volume.configMap)
      volumes[volume.name] = filesVolume(volume.name, { [CONFIG_FILE_KEY]: stringify(config) }, 0o644, gid);
    else if (volume.secret) {
      const items = volume.secret.items ?? [];
      const files = Object.fromEntries(items.map((item) => [item.path, secretData[item.key]]));
      volumes[volume.name] = filesVolume(volume.name, files, volume.secret.defaultMode!, gid);
    } else throw new Error(`volume ${volume.name}: a kind this test does not make`);
  }
  // What the kubelet mounts for the ServiceAccount: a token from the TokenRequest API, the CA, the namespace.
  const admin = parse(readFileSync(testbedEnv().KUBECONFIG, "utf8"));
  const apiServer = new URL(admin.clusters[0].cluster.server);
  const account = filesVolume(
    "serviceaccount",
    {
      token: await serverAccountToken(7200),
      "ca.crt": Buffer.from(admin.clusters[0].cluster["certificate-authority-data"], "base64").toString("utf8"),
      namespace: NAMESPACE,
    },
    0o640,
    gid,
  );
  const common = {
    image: image.ref,
    podName: POD_NAME,
    deployment,
    volumes,
    envFromSecret: { PGPASSWORD: password },
    kubeletEnv: { KUBERNETES_SERVICE_HOST: apiServer.hostname, KUBERNETES_SERVICE_PORT: apiServer.port },
    kubeletMounts: [`${"folder" in account ? account.folder : ""}:${SERVICE_ACCOUNT_DIR}:ro`],
    extraMounts: [`${testbedEnv().KUBESPACES_VCLUSTER_CHART}:${CHART_IN_CONTAINER}:ro`],
    // `testbed.sh down` removes what this test leaves running (test/testbed/lib/image.sh).
    labels: { "kubespaces.io/testbed-run-dir": realpathSync(testbedEnv().KUBESPACES_TESTBED_DIR) },
  };
  serverRun = { ...common, name: POD_NAME, which: "main" };

  // Requesters may apply Tenants, as in the kubectl door's tests.
  await kubectl(undefined, "delete", "clusterrolebinding", "e2e-image-requesters", "--ignore-not-found");
  await kubectl(
    undefined,
    "create",
    "clusterrolebinding",
    "e2e-image-requesters",
    "--clusterrole=kubespaces-tenant-requester",
    `--user=${ALICE}`,
  );
  // The init container, twice: Kubernetes runs a pod's init containers again when its sandbox is made anew.
  for (const attempt of [1, 2]) {
    const name = `${POD_NAME}-init-${attempt}`;
    await podman("run", ...podmanRunArgs({ ...common, name, which: "init" }));
    const { stdout } = await podman("wait", name);
    const { stdout: logs } = await podman("logs", name);
    await podman("rm", name);
    expect(stdout.trim(), `init container, run ${attempt}: ${logs}`).toBe("0");
  }
  await podman("run", ...podmanRunArgs(serverRun));
}, 30 * 60_000);

afterAll(async () => {
  process.stderr.write(`[serverImage] measured:\n${measured.map((line) => `  ${line}`).join("\n")}\n`);
  if (serverRun) {
    const { stdout } = await podman("logs", serverRun.name).catch(() => ({ stdout: "" }));
    writeFileSync(path.join(work, "server.log"), stdout);
    // A tenant a failed test left is torn down by the server, while it still runs.
    if ((await containerState(serverRun.name).catch(() => undefined))?.Running)
      await kubectl({ user: ALICE }, "delete", "tenant", TENANT, "--ignore-not-found", "--timeout=300s").catch(
        () => undefined,
      );
    await podman("rm", "--force", "--time", "10", serverRun.name).catch(() => undefined);
  }
  await dex?.stop();
  await kubectl(undefined, "delete", "clusterrolebinding", "e2e-image-requesters", "--ignore-not-found");
});

/** The server's log so far (stdout and stderr), for a failure's message. */
const serverLog = async () => {
  const result = await podman("logs", serverRun.name).catch((error) => error as { stdout: string; stderr: string });
  return `${result.stdout}${result.stderr}`.split("\n").slice(-40).join("\n");
};

it("ran the init container's script first, in the same image: the passphrase in the home, the server's alone", () => {
  const init = podContainer(deployment, "init");
  const home = init.env!.find((variable) => variable.name === "KUBESPACES_HOME")!.value!;
  const mount = init.volumeMounts!.find((m) => home.startsWith(`${m.mountPath}/`))!;
  const { folder } = serverRun.volumes[mount.name] as { folder: string };
  const passphrase = path.join(folder, path.relative(mount.mountPath, home), "passphrase");
  const stat = spawnSync("stat", ["-c", "%a %u %g", passphrase], { encoding: "utf8" });
  expect(stat.stdout.trim()).toBe(`400 ${SERVER_UID} ${SERVER_UID}`);
});

it("serves /healthz and /readyz (200) as the Deployment's user, with a read-only root and no capabilities", async () => {
  const url = `http://127.0.0.1:${httpPort}`;
  const answers = async (pathname: string) => (await fetch(`${url}${pathname}`).catch(() => undefined))?.status;
  await eventually(
    async () => (await answers("/healthz")) === 200,
    300_000,
    `/healthz 200; log:\n${await serverLog()}`,
  );
  await eventually(async () => (await answers("/readyz")) === 200, 300_000, "/readyz 200");
  // The server (the container's first process) as the kernel sees it.
  const { stdout } = await podman("exec", serverRun.name, "cat", "/proc/1/status");
  const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, "m").exec(stdout)![1].split(/\s+/);
  expect(field("Uid")[0]).toBe(String(SERVER_UID));
  expect(field("Gid")[0]).toBe(String(SERVER_UID));
  expect(field("CapEff")[0]).toBe("0000000000000000");
  expect(field("NoNewPrivs")[0]).toBe("1");
  const written = await podman("exec", serverRun.name, "touch", "/opt/kubespaces/written").catch((e) => e as Error);
  expect(String(written)).toContain("Read-only file system");
  measured.push(`server at rest (ready, no tenant): ${mb(await memoryBytes(serverRun.name))}`);
});

it("took its Lease, as the replica named after its pod", async () => {
  const lease = replicaLeaseName("kubespaces-server", POD_NAME);
  await eventually(
    async () => {
      const { stdout } = await kubectl(undefined, "-n", NAMESPACE, "get", "lease", lease, "-o", "json").catch(() => ({
        stdout: "",
      }));
      return Boolean(stdout) && JSON.parse(stdout).spec?.holderIdentity === POD_NAME;
    },
    120_000,
    `Lease ${lease} held by ${POD_NAME}`,
  );
});

it("makes a Tenant applied with kubectl Ready, reaching the API server as its ServiceAccount from the mounted token", async () => {
  const file = path.join(work, `${TENANT}.yaml`);
  const spec = { owner: ALICE, resources: { cpu: "3", memory: "4Gi" } };
  writeFileSync(
    file,
    stringify({ apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", metadata: { name: TENANT }, spec }),
  );
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await memoryBytes(serverRun.name).catch(() => 0));
      // A sample a second or so (podman stats itself takes a while): a measurement's pace, not a wait.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  const started = Date.now();
  await kubectl({ user: ALICE }, "apply", "-f", file);
  try {
    await kubectl(undefined, "wait", "--for=condition=Ready", `tenant/${TENANT}`, "--timeout=600s");
  } catch (error) {
    throw new Error(`${String(error)}\nserver log:\n${await serverLog()}`, { cause: error });
  } finally {
    sampling = false;
    await sampler;
  }
  measured.push(`apply to Ready: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  measured.push(`server's peak during the tenant's update: ${mb(peak)}`);
  expect(await serverLog()).toContain("reaching the cluster this pod runs in as its ServiceAccount");
  // Torn down through it too, before it stops.
  await kubectl({ user: ALICE }, "delete", "tenant", TENANT, "--wait=true", "--timeout=300s");
  await expectNothingLeft(TENANT);
});

it("stops cleanly on SIGTERM within the pod's grace period, removing its Lease", async () => {
  const grace = deployment.spec!.template.spec!.terminationGracePeriodSeconds!;
  await podman("kill", "--signal", "TERM", serverRun.name);
  await eventually(async () => !(await containerState(serverRun.name)).Running, grace * 1000, "the server to exit");
  expect((await containerState(serverRun.name)).ExitCode).toBe(0);
  expect(await serverLog()).toContain("SIGTERM: stopping");
  const lease = replicaLeaseName("kubespaces-server", POD_NAME);
  const { stdout } = await kubectl(
    undefined,
    "-n",
    NAMESPACE,
    "get",
    "lease",
    lease,
    "--ignore-not-found",
    "-o",
    "name",
  );
  expect(stdout.trim()).toBe("");
});
