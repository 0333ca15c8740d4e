/**
 * `npm run bench:server`: `kubespaces server` on the local test bed, reconciling Tenant resources
 * applied with kubectl, each figure next to a baseline measured in the same run:
 * - one Tenant applied alone, from `kubectl apply` to Ready (the baseline);
 * - N Tenants (default 10) applied at once, from the apply to the last one Ready, and the ratio to
 *   the baseline; the server reconciles `concurrency` of them at a time (its configuration);
 * - the same N vClusters installed straight with `helm install`, all at once, to the last one ready
 *   (the raw baseline, rawHelmInstalls.ts), and the N Tenants' time against it: the server's own
 *   overhead, apart from what the host takes to start N control planes; beside both, the CPU time
 *   the whole machine spent (machineCpu.ts), and the shortest time the N Tenants could take at
 *   that CPU time on this machine's cores;
 * - the N left alone, Ready, for a window of several resync periods (BENCH_SERVER_RESYNC_SECONDS,
 *   default 20; the replica that provisioned them, at the default period, makes way for one with
 *   this period): the resyncs the server ran and the Pulumi operations they cost, read from its
 *   /metrics, per tenant and hour at the default period of 600 s, beside the update per resync
 *   that each resync ran before a resync previewed first (the baseline, computed from the same
 *   resync count);
 * - the deletes of the N, from `kubectl delete` to the last Tenant gone;
 * - the replica's memory (its process and the engines it started, resident) at rest, and its peak
 *   while the N were provisioned, with the growth per concurrent update.
 * The tenants are real: the real vCluster chart and control plane the test bed runs.
 */
import { newCliUser } from "../e2e/support/kubespacesCli";
import { startServedKubespaces, stopServedKubespaces } from "../e2e/support/servedKubespaces";
import { testbed } from "../e2e/support/testbed";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";
import { helmInstallAll, removeHelmInstalls } from "./rawHelmInstalls";
import { describeLoad, machineCores, timedWithMachineCpu, type MachineLoad } from "./machineCpu";
import { peakRss, treeRssMiB } from "./processMemory";
import { timed } from "./timed";

const COUNT = Number(process.env.BENCH_SERVER_TENANTS ?? 10);
const RESYNC_SECONDS = Number(process.env.BENCH_SERVER_RESYNC_SECONDS ?? 20);
/** The default period the idle figures are scaled to. */
const DEFAULT_RESYNC_SECONDS = 600;
const CONCURRENCY = Number(process.env.BENCH_SERVER_CONCURRENCY ?? 4);

/** Applies the Tenants in `dir` and waits until every one of `names` is Ready, with the machine's CPU time. */
const applyAndWait = (dir: string, names: readonly string[]) =>
  timedWithMachineCpu(async () => {
    await kubectlAsAdmin("apply", "-f", dir);
    await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...names.map((n) => `tenant/${n}`));
  });

const deleteAndWait = (dir: string) =>
  timed(() => kubectlAsAdmin("delete", "-f", dir, "--wait=true", "--timeout=1800s"));

/** A counter of the server's metrics at `metricsUrl` (their own listener); 0 when absent. */
async function counter(metricsUrl: string, series: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** What the Ready tenants cost, left alone for three resync periods: resyncs and Pulumi operations. */
async function idleCost(metricsUrl: string) {
  const series = {
    resyncs: ['kubespaces_resyncs_total{outcome="clean"}', 'kubespaces_resyncs_total{outcome="drifted"}'],
    ups: ['kubespaces_pulumi_operation_duration_seconds_count{operation="up",outcome="ok"}'],
    previews: ['kubespaces_pulumi_operation_duration_seconds_count{operation="preview",outcome="ok"}'],
  };
  const read = async () => {
    const sum = async (names: string[]) =>
      (await Promise.all(names.map((name) => counter(metricsUrl, name)))).reduce((a, b) => a + b, 0);
    return {
      resyncs: await sum(series.resyncs),
      clean: await counter(metricsUrl, series.resyncs[0]),
      ups: await sum(series.ups),
      previews: await sum(series.previews),
    };
  };
  const before = await read();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, 3 * RESYNC_SECONDS * 1000));
  const after = await read();
  return {
    seconds: (performance.now() - started) / 1000,
    resyncs: after.resyncs - before.resyncs,
    clean: after.clean - before.clean,
    ups: after.ups - before.ups,
    previews: after.previews - before.previews,
  };
}

