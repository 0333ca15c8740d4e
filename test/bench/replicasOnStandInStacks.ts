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
import { EventEmitter } from "node:events";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from "@kubernetes/client-node";
import { TENANT_LABEL } from "../../provider/model/names";
import { DEFAULT_NAMESPACE_PREFIX } from "../../provider/model/tenantPlatformSchema";
import { chooseHost } from "../../provider/hosts/hostChoice";
import { serviceAccountHost } from "../../provider/hosts/serviceAccountHost";
import { parsePlatformPolicy } from "../../provider/model/platformPolicyValue";
import { sessionKeys } from "../../provider/server/auth/sessionSeal";
import { runServer } from "../../provider/server/kubespacesServer";
import { serverConfigSchema, type ServerConfig } from "../../provider/server/serverConfig";
import { installTenantApi, SERVER_SERVICE_ACCOUNT } from "../../provider/server/tenantApiInstall";
import type { DeployedOutputs, HostPort, StackProgram, StackRun, TenantStacks } from "../../provider/tenants/ports";
import type { ResourceStep } from "../../provider/tenants/tenantObject";
import { testbed, testbedEnv } from "../e2e/support/testbed";
import { kubectlAsAdmin, tenantManifests } from "./benchTenants";

const COUNT = Number(process.env.BENCH_REPLICAS_TENANTS ?? 200);
const REPLICA_COUNTS = (process.env.BENCH_REPLICAS_COUNTS ?? "1,2,4").split(",").map(Number);
const STACK_MS = Number(process.env.BENCH_REPLICAS_STACK_MS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_REPLICAS_IDLE_SECONDS ?? 120);

/**
 * A stand-in for the tenants service's stacks, named so everywhere it is used: an up waits STACK_MS
 * and makes the tenant's namespace (labelled as the real stack labels it) with the RoleBinding that
 * gives the server its rights there (the platform's `namespaceAccess`), a teardown deletes it at once, a preview plans nothing, and the kubeconfig is a stand-in's. It keeps
 * which stacks exist, as a backend would, so that a teardown after an up behaves as the real one does.
 */
class StandInStacks implements TenantStacks {
  private readonly stacks = new Set<string>();
  /** How many ups and previews ran. */
  readonly calls = { ups: 0, previews: 0 };
  private readonly core: CoreV1Api;
  private readonly rbac: RbacAuthorizationV1Api;

  constructor(adminKubeconfig: string) {
    const config = new KubeConfig();
    config.loadFromFile(adminKubeconfig);
    this.core = config.makeApiClient(CoreV1Api);
    this.rbac = config.makeApiClient(RbacAuthorizationV1Api);
  }

  async up(name: string, program: StackProgram, stackRun: StackRun): Promise<DeployedOutputs> {
    this.calls.ups++;
    await sleep(STACK_MS, undefined, { signal: stackRun.signal });
    const namespace = tenantNamespace(name);
    await made(
      this.core.createNamespace({ body: { metadata: { name: namespace, labels: { [TENANT_LABEL]: name } } } }),
    );
    const access = program.platform.namespaceAccess;
    if (access)
      await made(
        this.rbac.createNamespacedRoleBinding({
          namespace,
          body: {
            metadata: { name: "kubespaces-server" },
            roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: access.clusterRole },
            subjects: [
              {
                ...access.subject,
                ...(access.subject.kind === "ServiceAccount" ? {} : { apiGroup: "rbac.authorization.k8s.io" }),
              },
            ],
          },
        }),
      );
    this.stacks.add(name);
    return { namespace, apiServerUrl: `https://${name}.stand-in.invalid`, readyMessage: `stand-in ${name} is ready` };
  }
  async preview(): Promise<ResourceStep[]> {
    this.calls.previews++;
    return [];
  }
  async destroy(name: string): Promise<ResourceStep[]> {
    await this.core.deleteNamespace({ name: tenantNamespace(name) }).catch(() => undefined);
    this.stacks.delete(name);
    return [];
  }
  async exists(name: string): Promise<boolean> {
    return this.stacks.has(name);
  }
  async kubeconfig(name: string): Promise<string | undefined> {
    return this.stacks.has(name)
      ? `# a stand-in's kubeconfig for tenant ${name}: no virtual cluster runs\n`
      : undefined;
  }
}

