/**
 * `npm run bench:fleet`: how long a PlatformRevision's fleet preview takes as the fleet grows. The
 * revision is previewed on 1 Tenant (the baseline), then on 50 (BENCH_FLEET_TENANTS), from the
 * `kubectl apply` of the revision to its phase Previewed. The replicas (BENCH_FLEET_REPLICAS,
 * default 1) are the real server core (its watches, queue, claims, reconciler and fleet preview) run
 * in this process against the local test bed's API server, as in bench:replicas; only the tenants
 * service's stacks are a stand-in, StandInStacks, whose preview takes a fixed time
 * (BENCH_FLEET_PREVIEW_MS, default 5000 ms) and whose up takes none. Each replica previews
 * `concurrency` (4) tenants at once, so the 50 cannot take less than ceil(50 / (4 x replicas))
 * previews one after another: that bound is printed beside the ratio.
 */
import { testbed, testbedEnv } from "../e2e/support/testbed";
import { platformRevisionFile } from "../e2e/support/platformRevisions";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";
import { allSeeEachOther, StandInStacks, standInServer, startReplica } from "./standInReplicas";

const COUNT = Number(process.env.BENCH_FLEET_TENANTS ?? 50);
const REPLICAS = Number(process.env.BENCH_FLEET_REPLICAS ?? 1);
const PREVIEW_MS = Number(process.env.BENCH_FLEET_PREVIEW_MS ?? 5000);

/** Brings `names` to Ready, then times revision `revision` from its apply to Previewed; removes both after. */
async function previewTime(names: readonly string[], revision: string): Promise<number> {
  const tenants = tenantManifests(names);
  await kubectlAsAdmin("apply", "-f", tenants);
  await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...names.map((n) => `tenant/${n}`));
  const file = platformRevisionFile(revision, { quota: { default: { storage: "10Gi" } } });
  const started = performance.now();
  await kubectlAsAdmin("apply", "-f", file);
  await kubectlAsAdmin(
    "wait",
    "--for=jsonpath={.status.phase}=Previewed",
    "--timeout=1800s",
    `platformrevision/${revision}`,
  );
  const ms = performance.now() - started;
  await kubectlAsAdmin("delete", "-f", file, "--wait=true");
  await kubectlAsAdmin("delete", "-f", tenants, "--wait=true", "--timeout=1800s");
  return ms;
}

async function main(): Promise<void> {
  testbed("up");
  const { config, host } = standInServer();
  const stacks = new StandInStacks(testbedEnv().KUBECONFIG, { upMs: 0, previewMs: PREVIEW_MS });
  const replicas = Array.from({ length: REPLICAS }, (_, i) => startReplica(`bench-fleet-${i}`, host, stacks, config));
  try {
    await allSeeEachOther(replicas);
    const one = await previewTime(["bench-f-alone"], "bench-fleet-one");
    const many = await previewTime(
      Array.from({ length: COUNT }, (_, i) => `bench-f-${i}`),
      "bench-fleet-many",
    );
    const bound = Math.ceil(COUNT / (config.concurrency * REPLICAS));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      `a PlatformRevision previewed, apply to Previewed, ${REPLICAS} replica(s) of the server over StandInStacks (every preview ${PREVIEW_MS} ms), concurrency ${config.concurrency} each:`,
    );
    console.log(`  on 1 tenant:   ${s(one)} (1.00x)`);
    console.log(
      `  on ${COUNT} tenants: ${s(many)} (${(many / one).toFixed(2)}x; no fewer than ${bound} previews one after another: ${bound}.00x)`,
    );
  } finally {
    for (const replica of replicas) replica.stop.abort();
    await Promise.all(replicas.map((r) => r.running.catch(() => undefined)));
  }
}

void main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