/**
 * The machine's CPU time in the raw installs and in the Tenants' provisioning, and the shortest the
 * Tenants could take on these cores at their CPU time: the part of the ratio that no wait cut from
 * the server could win back here.
 */
function cpuLines(raw: MachineLoad, tenants: MachineLoad): string {
  const floorMs = (tenants.cpuSeconds / machineCores()) * 1000;
  return [
    `  the machine's CPU: raw installs ${describeLoad(raw)}; the ${COUNT} Tenants ${describeLoad(tenants)}`,
    `  at that CPU time on ${machineCores()} cores the ${COUNT} Tenants could take no less than ${(floorMs / 1000).toFixed(1)} s (${(floorMs / raw.ms).toFixed(2)}x the raw installs)`,
  ].join("\n");
}

async function main(): Promise<void> {
  testbed("up");
  const user = newCliUser();
  // The provisioning figures come from a replica at the default resync period, as a user's server
  // runs; a second one with the short period takes over for the idle window, so that no resync
  // lands on tenants still being provisioned.
  let server = await startServedKubespaces(user, "bench", {
    concurrency: CONCURRENCY,
    resyncSeconds: DEFAULT_RESYNC_SECONDS,
  });
  try {
    const restMiB = treeRssMiB(server.running.child.pid!);
    const one = ["bench-alone"];
    const oneDir = tenantManifests(one);
    const alone = (await applyAndWait(oneDir, one)).ms;
    await deleteAndWait(oneDir);
    const many = Array.from({ length: COUNT }, (_, i) => `bench-${i}`);
    const raw = await timedWithMachineCpu(() => helmInstallAll(many));
    await removeHelmInstalls(many);
    const manyDir = tenantManifests(many);
    const stopSampling = peakRss(server.running.child.pid!);
    const load = await applyAndWait(manyDir, many);
    const together = load.ms;
    const peakMiB = stopSampling();
    await stopServedKubespaces(server);
    server = await startServedKubespaces(user, "bench", { concurrency: CONCURRENCY, resyncSeconds: RESYNC_SECONDS });
    const idle = await idleCost(server.metricsUrl!);
    const deleted = await deleteAndWait(manyDir);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`one Tenant, apply to Ready:               ${s(alone)} (1.00x)`);
    console.log(
      `${COUNT} Tenants at once, apply to all Ready:     ${s(together)} (${(together / alone).toFixed(2)}x; ${CONCURRENCY} reconciled at a time)`,
    );
    console.log(
      `${COUNT} vClusters by raw helm install at once, to all ready: ${s(raw.ms)} (the ${COUNT} Tenants took ${(together / raw.ms).toFixed(2)}x that)`,
    );
    console.log(cpuLines(raw, load));
    const perTenantHour = (count: number) =>
      ((count / COUNT) * (3600 / idle.seconds) * (RESYNC_SECONDS / DEFAULT_RESYNC_SECONDS)).toFixed(2);
    console.log(
      `${COUNT} Tenants idle for ${idle.seconds.toFixed(0)} s (resync every ${RESYNC_SECONDS} s): ${idle.resyncs} resyncs (${idle.clean} clean), ${idle.ups} updates, ${idle.previews} previews`,
    );
    console.log(
      `  per tenant and hour at resyncSeconds ${DEFAULT_RESYNC_SECONDS}: ${perTenantHour(idle.ups)} updates, ${perTenantHour(idle.previews)} previews; before (an update per resync): ${perTenantHour(idle.resyncs)} updates`,
    );
    console.log(`${COUNT} Tenants deleted, to all gone:          ${s(deleted)}`);
    console.log(
      `server replica memory (its process and the engines it started, resident): ${restMiB.toFixed(0)} MiB at rest; peak ${peakMiB.toFixed(0)} MiB while the ${COUNT} were provisioned, ${CONCURRENCY} at a time: ${((peakMiB - restMiB) / CONCURRENCY).toFixed(0)} MiB per concurrent update`,
    );
  } finally {
    await stopServedKubespaces(server);
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
