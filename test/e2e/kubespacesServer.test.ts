/**
 * The kubectl door end to end on the test bed: `kubespaces server` (the built binary, as a local
 * process) installs the Tenant API, runs as its own ServiceAccount with only the RBAC it installed,
 * and reconciles Tenant resources that people apply with kubectl (impersonated from the test bed's
 * admin, as an identity provider's users would be). Waits are on what kubectl and the server
 * report, never on time.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import { kubectl, tenantEventReasons } from "./support/hostKubectl";
import { KUBESPACES_BIN, newCliUser, Running, startKubespaces, type CliUser } from "./support/kubespacesCli";
import { METRICS_AT, replicaReconciles } from "./support/servedKubespaces";
import { platformRevisionFile } from "./support/platformRevisions";
import { waveOrder } from "../../provider/server/revisions/fleetRollout";
import { serverAccountKubeconfig, startReplicaOnMachine } from "./support/otherMachine";
import { assignTenants } from "../../provider/server/replicas/tenantOwnership";
import { expectNothingLeft, expectWorkingKubeconfig, tenantNamespace } from "./support/tenantAssertions";
import { crashTestbedPostgres, REPO_ROOT, testbedPostgres } from "./support/testbed";

const run = promisify(execFile);
const ALICE = "alice@example.com";
const BOB = "bob@example.com";
const ADMIN = "platform@example.com";
const ADMIN_GROUP = "kubespaces-admins";
/** Each replica's API and portal, and its metrics, on free loopback ports: replicas on one machine would collide on the defaults. */
const ANY_FREE_PORT = ["--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0"];
/** A platform admin, as the admission policy knows one: a member of the admin group. */
const AS_ADMIN = { user: ADMIN, groups: [ADMIN_GROUP] };
const DOCS_TENANT = path.join(REPO_ROOT, "examples/kubectl/tenants/team-atlas.yaml");

/** kubectl's error text of a command that must fail, run as `as` (the test bed's admin when none). */
async function refusal(as: { user: string; groups?: string[] } | undefined, ...args: string[]): Promise<string> {
  try {
    await kubectl(as, ...args);
  } catch (error) {
    return (error as { stderr: string }).stderr;
  }
  throw new Error(`kubectl ${args.join(" ")} succeeded as ${as?.user ?? "the test bed's admin"}`);
}

