/**
 * `npm run bench:replicas` (and the first part of `npm run bench:server`): how the reconciling
 * scales with the server's replicas. 200 Tenants (BENCH_REPLICAS_TENANTS) are applied with kubectl
 * and brought to Ready by 1, 2 and 4 replicas of `kubespaces server` (BENCH_REPLICAS_COUNTS), each
 * replica the real server core (runServer: its Leases, claims, watches, queue and reconciler) run
 * in this process against the local test bed's real API server, as the server's own
 * ServiceAccount. Only the tenants service's stacks are a stand-in, `StandInStacks`: each up takes
 * a fixed time (BENCH_REPLICAS_STACK_MS, default 10000 ms; a real one took 20 to 50 s here) and
 * makes only the tenant's namespace (where the server keeps its kubeconfig Secret), no vCluster,
 * so the figures show the server's sharing, not the host's capacity. Teardowns take no time: they
 * only clear the way for the next count. The replicas share this process and the machine's cores
 * with the API server, as separate machines would not: what the API server and the replicas cost
 * per reconcile is paid on those cores whatever the count. Each count's time
 * from the apply to the last Tenant Ready is printed with its ratio to one replica's, and how many
 * tenants each replica reconciled. The aim: 4 replicas at most 0.3x of one.
 *
 * With the most replicas, the Ready tenants are then left alone for BENCH_REPLICAS_IDLE_SECONDS
 * (default 120), resyncing at the default period of 600 s: the API server's requests in that
 * window (its own `apiserver_request_total`), less those of a window as long before the replicas
 * started (the baseline: the test bed's controllers), are what the idle tenants cost the host,
 * printed per hour, beside the stacks' ups and previews in the window.
 */
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { ServerConfig } from "../../provider/server/serverConfig";
import type { HostPort } from "../../provider/tenants/ports";
import { testbed, testbedEnv } from "../e2e/support/testbed";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";
import { allSeeEachOther, StandInStacks, standInServer, startReplica } from "./standInReplicas";

const COUNT = Number(process.env.BENCH_REPLICAS_TENANTS ?? 200);
const REPLICA_COUNTS = (process.env.BENCH_REPLICAS_COUNTS ?? "1,2,4").split(",").map(Number);
const STACK_MS = Number(process.env.BENCH_REPLICAS_STACK_MS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_REPLICAS_IDLE_SECONDS ?? 120);

/** The requests the API server has answered so far (the sum of its `apiserver_request_total`). */
async function apiRequests(): Promise<number> {
  const { stdout } = await kubectlAsAdmin("get", "--raw", "/metrics");
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("apiserver_request_total{"))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

/** The API requests answered in a window of IDLE_SECONDS, and the stacks' calls in it. */
async function idleWindow(stacks?: StandInStacks) {
  const before = { requests: await apiRequests(), ...stacks?.calls };
  await sleep(IDLE_SECONDS * 1000);
  return {
    requests: (await apiRequests()) - before.requests,
    ups: (stacks?.calls.ups ?? 0) - (before.ups ?? 0),
    previews: (stacks?.calls.previews ?? 0) - (before.previews ?? 0),
  };
}

async function measure(
  replicaCount: number,
  host: HostPort,
  config: ServerConfig,
  names: string[],
  dir: string,
  idle: boolean,
) {
  const baseline = idle ? await idleWindow() : undefined;
  const stacks = new StandInStacks(testbedEnv().KUBECONFIG, { upMs: STACK_MS, previewMs: 0 });
  const replicas = Array.from({ length: replicaCount }, (_, i) => startReplica(`bench-${i}`, host, stacks, config));
  try {
    await allSeeEachOther(replicas);
    const started = performance.now();
    await kubectlAsAdmin("apply", "-f", dir);
    await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...names.map((n) => `tenant/${n}`));
    const readyMs = performance.now() - started;
    // Tenants, not reconciles: a tenant's resync, which may fall in the window too, is a reconcile of its own.
    const shares = replicas.map(
      (r) => new Set(r.lines.flatMap((l) => /^tenant (\S+): reconciled$/.exec(l)?.[1] ?? [])).size,
    );
    const idleCost = baseline && { baseline, running: await idleWindow(stacks) };
    await kubectlAsAdmin("delete", "-f", dir, "--wait=true", "--timeout=1800s");
    return { readyMs, shares, idleCost };
  } finally {
    for (const replica of replicas) replica.stop.abort();
    await Promise.all(replicas.map((r) => r.running.catch(() => undefined)));
  }
}

async function main(): Promise<void> {
  testbed("up");
  const { config, host } = standInServer();
  const names = Array.from({ length: COUNT }, (_, i) => `bench-r-${i}`);
  const dir = tenantManifests(names);
  const results = [];
  for (const [i, replicas] of REPLICA_COUNTS.entries()) {
    const idle = i === REPLICA_COUNTS.length - 1;
    results.push({ replicas, ...(await measure(replicas, host, config, names, dir, idle)) });
  }
  const base = results[0].readyMs;
  console.log(
    `${COUNT} Tenants to Ready, kubespaces server replicas over StandInStacks (every up ${STACK_MS} ms, no vCluster), concurrency ${config.concurrency} each, all in one process on this machine's ${os.cpus().length} cores beside the API server:`,
  );
  for (const r of results)
    console.log(
      `  ${String(r.replicas).padStart(2)} replica${r.replicas === 1 ? " " : "s"}: ${(r.readyMs / 1000).toFixed(1).padStart(6)} s (${(r.readyMs / base).toFixed(2)}x); tenants each replica reconciled: ${r.shares.join(", ")}`,
    );
  const last = results.at(-1)!;
  if (last.idleCost) {
    const { baseline, running } = last.idleCost;
    const perHour = (count: number) => Math.round((count * 3600) / IDLE_SECONDS);
    console.log(
      `${COUNT} Ready tenants left alone for ${IDLE_SECONDS} s with ${last.replicas} replicas (resync every ${config.resyncSeconds} s): ${perHour(running.requests - baseline.requests)} API requests an hour (${perHour(running.requests)} answered, less ${perHour(baseline.requests)} an hour of the test bed's own before the replicas started), ${perHour(running.ups)} updates and ${perHour(running.previews)} previews an hour`,
    );
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