/** Waits for a create; one that finds the object there already (an earlier round's) is done too. */
async function made(create: Promise<unknown>): Promise<void> {
  await create.catch((error) => {
    if (!String(error).includes("AlreadyExists")) throw error;
  });
}

/** Tenant `name`'s host namespace, as the platform's default policy names it. */
const tenantNamespace = (name: string) => `${DEFAULT_NAMESPACE_PREFIX}${name}`;

/** One replica: its log lines (each also told to `logged`), and what stops it. */
interface Replica {
  readonly identity: string;
  readonly lines: string[];
  readonly logged: EventEmitter;
  readonly stop: AbortController;
  readonly running: Promise<void>;
}

/** Starts replica `identity` in this process, sharing `stacks` (one backend, as replicas share one). */
function startReplica(identity: string, host: HostPort, stacks: TenantStacks, config: ServerConfig): Replica {
  const lines: string[] = [];
  const logged = new EventEmitter();
  const stop = new AbortController();
  const running = runServer(
    {
      host,
      stacks: () => stacks,
      log: (line) => {
        lines.push(line);
        logged.emit("line", line);
      },
      // The portal is not used here: its sign-in is refused, and the replica logs that and goes on.
      signIn: async () => {
        throw new Error("no sign-in in this benchmark");
      },
      sessionKeys: sessionKeys(),
    },
    config,
    { identity, signal: stop.signal },
  );
  return { identity, lines, logged, stop, running };
}

/** Resolves once every replica reconciles its share, seeing all of them. */
async function allSeeEachOther(replicas: readonly Replica[]): Promise<void> {
  const seesAll = new RegExp(
    `(reconciles its share of the Tenants, with|replicas now:) ${replicas.length} live replica`,
  );
  await Promise.all(
    replicas.map(
      (r) =>
        new Promise<void>((resolve) => {
          if (r.lines.some((l) => seesAll.test(l))) return resolve();
          const onLine = (line: string) => seesAll.test(line) && (r.logged.off("line", onLine), resolve());
          r.logged.on("line", onLine);
        }),
    ),
  );
}

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
  const stacks = new StandInStacks(testbedEnv().KUBECONFIG);
  const replicas = Array.from({ length: replicaCount }, (_, i) => startReplica(`bench-${i}`, host, stacks, config));
  try {
    await allSeeEachOther(replicas);
    const started = performance.now();
    await kubectlAsAdmin("apply", "-f", dir);
    await kubectlAsAdmin("wait", "--for=condition=Ready", "--timeout=1800s", ...names.map((n) => `tenant/${n}`));
    const readyMs = performance.now() - started;
    const shares = replicas.map((r) => r.lines.filter((l) => /^tenant \S+: reconciled$/.test(l)).length);
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
  const parsed = serverConfigSchema.parse({ metrics: false, http: { listen: "127.0.0.1:0" } });
  const config: ServerConfig = { ...parsed, platform: parsePlatformPolicy("bench", parsed.platform) };
  const host = serviceAccountHost(
    chooseHost({}),
    { namespace: config.namespace, name: SERVER_SERVICE_ACCOUNT },
    (admin, say) => installTenantApi(admin, config, say),
  );
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
      `  ${String(r.replicas).padStart(2)} replica${r.replicas === 1 ? " " : "s"}: ${(r.readyMs / 1000).toFixed(1).padStart(6)} s (${(r.readyMs / base).toFixed(2)}x); tenants each reconciled: ${r.shares.join(", ")}`,
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