/** A Tenant manifest in a file of its own. */
function manifest(name: string, spec: object, annotations?: Record<string, string>): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-tenant-")), `${name}.yaml`);
  const metadata = { name, ...(annotations && { annotations }) };
  writeFileSync(file, stringify({ apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", metadata, spec }));
  return file;
}

/** The smallest request the default policy takes, for tenants the tests make of their own. */
const SMALL = { cpu: "3", memory: "4Gi" };

/** `as` applies a Tenant `name` owned by ALICE asking for `resources`. */
const applyTenant = (as: { user: string; groups?: string[] }, name: string, resources: object = SMALL) =>
  kubectl(as, "apply", "-f", manifest(name, { owner: ALICE, resources }));

/** Waits until Tenant `name` meets kubectl wait's `--for` condition. */
const waitFor = (name: string, condition: string, timeoutSeconds = 600) =>
  kubectl(undefined, "wait", `--for=${condition}`, `tenant/${name}`, `--timeout=${timeoutSeconds}s`);

/** Removes every Tenant, as a platform admin may, waiting until each teardown has finished. */
const deleteAllTenants = () =>
  kubectl(AS_ADMIN, "delete", "tenants", "--all", "--wait=true", "--timeout=300s").catch(() => undefined);

/** The ceilings the server published for admission (TenantCeilings `new-tenants`'s spec); undefined when there are none. */
async function publishedCeilings(): Promise<{ platformRevision: string; ceilings: object } | undefined> {
  const { stdout } = await kubectl(undefined, "get", "tenantceilings", "new-tenants", "-o", "json").catch(() => ({
    stdout: "",
  }));
  return stdout ? JSON.parse(stdout).spec : undefined;
}

/** Tenant `name` as the API server holds it (the test bed's admin reads it). */
async function tenant(name: string): Promise<{ status?: Record<string, any> } | undefined> {
  const { stdout } = await kubectl(undefined, "get", "tenant", name, "-o", "json").catch(() => ({ stdout: "" }));
  return stdout ? JSON.parse(stdout) : undefined;
}

/** Starts a server replica; resolves once it runs. */
async function startServer(user: CliUser, id: string, configFile: string): Promise<Running> {
  const server = startKubespaces(user, ["server", "--id", id, "--config", configFile, ...ANY_FREE_PORT]);
  await server.printed(new RegExp(`replica ${id} on `));
  return server;
}

/** The Events `kubectl describe tenant NAME` shows: its output from the `Events:` heading on. */
async function describedEvents(name: string): Promise<string> {
  const { stdout } = await kubectl(undefined, "describe", "tenant", name);
  expect(stdout).toContain("\nEvents:");
  return stdout.slice(stdout.indexOf("\nEvents:"));
}

/** Where a replica serves its API and portal, from its log. */
const servedAt = (server: Running): string =>
  /API and portal at (http:\/\/\S+?)\/? \(listening/.exec(server.stderr)![1];

/** Where a replica serves its metrics, on their own listener, from its log. */
const metricsAt = (server: Running): string => METRICS_AT.exec(server.stderr)![1];

/** The value of `series` (a metric's name and labels, as prom-client writes them) in a scrape of `server`'s /metrics; 0 when absent. */
async function scraped(server: Running, series: string): Promise<number> {
  const text = await (await fetch(metricsAt(server))).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function stopServer(server: Running | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  await server.finished;
}

/** Lets ALICE and BOB request tenants: the platform binds the requester role the package installs. */
async function bindRequesters(): Promise<void> {
  await kubectl(undefined, "delete", "clusterrolebinding", "e2e-tenant-requesters", "--ignore-not-found");
  await kubectl(
    undefined,
    "create",
    "clusterrolebinding",
    "e2e-tenant-requesters",
    "--clusterrole=kubespaces-tenant-requester",
    `--user=${ALICE}`,
    `--user=${BOB}`,
    `--user=${ADMIN}`,
  );
}

/**
 * For the describe block it is called in: a server replica `id` run with `config`, reconciling, with the
 * requesters bound, before the block's tests; after them, every Tenant removed and the replica stopped.
 */
function serverForBlock(id: string, config: object = {}): () => Running {
  let server: Running | undefined;
  beforeAll(async () => {
    server = await startServer(newCliUser(), id, serverConfig(config));
    await server.printed(replicaReconciles(id));
    await bindRequesters();
  });
  afterAll(async () => {
    await deleteAllTenants();
    await stopServer(server);
  });
  return () => server!;
}

describe("kubespaces server: the kubectl door", () => {
  const server = serverForBlock("replica-a");

  it("runs as its own ServiceAccount, which may not do what the admin may", async () => {
    const canI = async (...args: string[]) =>
      (
        await kubectl(
          undefined,
          "auth",
          "can-i",
          ...args,
          "--as=system:serviceaccount:kubespaces-system:kubespaces-server",
        ).catch((error) => ({ stdout: (error as { stdout: string }).stdout }))
      ).stdout.trim();
    expect(await canI("create", "customresourcedefinitions")).toBe("no");
    expect(await canI("delete", "nodes")).toBe("no");
    expect(await canI("impersonate", "users")).toBe("no");
    expect(await canI("update", "tenants/status")).toBe("yes");
    expect(server().stderr).toContain("reaching the host as ServiceAccount kubespaces-system/kubespaces-server");
  });

  it("makes the docs' Tenant Ready: kubectl wait, the columns, the kubeconfig Secret opens the virtual cluster", async () => {
    const RECONCILED = 'kubespaces_reconciles_total{result="done"}';
    const UPS = 'kubespaces_pulumi_operation_duration_seconds_count{operation="up",outcome="ok"}';
    const before = { reconciled: await scraped(server(), RECONCILED), ups: await scraped(server(), UPS) };
    await kubectl({ user: ALICE }, "apply", "-f", DOCS_TENANT);
    await waitFor("team-atlas", "condition=Ready", 600);

    // What operators' tools read: ready, the counters moved, the tenant counted Ready, one live replica.
    expect((await fetch(`${servedAt(server())}/readyz`)).status).toBe(200);
    // The reconcile is counted when it returns, just after it wrote Ready: wait for that, not for Ready.
    await eventually(
      async () => (await scraped(server(), RECONCILED)) > before.reconciled,
      30_000,
      `${RECONCILED} to count the reconcile that made team-atlas Ready`,
    );
    expect(await scraped(server(), UPS)).toBeGreaterThan(before.ups);
    // The gauge counts what the replica's watch saw: the Ready status reaches it a moment after the write.
    await eventually(
      async () => (await scraped(server(), 'kubespaces_tenants{phase="Ready"}')) >= 1,
      30_000,
      "the watch to see team-atlas Ready",
    );
    expect(await scraped(server(), "kubespaces_replicas")).toBe(1);
    // Its cost, from the same watches (the quota from the drift watch's): awake, and its quota's CPU ceiling.
    await eventually(
      async () => (await scraped(server(), 'kubespaces_tenant_awake{tenant="team-atlas"}')) === 1,
      30_000,
      "the watches to see team-atlas awake",
    );
    expect(await scraped(server(), 'kubespaces_tenant_quota_hard{tenant="team-atlas",resource="cpu"}')).toBeGreaterThan(
      0,
    );
    // What kubectl describe shows of its history.
    const events = await describedEvents("team-atlas");
    expect(events).toMatch(/Normal\s+Accepted\s+.*kubespaces\.io\/server\s+accepted; waiting for its turn/);
    expect(events).toMatch(/Normal\s+Provisioning\s+.*provisioning generation 1/);
    expect(events).toMatch(/Normal\s+Ready\s+.*generation 1 is ready/);
    expect(events).not.toContain(ALICE);

    const { stdout: table } = await kubectl(undefined, "get", "tenants");
    const [header, ...rows] = table.trim().split("\n");
    expect(header.split(/\s+/)).toEqual(["NAME", "OWNER", "PHASE", "API", "EXPIRES", "AGE"]);
    expect(
      rows
        .find((r) => r.startsWith("team-atlas"))
        ?.split(/\s+/)
        .slice(0, 4),
    ).toEqual(["team-atlas", ALICE, "Ready", "https://team-atlas.kubespaces-tenant-team-atlas.svc:443"]);

    const status = (await tenant("team-atlas"))!.status!;
    expect(status).toMatchObject({
      phase: "Ready",
      observedGeneration: 1,
      namespace: tenantNamespace("team-atlas"),
      conditions: [{ type: "Ready", status: "True", reason: "Provisioned" }],
    });
    const ref = status.kubeconfigSecretRef as { name: string; namespace: string; key: string };
    const secret = await hostClients().core.readNamespacedSecret({ name: ref.name, namespace: ref.namespace });
    const kubeconfig = Buffer.from(secret.data![ref.key], "base64").toString("utf8");
    await expectWorkingKubeconfig(kubeconfig, "team-atlas", status.apiServerUrl);
  });

  it("refuses an unknown field by strict validation, and another user's owner by admission; nothing is created", async () => {
    const unknown = await refusal(
      { user: ALICE },
      "apply",
      "-f",
      manifest("team-unknown", { owner: ALICE, resources: { cpu: "3" }, colour: "blue" }),
    );
    expect(unknown).toMatch(/unknown field "spec\.colour"/);
    const forged = await refusal({ user: BOB }, "apply", "-f", manifest("team-forged", { owner: ALICE }));
    expect(forged).toMatch(/spec\.owner/);
    expect(await tenant("team-unknown")).toBeUndefined();
    expect(await tenant("team-forged")).toBeUndefined();
    // A platform admin may request a tenant for someone else.
    await kubectl(AS_ADMIN, "apply", "--dry-run=server", "-f", manifest("team-for-alice", { owner: ALICE }));
  });

  it("marks a request the policy refuses Failed, naming the field and the rule, and provisions nothing", async () => {
    await kubectl({ user: ALICE }, "apply", "-f", manifest("team-tiny", { owner: ALICE, resources: { cpu: "500m" } }));
    await kubectl(undefined, "wait", "--for=jsonpath={.status.phase}=Failed", "tenant/team-tiny", "--timeout=120s");
    const status = (await tenant("team-tiny"))!.status!;
    expect(status.conditions[0]).toMatchObject({ type: "Ready", status: "False", reason: "InvalidRequest" });
    expect(status.message).toMatch(/resources\.cpu/);
    // The Event, which others may read, names the generation only; the status above says what is wrong.
    const events = await describedEvents("team-tiny");
    expect(events).toMatch(/Warning\s+InvalidRequest\s+[\s\S]*generation 1 was refused by the platform's policy/);
    expect(events).not.toMatch(/resources\.cpu/);
    const { core } = hostClients();
    expect(await readOrUndefined(() => core.readNamespace({ name: tenantNamespace("team-tiny") }))).toBeUndefined();
    await kubectl({ user: ALICE }, "delete", "tenant", "team-tiny", "--wait=true", "--timeout=120s");
    expect(await tenantEventReasons("team-tiny")).toEqual(
      expect.arrayContaining(["InvalidRequest", "Deleting", "Deleted"]),
    );
  });

  it("previews a preview-only Tenant: its plan in kubectl get -o yaml, phase Previewed, no namespace; provisioned once the annotation goes", async () => {
    // As a GitOps pull request's Tenant, annotated from its first apply: its owner may set the annotation.
    const file = manifest("team-pr", { owner: ALICE, resources: SMALL }, { "kubespaces.io/preview-only": "true" });
    await kubectl({ user: ALICE }, "apply", "-f", file);
    await waitFor("team-pr", "jsonpath={.status.phase}=Previewed", 300);
    const { stdout } = await kubectl(undefined, "get", "tenant", "team-pr", "-o", "yaml");
    const status = (parse(stdout) as { status: Record<string, any> }).status;
    expect(status.conditions[0]).toMatchObject({ type: "Ready", status: "Unknown", reason: "Previewed" });
    expect(status.message).toMatch(/previewed only .*kubespaces\.io\/preview-only/);
    expect(status.plan).toMatchObject({ generation: 1, updates: 0, replaces: 0, deletes: 0 });
    expect(status.plan.creates).toBeGreaterThan(5);
    expect(status.plan.steps.map((s: { type: string }) => s.type)).toEqual(
      expect.arrayContaining(["kubernetes:core/v1:Namespace", "kubernetes:helm.sh/v3:Release"]),
    );
    expect(status.observedGeneration).toBeUndefined();
    const { core } = hostClients();
    expect(await readOrUndefined(() => core.readNamespace({ name: tenantNamespace("team-pr") }))).toBeUndefined();
    expect(await describedEvents("team-pr")).toMatch(/Normal\s+Previewed\s+.*generation 1 previewed only/);

    // The merged pull request drops the annotation: the watch sees it go, and the Tenant is provisioned.
    await kubectl({ user: ALICE }, "annotate", "tenant", "team-pr", "kubespaces.io/preview-only-");
    await waitFor("team-pr", "condition=Ready", 600);
    expect((await tenant("team-pr"))!.status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
    expect((await tenant("team-pr"))!.status!.plan).toBeUndefined();
    await kubectl({ user: ALICE }, "delete", "tenant", "team-pr", "--wait=true", "--timeout=600s");
    await expectNothingLeft("team-pr");
  });

  it("kubectl delete tears the tenant down and the Tenant goes only when nothing is left", async () => {
    await kubectl({ user: ALICE }, "delete", "-f", DOCS_TENANT, "--wait=true", "--timeout=600s");
    expect(await tenant("team-atlas")).toBeUndefined();
    await expectNothingLeft("team-atlas");
    // Its Events outlive it: the teardown's are the last.
    expect((await tenantEventReasons("team-atlas")).slice(-2)).toEqual(["Deleting", "Deleted"]);
  });
});

/** A server replica in a process group of its own, so that killing it kills its engines too, as a pod's death does. */
function startReplica(user: CliUser, id: string, configFile: string, more: readonly string[] = []): Running {
  const args = ["server", "--id", id, "--config", configFile, ...ANY_FREE_PORT, ...more];
  return new Running(spawn(KUBESPACES_BIN, args, { env: user.env, stdio: ["ignore", "pipe", "pipe"], detached: true }));
}

/**
 * For the describe block it is called in: the replicas its tests start (each pushed here), and,
 * after them, every Tenant removed and each replica still running stopped with its process group.
 */
function replicasOfBlock(): Running[] {
  const replicas: Running[] = [];
  afterAll(async () => {
    await deleteAllTenants();
    for (const replica of replicas) {
      const running = replica.child.exitCode === null && replica.child.signalCode === null;
      if (running && replica.child.pid) process.kill(-replica.child.pid, "SIGTERM");
      await replica.finished;
    }
  });
  return replicas;
}

/** Two users with homes of their own holding one passphrase, as the installation's Secret gives every pod. */
function usersSharingOnePassphrase(): [CliUser, CliUser] {
  const users: [CliUser, CliUser] = [newCliUser(), newCliUser()];
  const passphrase = randomBytes(32).toString("base64url");
  for (const user of users) {
    mkdirSync(user.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(user.home, "passphrase"), passphrase, { mode: 0o600 });
  }
  return users;
}

/**
 * A sign-in a replica off the test bed must be given, at an issuer nobody serves: these tests use
 * the kubectl door only, so the replica serves its API and portal but signs nobody in.
 */
function unreachableSignIn(): object {
  const secret = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-sign-in-")), "portal-client-secret");
  writeFileSync(secret, "unused", { mode: 0o600 });
  return {
    issuer: "http://127.0.0.1:9/dex",
    portalClientId: "kubespaces-portal",
    cliClientId: "kubespaces-cli",
    portalClientSecretFile: secret,
  };
}

/** A server configuration file. */
function serverConfig(config: object): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-server-config-")), "server.yaml");
  writeFileSync(file, stringify(config));
  return file;
}

describe("kubespaces server: the approval gate", () => {
  serverForBlock("gate", { requireApproval: true });

  it("holds a Tenant AwaitingApproval with its plan until an admin approves its generation and spec; the owner cannot approve", async () => {
    await applyTenant({ user: ALICE }, "team-gated");
    await waitFor("team-gated", "jsonpath={.status.phase}=AwaitingApproval", 300);
    const held = (await tenant("team-gated"))!.status!;
    expect(held.plan).toMatchObject({ generation: 1, updates: 0, replaces: 0, deletes: 0 });
    expect(held.plan.creates).toBeGreaterThan(5);
    expect(held.plan.steps.map((s: { type: string }) => s.type)).toEqual(
      expect.arrayContaining(["kubernetes:core/v1:Namespace", "kubernetes:helm.sh/v3:Release"]),
    );
    const { core } = hostClients();
    expect(await readOrUndefined(() => core.readNamespace({ name: tenantNamespace("team-gated") }))).toBeUndefined();

    const selfApproval = await refusal(
      { user: ALICE },
      "annotate",
      "tenant",
      "team-gated",
      "kubespaces.io/approved-generation=1",
    );
    expect(selfApproval).toMatch(/approved-generation/);

    const digest = `kubespaces.io/approved-spec-sha256=${held.plan.specSha256}`;
    expect(await refusal({ user: ALICE }, "annotate", "tenant", "team-gated", digest)).toMatch(/approved-spec-sha256/);

    await kubectl(AS_ADMIN, "annotate", "tenant", "team-gated", "kubespaces.io/approved-generation=1", digest);
    await waitFor("team-gated", "condition=Ready", 600);
    expect((await tenant("team-gated"))!.status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
    const events = await describedEvents("team-gated");
    expect(events).toMatch(/Normal\s+AwaitingApproval\s+.*generation 1 waits for an admin's approval/);
    expect(events).toMatch(/Normal\s+Approved\s+.*an admin approved generation 1/);
    expect(events).toMatch(/Normal\s+Ready\s+/);
  });
});

describe("kubespaces server: two replicas", () => {
  const replicas = replicasOfBlock();

  it("on two machines, share the Tenants out; a killed machine's Provisioning is taken over by the other, past its engine's lock in the shared database", async () => {
    // The server's default lease (15 s: a 10 s renew deadline, 3 s between rounds).
    const config = { leaseDurationSeconds: 15, signIn: unreachableSignIn() };
    // Homes of their own, machines of their own, and one database, as the pods of one Deployment have them.
    const backend = ["--backend", testbedPostgres()];
    const kubeconfig = await serverAccountKubeconfig();
    const [first, second] = usersSharingOnePassphrase();
    const a = await startReplicaOnMachine(first, "replica-a", kubeconfig, config, backend);
    replicas.push(a.running);
    await a.running.printed(replicaReconciles("replica-a"));
    const b = await startReplicaOnMachine(second, "replica-b", kubeconfig, config, backend);
    replicas.push(b.running);
    await a.running.printed(/replicas now: 2 live replicas \(replica-a, replica-b\)/);
    await b.running.printed(/replica replica-b reconciles its share of the Tenants, with 2 live replicas/);
    // Each serves its API where its machine publishes it (a request without a sign-in is refused).
    for (const replica of [a, b]) {
      expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${replica.url}/api/v1/tenants`)).status).toBe(401);
    }
    await bindRequesters();

    // One tenant each replica ranks first, so that each is its owner alone and beside the other, as both compute it.
    const candidates = Array.from({ length: 20 }, (_, i) => `team-share-${i}`);
    const firstOf = (name: string) => assignTenants([name], ["replica-a", "replica-b"]).get(name);
    const ofA = candidates.find((name) => firstOf(name) === "replica-a")!;
    const ofB = candidates.find((name) => firstOf(name) === "replica-b")!;
    expect(assignTenants([ofA, ofB], ["replica-a", "replica-b"])).toEqual(
      new Map([
        [ofA, "replica-a"],
        [ofB, "replica-b"],
      ]),
    );
    await applyTenant({ user: ALICE }, ofA);
    await applyTenant({ user: ALICE }, ofB);
    await waitFor(ofA, "jsonpath={.status.phase}=Provisioning", 300);
    await waitFor(ofB, "jsonpath={.status.phase}=Provisioning", 300);
    const reconciling = (name: string) => new RegExp(`reconciling tenant ${name}\\b`);
    expect([a.running.stderr, b.running.stderr].map((log) => reconciling(ofA).test(log))).toEqual([true, false]);
    expect([a.running.stderr, b.running.stderr].map((log) => reconciling(ofB).test(log))).toEqual([false, true]);

    // Machine a dies while its replica provisions its tenant; its claim and its engine's lock stay.
    process.kill(-a.running.child.pid!, "SIGKILL");
    await a.running.finished;
    await b.running.printed(/replicas now: 1 live replica \(replica-b\)/);
    await waitFor(ofA, "condition=Ready", 900);
    await waitFor(ofB, "condition=Ready", 900);
    expect(b.running.stderr).toMatch(reconciling(ofA));
    // The lock of a's engine, a row of the database taken on machine replica-a, was judged gone and removed.
    expect(b.running.stderr).toMatch(/removing the lock of an update that is gone \(pid \d+ of \\"[^"@]*@replica-a\\"/);
    // No claim is left once the reconciles are done (each is removed just after its status is written).
    const claims = async () =>
      (
        await kubectl(
          undefined,
          "get",
          "leases",
          "-n",
          "kubespaces-system",
          "-l",
          "kubespaces.io/claim-of=kubespaces-server",
          "-o",
          "name",
        )
      ).stdout.trim();
    await eventually(async () => (await claims()) === "", 30_000, "the tenants' claims to be removed");
  });
});

describe("kubespaces server: state in PostgreSQL, shared by replicas with homes of their own", () => {
  const replicas = replicasOfBlock();

  /** One value psql reads from the test bed's database. */
  const query = async (url: string, sql: string) =>
    (await run("psql", [url, "-tAc", sql], { encoding: "utf8" })).stdout.trim();
  /** The rows of tenant `name`'s stack file in the backend's table (Pulumi's DIY layout, under the database's name). */
  const stackRows = (url: string, name: string) =>
    query(url, `SELECT count(*) FROM pulumi_state WHERE key LIKE '%.pulumi/stacks/kubespaces-server/${name}.json'`);

  it("one replica provisions a tenant into the database; another, with a home of its own, tears it down from there", async () => {
    const url = testbedPostgres();
    const [first, second] = usersSharingOnePassphrase();
    const config = serverConfig({});
    const a = startReplica(first, "pg-a", config, ["--backend", url]);
    replicas.push(a);
    await a.printed(replicaReconciles("pg-a"));
    await bindRequesters();
    await applyTenant({ user: ALICE }, "team-pg");
    await waitFor("team-pg", "condition=Ready", 600);
    expect(await stackRows(url, "team-pg")).toBe("1");
    expect(existsSync(path.join(first.home, "server", "state"))).toBe(false);

    // The first stops, as a pod is replaced; the second owns every tenant and reads the tenant's stack from the database.
    process.kill(-a.child.pid!, "SIGTERM");
    await a.finished;
    const b = startReplica(second, "pg-b", config, ["--backend", url]);
    replicas.push(b);
    await b.printed(replicaReconciles("pg-b"));
    await kubectl({ user: ALICE }, "delete", "tenant", "team-pg", "--wait=true", "--timeout=600s");
    expect(b.stderr).toMatch(/reconciling tenant team-pg/);
    await expectNothingLeft("team-pg");
    expect(await stackRows(url, "team-pg")).toBe("0");
    // The URL's password is the test bed's: the replicas' logs never print it.
    const password = new URL(url).password;
    expect(a.stderr + b.stderr + a.stdout + b.stdout).not.toContain(password);
  });

  it("a database killed during an update fails it, the Tenant says why, and it converges once the database is back: one namespace, one stack", async () => {
    const url = testbedPostgres();
    const [owner] = usersSharingOnePassphrase();
    const a = startReplica(owner, "pg-crash", serverConfig({}), ["--backend", url]);
    replicas.push(a);
    await a.printed(replicaReconciles("pg-crash"));
    await bindRequesters();
    await applyTenant({ user: ALICE }, "team-crash");
    await waitFor("team-crash", "jsonpath={.status.phase}=Provisioning", 300);
    crashTestbedPostgres();
    try {
      await waitFor("team-crash", "jsonpath={.status.phase}=Failed", 300);
      // The status moves on at the backoff's next try; the failure's Event keeps what it said.
      const events = await describedEvents("team-crash");
      expect(events).toMatch(/Warning\s+\S+\s+.*(connect|refused|database|postgres|shutdown|terminat)/i);
      expect(events).not.toContain(new URL(url).password);
    } finally {
      testbedPostgres();
    }
    // The backoff tries it again, now with the database back.
    await waitFor("team-crash", "condition=Ready", 900);
    expect(await stackRows(url, "team-crash")).toBe("1");
    const { stdout } = await kubectl(
      undefined,
      "get",
      "namespaces",
      "-l",
      "kubespaces.io/tenant=team-crash",
      "-o",
      "name",
    );
    expect(stdout.trim().split("\n")).toEqual([`namespace/${tenantNamespace("team-crash")}`]);
    await kubectl({ user: ALICE }, "delete", "tenant", "team-crash", "--wait=true", "--timeout=600s");
    await expectNothingLeft("team-crash");
    expect(await stackRows(url, "team-crash")).toBe("0");
  });
});

describe("kubespaces server: drift, found by watching, and a resync that runs no update", () => {
  const server = serverForBlock("drift", { resyncSeconds: 5 });
  const UPS = 'kubespaces_pulumi_operation_duration_seconds_count{operation="up",outcome="ok"}';
  const CLEAN = 'kubespaces_resyncs_total{outcome="clean"}';

  it("resyncs a Ready tenant left alone without an update, and puts back a host object removed by hand", async () => {
    await applyTenant({ user: ALICE }, "team-mended");
    await waitFor("team-mended", "condition=Ready", 600);
    const ups = await scraped(server(), UPS);
    // Left alone, its resyncs (every 5 s, at its own offset) preview it after a refresh, and find nothing.
    const clean = await scraped(server(), CLEAN);
    await eventually(async () => (await scraped(server(), CLEAN)) >= clean + 2, 60_000, "two clean resyncs");
    expect(await scraped(server(), UPS)).toBe(ups);

    const namespace = tenantNamespace("team-mended");
    const { core } = hostClients();
    const before = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace });
    await core.deleteNamespacedResourceQuota({ name: "kubespaces-quota", namespace });
    // The drift watch sees it go; the tenant's resync plans it, and its update makes it again.
    await kubectl(
      undefined,
      "wait",
      "--for=create",
      `resourcequota/kubespaces-quota`,
      "-n",
      namespace,
      "--timeout=300s",
    );
    const after = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace });
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
    expect(after.spec?.hard).toEqual(before.spec?.hard);
    expect(await scraped(server(), 'kubespaces_drift_seen_total{kind="ResourceQuota"}')).toBeGreaterThanOrEqual(1);
    expect(server().stderr).toContain(
      `drift: ResourceQuota ${namespace}/kubespaces-quota of tenant team-mended changed or went; resyncing the tenant`,
    );
    await eventually(async () => (await scraped(server(), UPS)) === ups + 1, 60_000, "the update that put it back");
    expect((await tenant("team-mended"))!.status).toMatchObject({ phase: "Ready" });
  });
});

describe("kubespaces server: a platform revision, previewed on every tenant", () => {
  serverForBlock("fleet");
  const revisionStatus = async (name: string) =>
    JSON.parse((await kubectl(undefined, "get", "platformrevision", name, "-o", "json")).stdout).status;
  const waitForRollout = (name: string, phase: string) =>
    kubectl(
      undefined,
      "wait",
      `--for=jsonpath={.status.rollout.phase}=${phase}`,
      `platformrevision/${name}`,
      "--timeout=600s",
    );
  /** The kubeconfig a team holds: its Secret's bytes. */
  const kubeconfigOf = async (name: string) => {
    const ref = (await tenant(name))!.status!.kubeconfigSecretRef;
    const secret = await hostClients().core.readNamespacedSecret({ name: ref.name, namespace: ref.namespace });
    return Buffer.from(secret.data![ref.key], "base64").toString();
  };
  /** The pod of tenant `name`'s control plane, once it is ready. */
  const controlPlanePod = async (name: string) => {
    let ready: V1Pod | undefined;
    await eventually(
      async () => {
        const pods = await hostClients().core.listNamespacedPod({
          namespace: tenantNamespace(name),
          labelSelector: `app=vcluster,release=${name}`,
        });
        ready = pods.items.find(
          (pod) =>
            !pod.metadata?.deletionTimestamp &&
            pod.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True"),
        );
        return ready !== undefined && pods.items.length === 1;
      },
      300_000,
      `tenant ${name}'s control plane to be ready`,
    );
    return ready!;
  };
  // The tenants first: a revision that tenants run is held by the server's finalizer until none does.
  afterAll(async () => {
    await deleteAllTenants();
    await kubectl(undefined, "delete", "platformrevisions", "--all", "--wait=true").catch(() => undefined);
  });

  it("shows what a tighter policy would do to each tenant, and which request it refuses, naming the field; nothing changes", async () => {
    await applyTenant({ user: ALICE }, "team-small", { cpu: "3", memory: "4Gi" });
    await applyTenant({ user: ALICE }, "team-large", { cpu: "6", memory: "8Gi" });
    await waitFor("team-small", "condition=Ready", 600);
    await waitFor("team-large", "condition=Ready", 600);
    const namespace = tenantNamespace("team-small");
    const quotaBefore = await hostClients().core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace });

    // Only the cluster's admins make revisions (the test bed's admin here): a requester may not.
    const tighter = platformRevisionFile(
      "tighter",
      {
        quota: { ceilings: { cpu: "4" }, default: { storage: "10Gi" } },
        controlPlaneDefaults: { requests: { memory: "300Mi" } },
      },
      ["1", "100%"],
    );
    expect(await refusal({ user: ALICE }, "apply", "-f", tighter)).toMatch(/forbidden/i);
    await kubectl(undefined, "apply", "-f", tighter);
    await kubectl(
      undefined,
      "wait",
      "--for=jsonpath={.status.phase}=Previewed",
      "platformrevision/tighter",
      "--timeout=300s",
    );

    const status = await revisionStatus("tighter");
    expect(status.summary).toMatchObject({ tenants: 2, previewed: 2, changing: 1, unchanged: 0, failed: 1 });
    const byName = Object.fromEntries(status.tenants.map((t: { name: string }) => [t.name, t]));
    expect(byName["team-large"]).toMatchObject({ outcome: "Failed", generation: 1 });
    expect(byName["team-large"].reason).toMatch(/resources\.cpu: 6 is above the platform's ceiling .*cpu: 4/);
    // The smaller tenant's quota takes the new storage default, and its control plane the new requests.
    expect(byName["team-small"]).toMatchObject({ outcome: "Changes" });
    const changed = byName["team-small"].plan.steps.map((s: { type: string }) => s.type);
    expect(changed).toEqual(
      expect.arrayContaining(["kubernetes:core/v1:ResourceQuota", "kubernetes:helm.sh/v3:Release"]),
    );
    const { stdout: table } = await kubectl(undefined, "get", "platformrevisions");
    expect(table.trim().split("\n")[1].split(/\s+/).slice(0, 5)).toEqual(["tighter", "Previewed", "2", "1", "1"]);

    // Previewed only: the tenants run as they did.
    const quotaAfter = await hostClients().core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace });
    expect(quotaAfter.metadata?.resourceVersion).toBe(quotaBefore.metadata?.resourceVersion);
    expect((await tenant("team-large"))!.status).toMatchObject({ phase: "Ready" });

    // What was previewed is what the revision holds: its spec cannot change.
    expect(
      await refusal(
        undefined,
        "patch",
        "platformrevision",
        "tighter",
        "--type=merge",
        "-p",
        '{"spec":{"platform":{"quota":{"ceilings":{"cpu":"8"}}}}}',
      ),
    ).toContain("a PlatformRevision's spec cannot change once made");
  });

  it("rolls it out in waves once approved: a conflicting tenant halts the first wave until it is resolved and the halt resumed; kubeconfigs stay", async () => {
    // The revision's order puts the conflicting tenant first: it is the first wave, alone.
    expect(waveOrder("tighter", ["team-small", "team-large"])).toEqual(["team-large", "team-small"]);
    expect((await revisionStatus("tighter")).rollout).toMatchObject({
      phase: "Waiting",
      message: expect.stringContaining("kubectl annotate platformrevision tighter kubespaces.io/rollout=approved"),
    });
    const namespace = tenantNamespace("team-small");
    const kubeconfigBefore = await kubeconfigOf("team-small");
    const controlPlaneBefore = await controlPlanePod("team-small");

    // Only the cluster's admins approve: a requester may not annotate a revision.
    expect(
      await refusal({ user: ALICE }, "annotate", "platformrevision", "tighter", "kubespaces.io/rollout=approved"),
    ).toMatch(/forbidden/i);
    await kubectl(undefined, "annotate", "platformrevision", "tighter", "kubespaces.io/rollout=approved");
    await waitForRollout("tighter", "Halted");
    const halted = (await revisionStatus("tighter")).rollout;
    expect(halted).toMatchObject({ wave: 1, waves: 2, applied: 0, halt: { tenant: "team-large" } });
    expect(halted.halt.reason).toMatch(/resources\.cpu: 6 is above the platform's ceiling .*cpu: 4/);
    expect(halted.message).toContain(`kubespaces.io/resume=${halted.halt.at}`);
    // Nobody was brought up on it: the second wave never opened.
    expect((await tenant("team-small"))!.status!.platformRevision).toBeUndefined();

    // The owner resolves it: its request now fits the revision's ceiling. The rollout stays halted
    // until an admin resumes that very halt.
    await applyTenant({ user: ALICE }, "team-large", { cpu: "4", memory: "8Gi" });
    await waitFor("team-large", "jsonpath={.status.observedGeneration}=2", 600);
    await eventually(
      async () =>
        (await revisionStatus("tighter")).tenants.some(
          (t: { name: string; generation: number; outcome: string }) =>
            t.name === "team-large" && t.generation === 2 && t.outcome === "Changes",
        ),
      300_000,
      "team-large's new request to be previewed on the revision",
    );
    expect((await revisionStatus("tighter")).rollout).toMatchObject({ phase: "Halted", halt: halted.halt });
    await kubectl(
      undefined,
      "annotate",
      "--overwrite",
      "platformrevision",
      "tighter",
      `kubespaces.io/resume=${halted.halt.at}`,
    );
    await waitForRollout("tighter", "RolledOut");

    const status = await revisionStatus("tighter");
    expect(status.rollout).toMatchObject({ phase: "RolledOut", applied: 2, message: "every tenant (2) runs it" });
    expect(
      status.tenants.map((t: { name: string; appliedGeneration: number }) => [t.name, t.appliedGeneration]),
    ).toEqual([
      ["team-large", 2],
      ["team-small", 1],
    ]);
    for (const name of ["team-large", "team-small"]) {
      expect((await tenant(name))!.status).toMatchObject({ phase: "Ready", platformRevision: "tighter" });
      const quota = await hostClients().core.readNamespacedResourceQuota({
        name: "kubespaces-quota",
        namespace: tenantNamespace(name),
      });
      expect(quota.spec?.hard?.["requests.storage"]).toBe("10Gi");
    }
    // Rolled out to every tenant, it is the policy new tenants get: its ceilings are the ones published for admission.
    await eventually(
      async () => (await publishedCeilings())?.platformRevision === "tighter",
      60_000,
      "the revision's ceilings to be published",
    );
    expect(await publishedCeilings()).toEqual({ platformRevision: "tighter", ceilings: { cpu: "4" } });
    expect(
      await refusal({ user: ALICE }, "apply", "-f", manifest("team-huge", { owner: ALICE, resources: { cpu: "5" } })),
    ).toContain("spec.resources.cpu: 5 is above the platform's ceiling (platform.quota.ceilings.cpu: 4)");

    // The new control-plane requests rolled team-small's control plane; the kubeconfig its team
    // holds is the same, and still reaches it.
    const controlPlaneAfter = await controlPlanePod("team-small");
    expect(controlPlaneAfter.metadata?.uid).not.toBe(controlPlaneBefore.metadata?.uid);
    expect(controlPlaneAfter.spec?.containers.find((c) => c.name === "syncer")?.resources?.requests?.memory).toBe(
      "300Mi",
    );
    const kubeconfigAfter = await kubeconfigOf("team-small");
    expect(kubeconfigAfter).toBe(kubeconfigBefore);
    // On the test bed the new pod is Ready as KWOK says, not as its probe would: its control
    // plane answers a few seconds later.
    const apiServerUrl = (await tenant("team-small"))!.status!.apiServerUrl;
    await eventually(
      () =>
        expectWorkingKubeconfig(kubeconfigAfter, "team-small", apiServerUrl).then(
          () => true,
          () => false,
        ),
      120_000,
      "team-small's rolled control plane to answer",
    );
    await expectWorkingKubeconfig(kubeconfigAfter, "team-small", apiServerUrl);
    expect((await tenant("team-small"))!.status!.kubeconfigSecretRef).toMatchObject({ namespace });
    // Unchanged, so the status tells of no change.
    expect((await tenant("team-small"))!.status!.kubeconfigChangedAt).toBeUndefined();

    // The tenants run it: its deletion waits, held by the server's finalizer, until none does (afterAll).
    await kubectl(undefined, "delete", "platformrevision", "tighter", "--wait=false");
    const held = JSON.parse((await kubectl(undefined, "get", "platformrevision", "tighter", "-o", "json")).stdout);
    expect(held.metadata).toMatchObject({
      deletionTimestamp: expect.any(String),
      finalizers: ["kubespaces.io/revision-in-use"],
    });
    expect((await tenant("team-small"))!.status).toMatchObject({ phase: "Ready", platformRevision: "tighter" });
  });

  it("marks a revision whose policy is not one Invalid, naming the field, and previews nothing on it", async () => {
    await kubectl(undefined, "apply", "-f", platformRevisionFile("broken", { quota: { ceilings: { cpu: 4 } } }));
    await kubectl(
      undefined,
      "wait",
      "--for=jsonpath={.status.phase}=Invalid",
      "platformrevision/broken",
      "--timeout=120s",
    );
    const status = await revisionStatus("broken");
    expect(status.message).toMatch(/quota\.ceilings\.cpu/);
    expect(status.tenants).toBeUndefined();
  });
});
