/**
 * The `kubespaces` command through a `kubespaces server` on the test bed: `login --server` with the
 * device flow against the server's local Dex (the page it prints approved in a real browser, as the
 * person would), then create, get --wait, list, kubeconfig and delete, every one through the
 * server's API. Then what the real server and the real Dex refuse: an ID token whose signature was
 * forged, or whose claims were changed. Expired tokens, another client's (wrong audience) or
 * another issuer's are proved by the unit tests against a stand-in issuer (test/unit/serverApi.test.ts),
 * which can mint them; the real Dex cannot be asked to. And two people creating at once, one by the
 * command and one by the API, both land.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { V1PodSpec } from "@kubernetes/client-node";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PATHS } from "../../provider/contracts/tenantsApi";
import { DEFAULT_MINIMUM_QUOTA } from "../../provider/generated/defaultMinimumQuota";
import { launchBrowser } from "./support/browser";
import { kubespaces, newCliUser, startKubespaces, type CliUser } from "./support/kubespacesCli";
import {
  callApi,
  dexPerson,
  keptIdToken,
  loginThroughDevice,
  startServedKubespaces,
  stopServedKubespaces,
  type ServedKubespaces,
} from "./support/servedKubespaces";
import { eventually } from "./support/hostCluster";
import { probePod } from "./support/multiTenancyChecks";
import { expectNothingLeft, tenantNamespace } from "./support/tenantAssertions";
import { testbedEnv, testbedSnapshotStore, vclusterEndpoint } from "./support/testbed";
import { platformRevisionFile } from "./support/platformRevisions";

const run = promisify(execFile);
const ALICE = dexPerson("alice@example.com");
const BOB = dexPerson("bob@example.com");
/** Bob's tenant, asked for with the command. */
const BOBS = "team-cli-bob";
/** Alice's tenant, asked for with the API at the same time. */
const ALICES = "team-api-alice";

/** The snapshot of bob's tenant the tests take, restored after the tenant was deleted. */
let bobsSnapshot = "";

/** Alice's tenant that expires. */
const EXPIRING = "team-api-expiring";
/** When alice's expiring tenant expires (set by the test that creates it). */
let expiresAt = "";
/** The furthest ahead the server's policy lets an expiry be. */
const MAX_LIFETIME_HOURS = 72;
const { cpu, memory } = DEFAULT_MINIMUM_QUOTA;

/** kubectl as the test bed's admin. */
const kubectl = (...args: string[]) =>
  run("kubectl", args, { env: { ...process.env, KUBECONFIG: testbedEnv().KUBECONFIG }, encoding: "utf8" });

/** The JWT `token` with its part `index` (0 header, 1 payload, 2 signature) replaced by `part`. */
function withPart(token: string, index: number, part: string): string {
  const parts = token.split(".");
  parts[index] = part;
  return parts.join(".");
}

/** `token`'s payload with `claims` over it, encoded as a JWT part (the signature no longer matches it). */
function changedPayload(token: string, claims: object): string {
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8"));
  return Buffer.from(JSON.stringify({ ...payload, ...claims })).toString("base64url");
}

/** `signature` changed in its first bytes, still valid base64url of the same length. */
function forgedSignature(signature: string): string {
  const bytes = Buffer.from(signature, "base64url");
  for (let i = 0; i < 8; i++) bytes[i] ^= 0xff;
  return bytes.toString("base64url");
}

/** kubectl inside bob's virtual cluster, with the kubeconfig the command hands him, through its control plane's port as it is now. */
async function insideBobs(bob: CliUser, ...args: string[]) {
  const printed = await kubespaces(
    bob,
    "tenant",
    "kubeconfig",
    BOBS,
    "--server",
    vclusterEndpoint(tenantNamespace(BOBS), BOBS),
  );
  expect(printed.code, printed.stderr).toBe(0);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-inside-")), "kubeconfig");
  writeFileSync(file, printed.stdout, { mode: 0o600 });
  // On the test bed a control plane's pod is Ready as KWOK says, not as its probe would: after a
  // start, its API answers a few seconds later.
  await eventually(
    () =>
      run("kubectl", ["--kubeconfig", file, "get", "--raw", "/readyz"]).then(
        () => true,
        () => false,
      ),
    120_000,
    "bob's virtual cluster to answer",
  );
  return run("kubectl", ["--kubeconfig", file, ...args], { encoding: "utf8" });
}

