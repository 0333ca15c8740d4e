/**
 * The raw baseline of bench:server: the same vClusters its Tenants get, installed straight with
 * `helm install` (the test bed's helm, its packaged chart, the values a Tenant's release renders),
 * each in a namespace of its own, and waited for the way a Tenant's readiness waits: the
 * control plane's workload ready (`--wait`) and its kubeconfig Secret written. Nothing of the
 * tenant's fence (quota, LimitRange, policies, routes), no Pulumi and no server: what is left of a
 * Tenant's time over this is the server's own.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { stringify } from "yaml";
import { validateTenant } from "../../provider/model/validateTenant";
import { kubeconfigSecretName } from "../../provider/model/names";
import { renderHelmRelease } from "../../provider/render/helmRelease";
import { testbedEnv } from "../e2e/support/testbed";
import { BENCH_RESOURCES, BENCH_OWNER, kubectlAsAdmin } from "./benchTenants";

const run = promisify(execFile);

/** The namespace of raw install `name`: not a tenant's, so no Tenant and no admission rule is about it. */
const rawNamespace = (name: string) => `bench-raw-${name}`;

/** Installs the vCluster Tenant `name` would get, and waits until it is ready. */
async function installOne(name: string, env: Record<string, string>): Promise<void> {
  const spec = validateTenant(name, {
    owner: BENCH_OWNER,
    resources: BENCH_RESOURCES,
    platform: { chart: { localPath: env.KUBESPACES_VCLUSTER_CHART } },
  });
  const release = renderHelmRelease(spec);
  const namespace = rawNamespace(name);
  const values = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-bench-raw-")), "values.yaml");
  writeFileSync(values, stringify(release.values));
  const install = ["install", release.name, release.chart, "-n", namespace, "--create-namespace", "-f", values];
  await run(env.KUBESPACES_TESTBED_HELM, [...install, "--wait", "--timeout", `${release.timeoutSeconds}s`], {
    env: { ...process.env, KUBECONFIG: env.KUBECONFIG },
  });
  await kubectlAsAdmin(
    "wait",
    "-n",
    namespace,
    "--for=create",
    `secret/${kubeconfigSecretName(release.name)}`,
    `--timeout=${spec.readiness.timeoutSeconds}s`,
  );
}

/** Installs the vClusters of `names` at once, as helm releases; resolves once every one is ready. */
export async function helmInstallAll(names: readonly string[]): Promise<void> {
  const env = testbedEnv();
  await Promise.all(names.map((name) => installOne(name, env)));
}

/** Removes what helmInstallAll made: the releases' namespaces, and everything in them. */
export async function removeHelmInstalls(names: readonly string[]): Promise<void> {
  await kubectlAsAdmin("delete", "namespace", "--wait=true", "--timeout=1800s", ...names.map(rawNamespace));
}
