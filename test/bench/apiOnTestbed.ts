/**
 * `npm run bench:api`: the latency of `kubespaces server`'s list API (`GET /api/v1/tenants`) with
 * 20 tenants, on the local test bed, beside a baseline measured in the same run: the same number
 * of lists of the Tenant resources straight from the API server (the test bed's admin, with
 * @kubernetes/client-node), which is what each API list does underneath. And the cost of the
 * server's metrics: list and get (`GET /api/v1/tenants/NAME`) on one replica, metrics on (the
 * default), beside a second replica with `metrics: false` running at the same time (the API's
 * reads are the same on both), alternating request by request.
 *
 * The server runs with `requireApproval: true`, so the 20 Tenants (created through the API as one
 * person, signed in with the device flow at the local Dex in headless Chromium) are previewed and
 * then wait in AwaitingApproval: nothing is provisioned, and no reconcile runs while the lists are
 * timed. The two kinds of list alternate, one of each per round, so that the machine's other load
 * weighs on both alike. Everything is deleted through the API at the end (an unapproved Tenant's
 * teardown has nothing to remove), and the run checks that nothing is left.
 */
import { CustomObjectsApi } from "@kubernetes/client-node";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_VERSION } from "../../provider/contracts/tenantResourceNames";
import { DEFAULT_MINIMUM_QUOTA } from "../../provider/generated/defaultMinimumQuota";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../e2e/support/browser";
import { hostClients } from "../e2e/support/hostCluster";
import { newCliUser } from "../e2e/support/kubespacesCli";
import {
  callApi,
  dexPerson,
  keptIdToken,
  loginThroughDevice,
  startServedKubespaces,
  stopServedKubespaces,
  type ServedKubespaces,
} from "../e2e/support/servedKubespaces";
import { testbed, testbedEnv } from "../e2e/support/testbed";
import { timed } from "./timed";

const TENANTS = Number(process.env.BENCH_API_TENANTS ?? 20);
const LISTS = Number(process.env.BENCH_API_LISTS ?? 200);
/** Lists of each kind made first and not counted: connections, the JWKS and the JIT warm up. */
const WARM_UP = 10;
const PERSON = dexPerson("alice@example.com");
const names = Array.from({ length: TENANTS }, (_, i) => `bench-api-${String(i).padStart(2, "0")}`);
const run = promisify(execFile);
const kubectl = (...args: string[]) =>
  run("kubectl", args, { env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG }, encoding: "utf8" });

/** The `p`-th percentile (nearest rank) of `samples`. */
function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The two replicas whose API answers are compared: metrics on and off. */
interface Replicas {
  readonly on: { readonly served: ServedKubespaces; readonly token: string };
  readonly off: { readonly served: ServedKubespaces; readonly token: string };
}