/** The Events recorded on Tenant `name` (and on any Tenant of that name before it), one `Reason: message` a line. */
async function eventsOf(name: string): Promise<string> {
  const jsonpath = 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}';
  const field = `involvedObject.kind=Tenant,involvedObject.name=${name}`;
  return (await kubectl("get", "events", "-A", "--field-selector", field, "-o", jsonpath)).stdout;
}

/** What bob made inside his virtual cluster before its sleep is there: the namespace, its ConfigMap and its Deployment. */
async function expectKeptInside(bob: CliUser): Promise<void> {
  const notes = await insideBobs(
    bob,
    "-n",
    "kept-through-sleep",
    "get",
    "configmap",
    "notes",
    "-o",
    "jsonpath={.data.written}",
  );
  expect(notes.stdout).toBe("before-sleep");
  const web = await insideBobs(bob, "-n", "kept-through-sleep", "get", "deployment", "web", "-o", "name");
  expect(web.stdout.trim()).toBe("deployment.apps/web");
}

describe("the command through a kubespaces server, signed in with the device flow at the local Dex", () => {
  let browser: Browser;
  let served: ServedKubespaces;
  const bob: CliUser = newCliUser();
  const alice: CliUser = newCliUser();

  beforeAll(async () => {
    browser = await launchBrowser();
    served = await startServedKubespaces(newCliUser(), "cli-server", {
      platform: { expiry: { maxLifetimeHours: MAX_LIFETIME_HOURS } },
      snapshots: { s3: testbedSnapshotStore() },
    });
  });

  afterAll(async () => {
    if (served)
      await kubectl(
        "delete",
        "tenant",
        BOBS,
        ALICES,
        EXPIRING,
        "--ignore-not-found",
        "--wait=true",
        "--timeout=600s",
      ).catch(() => undefined);
    await stopServedKubespaces(served);
    await browser?.close();
  });

  it("login --server prints the device page; approved in the browser as bob, the server knows him", async () => {
    const login = await loginThroughDevice(browser, bob, served.url, BOB);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/open\n\s+http:\/\/127\.0\.0\.1:\d+\/dex\/device\S*\n/);
    expect(login.stderr).toContain(`signed in to ${served.url}; every tenant command now goes through it`);
    expect(login.stdout).toMatch(new RegExp(`user\\s+${BOB.email}\\n`));
    const token = keptIdToken(bob);
    expect(login.stdout + login.stderr).not.toContain(token);

    const shown = await kubespaces(bob, "login");
    expect(shown.stdout).toMatch(new RegExp(`user\\s+${BOB.email}\\nsign-in\\s+valid until \\d{4}-`));
    // Alice signs in the same way; the test uses her token with the API directly.
    expect((await loginThroughDevice(browser, alice, served.url, ALICE)).code).toBe(0);
  });

  it("the real server refuses Dex's ID token with a forged signature, or with changed claims (401)", async () => {
    const token = keptIdToken(bob);
    const answers = {
      "the token as Dex signed it": await callApi(served.url, token, "GET", API_PATHS.whoAmI),
      "no token": await callApi(served.url, undefined, "GET", API_PATHS.tenants),
      "a forged signature": await callApi(
        served.url,
        withPart(token, 2, forgedSignature(token.split(".")[2])),
        "GET",
        API_PATHS.tenants,
      ),
      "bob's token claiming to be alice": await callApi(
        served.url,
        withPart(token, 1, changedPayload(token, { email: ALICE.email })),
        "GET",
        API_PATHS.tenants,
      ),
      "bob's token claiming the admin group": await callApi(
        served.url,
        withPart(token, 1, changedPayload(token, { groups: ["kubespaces-admins"] })),
        "GET",
        `${API_PATHS.tenants}?all=true`,
      ),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, a]) => [what, a.status]))).toEqual({
      "the token as Dex signed it": 200,
      "no token": 401,
      "a forged signature": 401,
      "bob's token claiming to be alice": 401,
      "bob's token claiming the admin group": 401,
    });
    expect(answers["the token as Dex signed it"].body).toMatchObject({ owner: BOB.email, isAdmin: false });
    for (const [what, answer] of Object.entries(answers).slice(1)) {
      expect(answer.body, what).toMatchObject({ error: { kind: "unauthenticated" } });
      expect(JSON.stringify(answer.body), what).not.toContain(token.split(".")[2]);
    }
    expect((answers["a forged signature"].body as { error: { message: string } }).error.message).toContain("signature");
  });

  it("create --preview through the server prints what the create makes, and makes nothing", async () => {
    const previewed = await kubespaces(bob, "tenant", "create", BOBS, "--cpu", cpu, "--memory", memory, "--preview");
    expect(previewed.code, previewed.stderr).toBe(0);
    expect(previewed.stderr).toContain(`asked ${served.url} to preview creating tenant ${BOBS}`);
    expect(previewed.stdout).toMatch(new RegExp(`^Preview of creating tenant ${BOBS}; nothing was changed\\.\\n`));
    expect(previewed.stdout).toMatch(
      new RegExp(`^ {2}\\+ {2}create {3}kubernetes:helm\\.sh/v3:Release +${BOBS}-vcluster$`, "m"),
    );
    expect(previewed.stdout).toMatch(/\n([1-9]\d*) to create, 0 to update, 0 to replace, 0 to delete\n$/);
    expect((await kubectl("get", "tenants", "-o", "name")).stdout).not.toContain(`/${BOBS}\n`);
    await expectNothingLeft(BOBS);
  });

  it("bob's create by the command and alice's by the API, at once, both land Ready, each owned by its creator", async () => {
    const create = startKubespaces(bob, ["tenant", "create", BOBS, "--cpu", cpu, "--memory", memory]);
    const aliceAnswer = await callApi(served.url, keptIdToken(alice), "POST", API_PATHS.tenants, {
      name: ALICES,
      spec: { resources: { cpu, memory } },
    });
    expect(aliceAnswer.status, JSON.stringify(aliceAnswer.body)).toBe(201);
    expect(aliceAnswer.body).toMatchObject({ metadata: { name: ALICES }, spec: { owner: ALICE.email } });

    const created = await create.finished;
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`requested tenant ${BOBS} on ${served.url}`);
    expect(created.stderr).toMatch(
      new RegExp(
        `${BOBS}: Pending\\n[\\s\\S]*${BOBS}: Pending -> Provisioning\\n[\\s\\S]*${BOBS}: Provisioning -> Ready\\n`,
      ),
    );
    expect(created.stdout).toMatch(new RegExp(`^NAME\\s+PHASE\\s+API\\n${BOBS}\\s+Ready\\s+https://${BOBS}\\.`));
    await kubectl("wait", "--for=condition=Ready", `tenant/${ALICES}`, "--timeout=900s");

    const owners = await kubectl("get", "tenants", BOBS, ALICES, "-o", "jsonpath={range .items[*]}{.spec.owner} ");
    expect(owners.stdout.trim().split(" ")).toEqual([BOB.email, ALICE.email]);
    // The audit log is the server's stdout, a stream of its own.
    expect(served.running.stdout).toMatch(
      new RegExp(`"actor":"${BOB.email}".*"action":"tenant.create","tenant":"${BOBS}"`),
    );
    expect(served.running.stdout).toMatch(
      new RegExp(`"actor":"${ALICE.email}".*"action":"tenant.create","tenant":"${ALICES}"`),
    );
  });

  it("get --wait and list go through the server; each person lists only their own tenant", async () => {
    const got = await kubespaces(bob, "tenant", "get", BOBS, "--wait");
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`${BOBS}\\s+Ready`));
    // -o wide adds its quota's use and the hours it was awake, through the server's API: up for minutes.
    const wide = await kubespaces(bob, "tenant", "get", BOBS, "-o", "wide");
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toMatch(
      new RegExp(
        `CPU\\s+MEMORY\\s+STORAGE\\s+AWAKE\\(30D\\)\n${BOBS}\\s+Ready\\s.*\\s\\S+/\\S+\\s+\\S+/\\S+\\s+\\S+\\s+0(\\.\\d)?h\n$`,
      ),
    );

    const listed = await kubespaces(bob, "tenant", "list");
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^NAME\\s+OWNER\\s+PHASE\\s+API\\n${BOBS}\\s+${BOB.email}\\s+Ready\\s`));
    expect(listed.stdout).not.toContain(ALICES);
    const alicesList = await callApi(served.url, keptIdToken(alice), "GET", API_PATHS.tenants);
    expect((alicesList.body as { items: { metadata: { name: string } }[] }).items.map((t) => t.metadata.name)).toEqual([
      ALICES,
    ]);
    // Not found for the other person, the same answer as a tenant that does not exist.
    expect((await kubespaces(bob, "tenant", "get", ALICES)).code).toBe(4);
    expect((await callApi(served.url, keptIdToken(alice), "GET", API_PATHS.tenantKubeconfig(BOBS))).status).toBe(404);
  });

  it("kubeconfig through the server opens bob's virtual cluster with kubectl", async () => {
    // The tenant's API name does not resolve on the test bed: --server is the port-forward a user would run.
    const endpoint = vclusterEndpoint(tenantNamespace(BOBS), BOBS);
    const printed = await kubespaces(bob, "tenant", "kubeconfig", BOBS, "--server", endpoint);
    expect(printed.code, printed.stderr).toBe(0);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-cli-server-")), "kubeconfig");
    writeFileSync(file, printed.stdout, { mode: 0o600 });
    const { stdout } = await run("kubectl", ["--kubeconfig", file, "get", "ns", "-o", "name"], { encoding: "utf8" });
    const namespaces = stdout.trim().split("\n");
    expect(namespaces).toEqual(expect.arrayContaining(["namespace/default", "namespace/kube-system"]));
    expect(namespaces).not.toContain(`namespace/${tenantNamespace(BOBS)}`);
  });

  it("fleet preview shows an admin what a PlatformRevision would do to both tenants; bob is refused", async () => {
    const file = platformRevisionFile("cli-fleet", { quota: { default: { storage: "10Gi" } } });
    try {
      await kubectl("apply", "-f", file);
      await kubectl("wait", "--for=jsonpath={.status.phase}=Previewed", "platformrevision/cli-fleet", "--timeout=300s");
      const admin = newCliUser();
      expect((await loginThroughDevice(browser, admin, served.url, dexPerson("admin@example.com"))).code).toBe(0);
      const listed = await kubespaces(admin, "fleet", "preview");
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/\ncli-fleet\s+Previewed\s+2\s+2\s+0\s/);
      const shown = await kubespaces(admin, "fleet", "preview", "cli-fleet");
      expect(shown.code, shown.stderr).toBe(0);
      // Neither request sets storage: the new default changes both tenants' quotas.
      for (const tenant of [BOBS, ALICES]) expect(shown.stdout).toMatch(new RegExp(`\\n${tenant}\\s+1\\s+Changes\\s`));
      const json = await kubespaces(admin, "fleet", "preview", "cli-fleet", "-o", "json");
      for (const tenant of JSON.parse(json.stdout).status.tenants as { plan: { steps: { type: string }[] } }[])
        expect(tenant.plan.steps.map((s) => s.type)).toContain("kubernetes:core/v1:ResourceQuota");
      const refused = await kubespaces(bob, "fleet", "preview", "cli-fleet");
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("only the platform's admins may read platform revisions");
    } finally {
      await kubectl("delete", "-f", file, "--ignore-not-found", "--wait=true");
    }
  });

  it("the platform caps how far ahead a tenant may expire; one that expires in two minutes is accepted", async () => {
    const token = keptIdToken(alice);
    const tooFar = new Date(Date.now() + (MAX_LIFETIME_HOURS + 1) * 3_600_000).toISOString();
    const refused = await callApi(served.url, token, "POST", API_PATHS.tenants, {
      name: EXPIRING,
      spec: { resources: { cpu, memory }, expiresAt: tooFar },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      `expiresAt: ${tooFar} is more than ${MAX_LIFETIME_HOURS} hours ahead`,
    );

    // Far enough ahead for the tenant to be Ready first, as a short-lived tenant would be; the
    // tests between this one and the next of it run meanwhile.
    expiresAt = new Date(Date.now() + 120_000).toISOString();
    const created = await callApi(served.url, token, "POST", API_PATHS.tenants, {
      name: EXPIRING,
      spec: { resources: { cpu, memory }, expiresAt },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });

  it("history lists bob's updates; rollback --to the first puts its request back, a new generation the server brings up", async () => {
    // The request changes through the Tenant resource (here a platform admin's edit; bob's team would
    // change its Tenant file): a second generation.
    const bigger = { cpu: String(Number(cpu) + 1), memory };
    const asAdmin = ["--as=kubespaces-testbed-admin", "--as-group=system:masters", "--as-group=kubespaces-admins"];
    await kubectl(
      ...asAdmin,
      "patch",
      "tenant",
      BOBS,
      "--type=merge",
      "-p",
      JSON.stringify({ spec: { resources: bigger } }),
    );
    await kubectl("wait", "--for=jsonpath={.status.observedGeneration}=2", `tenant/${BOBS}`, "--timeout=600s");
    const quotaCpu = async () =>
      (
        await kubectl(
          "get",
          "resourcequota",
          "kubespaces-quota",
          "-n",
          tenantNamespace(BOBS),
          "-o",
          "jsonpath={.spec.hard.requests\\.cpu}",
        )
      ).stdout;
    expect(await quotaCpu()).toBe(bigger.cpu);

    const listed = await kubespaces(bob, "tenant", "history", BOBS);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^VERSION\s+KIND\s+RESULT\s+STARTED\s+GENERATION\s+REVISION\s+BY\s+CHANGES\n/);
    const updates = JSON.parse((await kubespaces(bob, "tenant", "history", BOBS, "-o", "json")).stdout).items as {
      version: number;
      result: string;
      record?: { generation: number; actor: string };
      request?: { resources: { cpu: string } };
    }[];
    // Newest first; each update names the generation it ran, and the request with it.
    expect([updates[0].record?.generation, updates[0].result, updates[0].request?.resources.cpu]).toEqual([
      2,
      "succeeded",
      bigger.cpu,
    ]);
    const first = updates.find((u) => u.record?.generation === 1 && u.result === "succeeded")!;
    expect(first.request?.resources.cpu).toBe(cpu);
    expect(updates[0].record?.actor).toMatch(/^system:kubespaces-server:/);
    // Not alice's to see, nor to roll back.
    expect((await callApi(served.url, keptIdToken(alice), "GET", API_PATHS.tenantHistory(BOBS))).status).toBe(404);

    const rolled = await kubespaces(bob, "tenant", "rollback", BOBS, "--to", String(first.version));
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stderr).toContain(
      `tenant ${BOBS}: generation 3 asks again for the request of update ${first.version}`,
    );
    await kubectl("wait", "--for=jsonpath={.status.observedGeneration}=3", `tenant/${BOBS}`, "--timeout=600s");
    expect((await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.phase}")).stdout).toBe("Ready");
    expect(await quotaCpu()).toBe(cpu);
    const after = JSON.parse((await kubespaces(bob, "tenant", "history", BOBS, "-o", "json")).stdout).items;
    expect(after[0]).toMatchObject({ result: "succeeded", record: { generation: 3 }, request: { resources: { cpu } } });
    expect(served.running.stdout).toMatch(
      new RegExp(`"actor":"${BOB.email}".*"action":"tenant.rollback","tenant":"${BOBS}".*"outcome":"ok"`),
    );
  });

  it("sleep through the command frees the host (no control plane, no synced pod, quota used 0); wake gives back the same data with the same kubeconfig", async () => {
    const namespace = tenantNamespace(BOBS);
    const secretBytes = async () =>
      (await kubectl("get", "secret", `${BOBS}-kubeconfig`, "-n", namespace, "-o", "jsonpath={.data.config}")).stdout;
    const kubeconfigBefore = await secretBytes();
    await insideBobs(bob, "create", "namespace", "kept-through-sleep");
    await insideBobs(
      bob,
      "-n",
      "kept-through-sleep",
      "create",
      "configmap",
      "notes",
      "--from-literal=written=before-sleep",
    );
    // A workload whose pod the host admits: Pod Security restricted, and small enough for the
    // room the minimum quota leaves beside the control plane.
    const tiny = { cpu: "10m", memory: "16Mi", "ephemeral-storage": "16Mi" };
    const small = (spec: V1PodSpec) => void (spec.containers[0].resources = { requests: tiny, limits: tiny });
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "kept-through-sleep" },
      spec: {
        selector: { matchLabels: { app: "web" } },
        template: { metadata: { labels: { app: "web" } }, spec: probePod(small).spec },
      },
    };
    const manifest = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-sleep-")), "web.json");
    writeFileSync(manifest, JSON.stringify(deployment));
    await insideBobs(bob, "apply", "-f", manifest);
    const syncedPods = async () =>
      (await kubectl("get", "pods", "-n", namespace, "-l", `vcluster.loft.sh/managed-by=${BOBS}`, "-o", "name")).stdout
        .trim()
        .split("\n")
        .filter(Boolean);
    await eventually(
      async () => (await syncedPods()).some((pod) => pod.includes("web")),
      300_000,
      "the web pod synced to the host",
    );

    const slept = await kubespaces(bob, "tenant", "sleep", BOBS);
    expect(slept.code, slept.stderr).toBe(0);
    expect(slept.stderr).toContain(
      `tenant ${BOBS}: generation 4 asks for sleep: true; the server brings it to Sleeping`,
    );
    const asleep = await kubespaces(bob, "tenant", "get", BOBS, "--wait");
    expect(asleep.code, asleep.stderr).toBe(0);
    expect(asleep.stdout).toMatch(new RegExp(`${BOBS}\\s+Sleeping`));
    const status = JSON.parse((await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status}")).stdout);
    expect(status.conditions.find((c: { type: string }) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "Sleeping",
    });
    expect((await kubectl("get", "statefulset", BOBS, "-n", namespace, "-o", "jsonpath={.spec.replicas}")).stdout).toBe(
      "0",
    );
    await eventually(
      async () => (await kubectl("get", "pods", "-n", namespace, "-o", "name")).stdout.trim() === "",
      120_000,
      "no pod left in the tenant's namespace",
    );
    // The control plane's processes stopped: the test bed's runner no longer serves its endpoint.
    const stopped = () => {
      try {
        vclusterEndpoint(namespace, BOBS);
        return false;
      } catch (error) {
        return /no running control plane/.test(String(error));
      }
    };
    await eventually(async () => stopped(), 60_000, "the control plane's processes to stop");
    // Nothing holds the quota: the control plane and the synced pods are gone.
    const used = async () =>
      (await kubectl("get", "resourcequota", "kubespaces-quota", "-n", namespace, "-o", "jsonpath={.status.used}"))
        .stdout;
    await eventually(
      async () => JSON.parse(await used())["requests.cpu"] === "0",
      120_000,
      "the quota's used cpu to be 0",
    );
    expect(JSON.parse(await used())["requests.memory"]).toBe("0");
    expect(served.running.stdout).toMatch(
      new RegExp(`"actor":"${BOB.email}".*"action":"tenant.sleep","tenant":"${BOBS}"`),
    );

    const woken = await kubespaces(bob, "tenant", "wake", BOBS);
    expect(woken.code, woken.stderr).toBe(0);
    const awake = await kubespaces(bob, "tenant", "get", BOBS, "--wait");
    expect(awake.code, awake.stderr).toBe(0);
    expect(awake.stdout).toMatch(new RegExp(`${BOBS}\\s+Ready`));
    expect(await secretBytes()).toBe(kubeconfigBefore);
    expect((await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.kubeconfigChangedAt}")).stdout).toBe("");
    await expectKeptInside(bob);
  });

  it("snapshot through the command lists bob's snapshot in his tenant's status; alice's tenant is never restored from it", async () => {
    const taken = await kubespaces(bob, "tenant", "snapshot", BOBS);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain(`tenant ${BOBS}: a snapshot was asked for`);
    const snapshots = async () =>
      (await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.snapshots[*].name}")).stdout
        .split(" ")
        .filter(Boolean);
    await eventually(async () => (await snapshots()).length === 1, 300_000, "bob's snapshot to be listed");
    [bobsSnapshot] = await snapshots();
    expect(bobsSnapshot).toMatch(new RegExp(`^${BOBS}-\\d{8}t\\d{6}z$`));
    const url = (await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.snapshots[0].url}")).stdout;
    expect(url).toMatch(
      new RegExp(
        `^s3://${testbedEnv().KUBESPACES_TESTBED_S3_BUCKET}/kubespaces/[0-9a-f]{32}/${bobsSnapshot}\\.tar\\.gz$`,
      ),
    );
    // The object is in the store, and holds the virtual cluster's objects.
    const stored = await fetch(`${testbedEnv().KUBESPACES_TESTBED_S3_URL}/${url.slice("s3://".length)}`);
    expect(stored.status).toBe(200);
    expect((await stored.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(served.running.stdout).toMatch(
      new RegExp(`"actor":"${BOB.email}".*"action":"tenant.snapshot","tenant":"${BOBS}"`),
    );

    // Alice names bob's snapshot for her own tenant: looked up under her own owner, it is not found.
    const asked = await callApi(served.url, keptIdToken(alice), "POST", API_PATHS.tenantRestore(ALICES), {
      snapshot: bobsSnapshot,
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(202);
    await kubectl(
      "wait",
      `--for=jsonpath={.status.restoredFrom}=${bobsSnapshot}`,
      `tenant/${ALICES}`,
      "--timeout=300s",
    );
    const events = await eventsOf(ALICES);
    expect(events).toContain(
      `RestoreFailed: not restored from ${bobsSnapshot}: the tenant's owner has no snapshot of that name`,
    );
    expect(events).not.toContain("Restoring:");
    expect((await kubectl("get", "tenant", ALICES, "-o", "jsonpath={.status.phase}")).stdout).toBe("Ready");
  });

  it("an expiring tenant is warned in its status, then deleted at its expiresAt with nothing left", async () => {
    // The policy warns 24 hours ahead: at once.
    await kubectl("wait", "--for=condition=Expiring", `tenant/${EXPIRING}`, "--timeout=600s");
    const expiring = JSON.parse(
      (await kubectl("get", "tenant", EXPIRING, "-o", "jsonpath={.status.conditions}")).stdout,
    );
    expect(expiring.find((c: { type: string }) => c.type === "Expiring").message).toContain(
      `expires at ${new Date(expiresAt).toISOString()}`,
    );
    const columns = await kubectl("get", "tenant", EXPIRING);
    expect(columns.stdout).toMatch(/\sEXPIRES\s/);
    expect(columns.stdout).toContain(expiresAt);

    await kubectl("wait", "--for=delete", `tenant/${EXPIRING}`, "--timeout=900s");
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    await expectNothingLeft(EXPIRING);
    expect(await eventsOf(EXPIRING)).toContain(`Expired: it expired at ${expiresAt}; deleting it`);
  });

  it("delete --preview through the server prints what the teardown removes, and removes nothing", async () => {
    const previewed = await kubespaces(bob, "tenant", "delete", BOBS, "--preview");
    expect(previewed.code, previewed.stderr).toBe(0);
    expect(previewed.stdout).toMatch(new RegExp(`^Preview of deleting tenant ${BOBS}; nothing was changed\\.\\n`));
    expect(previewed.stdout).toMatch(
      new RegExp(`^ {2}- {2}delete {3}kubernetes:helm\\.sh/v3:Release +${BOBS}-vcluster$`, "m"),
    );
    expect(previewed.stdout).toMatch(/\n0 to create, 0 to update, 0 to replace, ([1-9]\d*) to delete\n$/);
    // Alice's own tenant is hers: not found for bob, as everywhere.
    expect((await kubespaces(bob, "tenant", "delete", ALICES, "--preview")).code).toBe(4);
    const phase = await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.phase}");
    expect(phase.stdout).toBe("Ready");
    expect((await kubectl("get", "namespace", tenantNamespace(BOBS), "-o", "name")).stdout.trim()).toBe(
      `namespace/${tenantNamespace(BOBS)}`,
    );
  });

  it("delete goes through the server and follows the teardown; alice's delete by the API; nothing is left", async () => {
    const aliceDelete = await callApi(served.url, keptIdToken(alice), "DELETE", API_PATHS.tenant(ALICES));
    expect(aliceDelete.status, JSON.stringify(aliceDelete.body)).toBe(202);
    const deleted = await kubespaces(bob, "tenant", "delete", BOBS);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(`${BOBS}: Deleting -> Deleted\n`);
    expect(deleted.stdout).toBe(
      `tenant ${BOBS} deleted by ${served.url}: its namespace and everything in it are removed\n`,
    );
    await kubectl("wait", "--for=delete", `tenant/${ALICES}`, "--timeout=600s").catch(() => undefined);
    const left = await kubectl("get", "tenants", "-o", "name");
    expect(left.stdout).not.toMatch(new RegExp(`tenant\\.kubespaces\\.io/(${BOBS}|${ALICES})\\b`));
    await expectNothingLeft(BOBS);
    await expectNothingLeft(ALICES);
  });

  it("a deleted tenant comes back from its snapshot: the namespace, ConfigMap and Deployment made inside it", async () => {
    expect(bobsSnapshot).not.toBe("");
    const created = await kubespaces(bob, "tenant", "create", BOBS, "--cpu", cpu, "--memory", memory);
    expect(created.code, created.stderr).toBe(0);
    // A new virtual cluster: none of what was made inside the deleted one.
    expect((await insideBobs(bob, "get", "namespaces", "-o", "name")).stdout).not.toContain("kept-through-sleep");

    const restored = await kubespaces(bob, "tenant", "restore", BOBS, "--from", bobsSnapshot);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain(`tenant ${BOBS}: a restore from ${bobsSnapshot} was asked for`);
    await kubectl("wait", `--for=jsonpath={.status.restoredFrom}=${bobsSnapshot}`, `tenant/${BOBS}`, "--timeout=600s");
    expect((await kubectl("get", "tenant", BOBS, "-o", "jsonpath={.status.phase}")).stdout).toBe("Ready");
    expect(await eventsOf(BOBS)).toContain(`Restored: restored from snapshot ${bobsSnapshot}`);

    await expectKeptInside(bob);

    const deleted = await kubespaces(bob, "tenant", "delete", BOBS);
    expect(deleted.code, deleted.stderr).toBe(0);
    await expectNothingLeft(BOBS);
  });
});
