/**
 * `npm run bench:fleet`, its second part: a PlatformRevision rolled out by `kubespaces server` across
 * 5 real tenants on the local test bed (BENCH_FLEET_REAL_TENANTS), in two waves (`1`, `100%`),
 * each figure next to a baseline measured in the same run:
 * - the tenants brought to Ready (the real vCluster chart and control plane);
 * - the revision's fleet preview, from its `kubectl apply` to Previewed;
 * - wave 1 (one tenant), from the admin's approval to that tenant running the revision (the baseline);
 * - wave 2 (the other four), from the end of wave 1 to RolledOut, and its ratio to wave 1; the
 *   server brings up `concurrency` (4) tenants at once.
 * The revision changes every tenant: a new quota default (storage) and new control-plane requests,
 * which roll each control plane.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { newCliUser, startKubespaces } from "../e2e/support/kubespacesCli";
import { platformRevisionFile } from "../e2e/support/platformRevisions";
import { replicaReconciles } from "../e2e/support/servedKubespaces";
import { testbed } from "../e2e/support/testbed";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";
import { timed } from "./timed";

const COUNT = Number(process.env.BENCH_FLEET_REAL_TENANTS ?? 5);
const REVISION = "bench-rollout";

/** Waits until the revision's `jsonpath` reads `value`. */
const revisionReads = (jsonpath: string, value: string) =>
  kubectlAsAdmin("wait", `--for=jsonpath=${jsonpath}=${value}`, "--timeout=1800s", `platformrevision/${REVISION}`);

async function main(): Promise<void> {
  testbed("up");
  const configDir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-bench-rollout-"));
  const configFile = path.join(configDir, "server.yaml");
  writeFileSync(configFile, stringify({ concurrency: 4 }));
  const server = startKubespaces(newCliUser(), [
    "server",
    ...["--id", "bench-rollout", "--config", configFile],
    ...["--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"],
  ]);
  const names = Array.from({ length: COUNT }, (_, i) => `bench-r-${i}`);
  const tenants = tenantManifests(names);
  const revision = platformRevisionFile(
    REVISION,
    { quota: { default: { storage: "10Gi" } }, controlPlaneDefaults: { requests: { memory: "300Mi" } } },
    ["1", "100%"],
  );
  try {
    await server.printed(replicaReconciles("bench-rollout"));
    const ready = await timed(async () => {
      await kubectlAsAdmin("apply", "-f", tenants);
      await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...names.map((n) => `tenant/${n}`));
    });
    const previewed = await timed(async () => {
      await kubectlAsAdmin("apply", "-f", revision);
      await revisionReads("{.status.phase}", "Previewed");
    });
    const wave1 = await timed(async () => {
      await kubectlAsAdmin("annotate", `platformrevision/${REVISION}`, "kubespaces.io/rollout=approved");
      await revisionReads("{.status.rollout.applied}", "1");
    });
    const wave2 = await timed(() => revisionReads("{.status.rollout.phase}", "RolledOut"));
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`a PlatformRevision rolled out by kubespaces server across ${COUNT} real tenants, waves 1 and 100%:`);
    console.log(`  ${COUNT} tenants applied, to all Ready:            ${s(ready)}`);
    console.log(`  the revision's preview, apply to Previewed:  ${s(previewed)}`);
    console.log(`  wave 1 (1 tenant), approval to it runs it:   ${s(wave1)} (1.00x)`);
    console.log(
      `  wave 2 (${COUNT - 1} tenants), to RolledOut:              ${s(wave2)} (${(wave2 / wave1).toFixed(2)}x; 4 brought up at a time)`,
    );
  } finally {
    // The tenants first: the server's finalizer holds a revision that tenants run.
    await kubectlAsAdmin("delete", "-f", tenants, "--wait=true", "--timeout=1800s").catch(() => undefined);
    await kubectlAsAdmin("delete", "-f", revision, "--ignore-not-found", "--wait=true").catch(() => undefined);
    server.child.kill("SIGTERM");
    await server.finished;
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
