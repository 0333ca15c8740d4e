/**
 * `npm run bench:life`: a tenant's life on the local test bed, through `kubespaces server`, each
 * figure next to a baseline measured in the same run:
 * - the host memory of BENCH_LIFE_TENANTS (5) tenants' control planes awake, then asleep: the
 *   resident memory of each control plane's processes (the test bed's runner runs them as the
 *   kubelet would run the pod) and the host's MemAvailable;
 * - waking one tenant, from `spec.sleep: false` to its API answering a request with the
 *   kubeconfig it had before, against the same tenant's create alone, apply to Ready (the baseline);
 * - with 100 ConfigMaps made inside it (BENCH_LIFE_CONFIGMAPS), a snapshot of it into the test
 *   bed's S3-compatible store, from the ask to its listing in the status, and its restore, from the
 *   ask to `status.restoredFrom`, against the same baseline.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { newCliUser, startKubespaces } from "../e2e/support/kubespacesCli";
import { replicaReconciles } from "../e2e/support/servedKubespaces";
import { testbed, testbedSnapshotStore, vclusterEndpoint } from "../e2e/support/testbed";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";
import { treeRssMiB } from "./processMemory";
import { timed } from "./timed";

const COUNT = Number(process.env.BENCH_LIFE_TENANTS ?? 5);
const CONFIGMAPS = Number(process.env.BENCH_LIFE_CONFIGMAPS ?? 100);

const tenantNamespace = (name: string) => `kubespaces-tenant-${name}`;

/**
 * `kubeconfig` as its team reaches the tenant through a port-forward: the control plane's loopback
 * port on the test bed, with TLS still checking the name the kubeconfig carries.
 */
function forwardedKubeconfig(kubeconfig: string, name: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromString(kubeconfig);
  const cluster = config.getCurrentCluster()!;
  const server = vclusterEndpoint(tenantNamespace(name), name);
  config.clusters = [{ ...cluster, server, tlsServerName: new URL(cluster.server).hostname }];
  return config;
}

/** The resident memory of tenant `name`'s control plane: every process the runner started for its pod, in MiB. */
function controlPlaneMiB(name: string): number {
  const rows = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).trim().split("\n");
  const marker = `run-vcluster-pod ${tenantNamespace(name)} `;
  return rows
    .filter((row) => row.includes(marker))
    .map((row) => Number(row.trim().split(/\s+/)[0]))
    .reduce((sum, pid) => sum + treeRssMiB(pid), 0);
}

/** The host's MemAvailable, in MiB. */
function availableMiB(): number {
  const line = readFileSync("/proc/meminfo", "utf8").match(/^MemAvailable:\s+(\d+) kB$/m);
  return Number(line![1]) / 1024;
}

/** Sets `spec.sleep` of `names` and waits until each is `phase` at its new generation. */
async function setSleep(names: readonly string[], asleep: boolean, phase: string): Promise<void> {
  const patch = JSON.stringify({ spec: { sleep: asleep } });
  await Promise.all(names.map((n) => kubectlAsAdmin("patch", `tenant/${n}`, "--type=merge", "-p", patch)));
  for (const name of names) {
    const generation = (await kubectlAsAdmin("get", `tenant/${name}`, "-o", "jsonpath={.metadata.generation}")).stdout;
    await kubectlAsAdmin(
      "wait",
      `--for=jsonpath={.status.observedGeneration}=${generation}`,
      "--timeout=1800s",
      `tenant/${name}`,
    );
    await kubectlAsAdmin("wait", `--for=jsonpath={.status.phase}=${phase}`, "--timeout=60s", `tenant/${name}`);
  }
}

/** Annotates Tenant `name` with `annotation`, and resolves once its status's `jsonpath` reads `value`. */
async function askAndWait(name: string, annotation: string, jsonpath: string, value: string): Promise<void> {
  await kubectlAsAdmin("annotate", "--overwrite", `tenant/${name}`, annotation);
  await kubectlAsAdmin("wait", `--for=jsonpath=${jsonpath}=${value}`, "--timeout=1800s", `tenant/${name}`);
}

/** Makes `count` ConfigMaps in the default namespace of the virtual cluster `kubeconfig` opens. */
async function makeConfigMaps(name: string, kubeconfig: string, count: number): Promise<void> {
  const core = forwardedKubeconfig(kubeconfig, name).makeApiClient(CoreV1Api);
  for (let i = 0; i < count; i++)
    await core.createNamespacedConfigMap({
      namespace: "default",
      body: { metadata: { name: `bench-${i}` }, data: { value: "x".repeat(1024) } },
    });
}