/** List and get on each replica, alternating one of each per round; each answer is checked. */
async function measureMetricsCost(replicas: Replicas): Promise<Record<string, number[]>> {
  const list = (replica: Replicas["on"]) => async () => {
    const answer = await callApi(replica.served.url, replica.token, "GET", API_PATHS.tenants);
    if (answer.status !== 200 || (answer.body as { items?: unknown[] }).items?.length !== TENANTS)
      throw new Error(`list: HTTP ${answer.status}`);
  };
  const get = (replica: Replicas["on"], i: number) => async () => {
    const answer = await callApi(replica.served.url, replica.token, "GET", API_PATHS.tenant(names[i % TENANTS]));
    if (answer.status !== 200) throw new Error(`get: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  };
  const samples: Record<string, number[]> = { listOn: [], listOff: [], getOn: [], getOff: [] };
  for (let i = 0; i < WARM_UP + LISTS; i++) {
    const round = {
      listOn: await timed(list(replicas.on)),
      listOff: await timed(list(replicas.off)),
      getOn: await timed(get(replicas.on, i)),
      getOff: await timed(get(replicas.off, i)),
    };
    if (i >= WARM_UP) for (const [key, ms] of Object.entries(round)) samples[key].push(ms);
  }
  return samples;
}

/** Creates the tenants through the API, one after another, and waits until each waits for approval. */
async function createTenants(served: ServedKubespaces, token: string): Promise<void> {
  const { cpu, memory } = DEFAULT_MINIMUM_QUOTA;
  for (const name of names) {
    const answer = await callApi(served.url, token, "POST", API_PATHS.tenants, {
      name,
      spec: { resources: { cpu, memory } },
    });
    if (answer.status !== 201)
      throw new Error(`creating ${name}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  await kubectl(
    "wait",
    "--for=jsonpath={.status.phase}=AwaitingApproval",
    "--timeout=1800s",
    ...names.map((name) => `tenant/${name}`),
  );
  // What the output says: held for approval, nothing of them exists on the host.
  const { stdout } = await kubectl("get", "namespaces", "-o", "name");
  const provisioned = stdout.split("\n").filter((line) => names.some((name) => line.endsWith(`-${name}`)));
  if (provisioned.length > 0) throw new Error(`provisioned although held for approval: ${provisioned.join(", ")}`);
}

/** Deletes every tenant of the run through the API and waits until the Tenants are gone. */
async function deleteTenants(served: ServedKubespaces, token: string): Promise<void> {
  for (const name of names) {
    const answer = await callApi(served.url, token, "DELETE", API_PATHS.tenant(name));
    if (answer.status !== 202 && answer.status !== 404)
      throw new Error(`deleting ${name}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  await kubectl("wait", "--for=delete", "--timeout=600s", ...names.map((name) => `tenant/${name}`)).catch(
    () => undefined,
  );
  const { stdout } = await kubectl("get", "tenants,namespaces", "-o", "name");
  const left = stdout.split("\n").filter((line) => names.some((name) => line.endsWith(name)));
  if (left.length > 0) throw new Error(`left behind: ${left.join(", ")}`);
}

/** The two lists, alternating; the API's answer is checked to hold the run's tenants. */
async function measureLists(served: ServedKubespaces, token: string): Promise<{ api: number[]; direct: number[] }> {
  const customObjects = hostClients().config.makeApiClient(CustomObjectsApi);
  const direct = () =>
    customObjects.listClusterCustomObject({ group: TENANT_GROUP, version: TENANT_VERSION, plural: TENANT_PLURAL });
  const api = async () => {
    const answer = await callApi(served.url, token, "GET", API_PATHS.tenants);
    const items = (answer.body as { items?: unknown[] }).items;
    if (answer.status !== 200 || items?.length !== TENANTS)
      throw new Error(`the list API answered HTTP ${answer.status} with ${items?.length} tenants, not ${TENANTS}`);
  };
  for (let i = 0; i < WARM_UP; i++) {
    await api();
    await direct();
  }
  const samples = { api: [] as number[], direct: [] as number[] };
  for (let i = 0; i < LISTS; i++) {
    samples.api.push(await timed(api));
    samples.direct.push(await timed(direct));
  }
  return samples;
}

/** Starts a replica with `config` and signs PERSON in to it; resolves to it and the bearer token. */
async function signedInReplica(
  browser: Browser,
  id: string,
  config: object,
): Promise<{ served: ServedKubespaces; token?: string }> {
  const served = await startServedKubespaces(newCliUser(), id, config);
  const person = newCliUser();
  const login = await loginThroughDevice(browser, person, served.url, PERSON);
  if (login.code !== 0) return { served };
  return { served, token: keptIdToken(person) };
}

async function main(): Promise<void> {
  testbed("up");
  const browser = await launchBrowser();
  const config = { requireApproval: true, http: { createsPerMinute: TENANTS } };
  let on: { served: ServedKubespaces; token?: string } | undefined;
  let off: { served: ServedKubespaces; token?: string } | undefined;
  try {
    on = await signedInReplica(browser, "bench-api", config);
    if (!on.token) throw new Error("kubespaces login at the metrics-on replica failed");
    // A second replica, metrics off, beside the first: it serves the same API over the same Tenants.
    off = await signedInReplica(browser, "bench-api-off", { ...config, metrics: false });
    if (!off.token) throw new Error("kubespaces login at the metrics-off replica failed");
    await createTenants(on.served, on.token);
    const { api, direct } = await measureLists(on.served, on.token);
    const cost = await measureMetricsCost({
      on: { served: on.served, token: on.token },
      off: { served: off.served, token: off.token },
    });
    const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(9);
    const row = (what: string, samples: number[], base: number[]) =>
      `${what.padEnd(44)} p50 ${ms(percentile(samples, 50))}  p95 ${ms(percentile(samples, 95))}  (${(percentile(samples, 50) / percentile(base, 50)).toFixed(2)}x p50, ${(percentile(samples, 95) / percentile(base, 95)).toFixed(2)}x p95)`;
    console.log(
      `${TENANTS} Tenants of one person, created through the API, all waiting in AwaitingApproval (requireApproval: true): none provisioned`,
    );
    console.log(`${LISTS} lists of each, alternating, after ${WARM_UP} of each not counted:`);
    console.log(row("API server, Tenant resources listed directly:", direct, direct));
    console.log(row("kubespaces list API (GET /api/v1/tenants):", api, direct));
    console.log(
      `Metrics on (one replica) against off (a second replica, metrics: false), ${LISTS} rounds of list, list, get, get, after ${WARM_UP} not counted:`,
    );
    console.log(row("list, metrics off:", cost.listOff, cost.listOff));
    console.log(row("list, metrics on:", cost.listOn, cost.listOff));
    console.log(row("get, metrics off:", cost.getOff, cost.getOff));
    console.log(row("get, metrics on:", cost.getOn, cost.getOff));
  } finally {
    if (on?.token) await deleteTenants(on.served, on.token);
    await stopServedKubespaces(off?.served);
    await stopServedKubespaces(on?.served);
    await browser.close();
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
