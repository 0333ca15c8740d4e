/**
 * `npm run bench:e2e`: on the local test bed, the wall time of `pulumi up` and `pulumi destroy`
 * for 1 and 10 tenants through the Tenant component, next to the same objects declared as raw
 * @pulumi/kubernetes resources; and how fast readiness notices the kubeconfig Secret (from the
 * Secret's appearance, seen by a watch here, to the readiness resource finishing), with the number
 * of API requests the wait made. Programs run inline (Automation API), so both sides pay the same
 * engine costs. The vCluster is the real pinned chart and control plane the test bed runs.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Watch, KubeConfig } from "@kubernetes/client-node";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { declareRawResources, declareTenants, type ProgramOptions } from "./programs";
import { HOLD_CONTROL_PLANE } from "../e2e/support/tenantsStack";
import { testbed, testbedEnv } from "../e2e/support/testbed";
import { timed } from "./timed";

const SIZES = (process.env.BENCH_E2E_TENANTS ?? "1,10").split(",").map(Number);
/** The chart the test bed packaged; its env file exists once the test bed is up. */
const chartPath = (): string => testbedEnv().KUBESPACES_VCLUSTER_CHART;
// The test bed starts no control plane (which writes the kubeconfig Secret) while the workload has it.
const WITHHOLD = HOLD_CONTROL_PLANE;

type Program = "raw" | "tenant";

async function benchStack(name: string, program: () => void): Promise<Stack> {
  const env = testbedEnv();
  const workDir = path.join(env.KUBESPACES_TESTBED_DIR, "bench-work");
  const stateDir = path.join(env.KUBESPACES_TESTBED_DIR, "pulumi-state");
  mkdirSync(workDir, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, projectName: "kubespaces-bench", program: async () => program() },
    { workDir, envVars: { ...env, PULUMI_BACKEND_URL: `file://${stateDir}` } },
  );
  await stack.destroy();
  return stack;
}

async function upAndDestroy(program: Program, count: number): Promise<{ upMs: number; destroyMs: number }> {
  const options: ProgramOptions = { chartPath: chartPath(), verifyCrds: true };
  const declare =
    program === "tenant" ? () => declareTenants(count, options) : () => declareRawResources(count, options);
  const stack = await benchStack(`bench-${program}-${count}`, declare);
  const upMs = await timed(() => stack.up());
  const destroyMs = await timed(() => stack.destroy());
  await stack.workspace.removeStack(stack.name);
  return { upMs, destroyMs };
}

/** Time from the kubeconfig Secret's appearance to the readiness resource's finish, and its API requests. */
async function readinessDelay(): Promise<{ delayMs: number; apiRequests: number }> {
  const stack = await benchStack("bench-readiness", () =>
    declareTenants(1, { chartPath: chartPath(), verifyCrds: true, workloadAnnotations: { [WITHHOLD]: "true" } }),
  );
  const config = new KubeConfig();
  config.loadFromFile(testbedEnv().KUBECONFIG);
  const namespace = "kubespaces-tenant-team-0";
  let secretSeenAt = 0;
  let secretWatch: AbortController | undefined;
  const release = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const watch = new Watch(config);
    secretWatch = await watch.watch(
      `/api/v1/namespaces/${namespace}/secrets`,
      { fieldSelector: "metadata.name=vc-team-0" },
      (type) => {
        if (type === "ADDED" && !secretSeenAt) secretSeenAt = Date.now();
      },
      () => undefined,
    );
    const apps = (await import("@kubernetes/client-node")).AppsV1Api;
    await config.makeApiClient(apps).patchNamespacedDeployment({
      name: "team-0",
      namespace,
      body: [{ op: "remove", path: `/metadata/annotations/${WITHHOLD.replace("/", "~1")}` }],
    });
  };
  const up = stack.up({
    onEvent: (event) => {
      if (event.resourcePreEvent?.metadata.urn.endsWith("::team-0-readiness")) void release();
    },
  });
  await up;
  secretWatch?.abort();
  const state = (await stack.exportStack()).deployment as {
    resources: { urn: string; outputs?: Record<string, unknown> }[];
  };
  const readiness = state.resources.find((r) => r.urn.endsWith("::team-0-readiness"))?.outputs ?? {};
  await stack.destroy();
  await stack.workspace.removeStack(stack.name);
  return { delayMs: Date.parse(String(readiness.readyAt)) - secretSeenAt, apiRequests: Number(readiness.apiRequests) };
}

async function main(): Promise<void> {
  testbed("up");
  Object.assign(process.env, testbedEnv());
  const rows: Record<string, string | number>[] = [];
  for (const count of SIZES) {
    const raw = await upAndDestroy("raw", count);
    const tenant = await upAndDestroy("tenant", count);
    rows.push({
      tenants: count,
      "raw up s": raw.upMs / 1000,
      "tenant up s": tenant.upMs / 1000,
      "up ratio": +(tenant.upMs / raw.upMs).toFixed(2),
      "raw destroy s": raw.destroyMs / 1000,
      "tenant destroy s": tenant.destroyMs / 1000,
      "destroy ratio": +(tenant.destroyMs / raw.destroyMs).toFixed(2),
    });
    process.stderr.write(`${count} tenant(s) measured\n`);
  }
  console.log(
    "Wall time on the local test bed (tenant = Tenant component incl. host check, readiness and cleanup; raw = same objects, no wait)",
  );
  console.table(rows);
  const { delayMs, apiRequests } = await readinessDelay();
  console.log(
    `readiness detection delay: ${delayMs} ms after the kubeconfig Secret appeared (aim < 500 ms), ${apiRequests} API requests during the wait`,
  );
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