/** Resolves once tenant `name`'s API answers a request made with `kubeconfig`. */
async function apiAnswers(name: string, kubeconfig: string): Promise<void> {
  for (;;) {
    try {
      await forwardedKubeconfig(kubeconfig, name).makeApiClient(CoreV1Api).listNamespace();
      return;
    } catch {
      // Its control plane is not up yet, or the test bed has no port for it yet: asked again.
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function main(): Promise<void> {
  testbed("up");
  const configFile = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-bench-life-")), "server.yaml");
  writeFileSync(configFile, stringify({ snapshots: { s3: testbedSnapshotStore() } }));
  const server = startKubespaces(newCliUser(), [
    ...["server", "--id", "bench-life", "--config", configFile],
    ...["--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"],
  ]);
  const names = Array.from({ length: COUNT }, (_, i) => `bench-l-${i}`);
  const tenants = tenantManifests(names);
  try {
    await server.printed(replicaReconciles("bench-life"));
    const [first, ...others] = names;
    // The baseline: one tenant created alone, from its apply to Ready.
    const created = await timed(async () => {
      await kubectlAsAdmin("apply", "-f", `${tenants}/${first}.yaml`);
      await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", `tenant/${first}`);
    });
    await kubectlAsAdmin("apply", "-f", tenants);
    await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...others.map((n) => `tenant/${n}`));
    const awake = names.map(controlPlaneMiB);
    const availableAwake = availableMiB();
    const kubeconfig = Buffer.from(
      (
        await kubectlAsAdmin(
          ...["get", "secret", `${first}-kubeconfig`, "-n", tenantNamespace(first), "-o", "jsonpath={.data.config}"],
        )
      ).stdout,
      "base64",
    ).toString("utf8");
    const slept = await timed(() => setSleep(names, true, "Sleeping"));
    const asleep = names.map(controlPlaneMiB);
    const availableAsleep = availableMiB();
    const woken = await timed(async () => {
      await setSleep([first], false, "Ready");
      await apiAnswers(first, kubeconfig);
    });
    await makeConfigMaps(first, kubeconfig, CONFIGMAPS);
    const snapshotted = await timed(() =>
      askAndWait(first, "kubespaces.io/snapshot=bench", "{.status.snapshotRequest}", "bench"),
    );
    const snapshot = (await kubectlAsAdmin("get", `tenant/${first}`, "-o", "jsonpath={.status.snapshots[0].name}"))
      .stdout;
    if (!snapshot) throw new Error(`the snapshot of ${first} failed: kubectl describe tenant ${first}`);
    const restored = await timed(() =>
      askAndWait(first, `kubespaces.io/restore-from=${snapshot}`, "{.status.restoredFrom}", snapshot),
    );

    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const mib = (value: number) => `${value.toFixed(0)} MiB`;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`a tenant's life through kubespaces server, ${COUNT} real tenants on the test bed:`);
    console.log(
      `  control planes' resident memory, awake:           ${mib(sum(awake))} (${awake.map(mib).join(", ")})`,
    );
    console.log(`  the same, all ${COUNT} asleep:                            ${mib(sum(asleep))}`);
    console.log(
      `  the host's MemAvailable, awake -> asleep:         ${mib(availableAwake)} -> ${mib(availableAsleep)} (+${mib(availableAsleep - availableAwake)})`,
    );
    console.log(`  ${COUNT} put to sleep, to all Sleeping:                  ${s(slept)}`);
    console.log(`  one tenant created alone, apply to Ready (baseline): ${s(created)} (1.00x)`);
    console.log(
      `  that tenant woken, to its API answering with its old kubeconfig: ${s(woken)} (${(woken / created).toFixed(2)}x)`,
    );
    console.log(
      `  a snapshot of it holding ${CONFIGMAPS} ConfigMaps, ask to listed:    ${s(snapshotted)} (${(snapshotted / created).toFixed(2)}x)`,
    );
    console.log(
      `  its restore, ask to restoredFrom (down, restore, up): ${s(restored)} (${(restored / created).toFixed(2)}x)`,
    );
  } finally {
    await kubectlAsAdmin("delete", "-f", tenants, "--wait=true", "--timeout=1800s").catch(() => undefined);
    server.child.kill("SIGTERM");
    await server.finished;
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
