/**
 * Day 2 on the test bed: the server of the previous release (support/previousRelease.ts, built from
 * the repository's history) makes a Tenant Ready on a PostgreSQL state backend; this version's
 * server then takes over with the same backend and passphrase, installing its CRD, RBAC and
 * policies over the old ones. The tenant is not updated (its plan did not change), not lost, and
 * its kubeconfig keeps working. Then the state backend is backed up with `pg_dump` and restored
 * into a fresh database as docs/self-service.md says, and the server updates the tenant from it.
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { RESOURCE_QUOTA_NAME } from "../../provider/render/resourceQuota";
import { eventually, hostClients } from "./support/hostCluster";
import { kubectl, tenantEventReasons } from "./support/hostKubectl";
import { KUBESPACES_BIN, newCliUser, Running, type CliUser } from "./support/kubespacesCli";
import { buildRelease, type ReleaseBuild } from "./support/previousRelease";
import { replicaReconciles } from "./support/servedKubespaces";
import { expectNothingLeft, expectWorkingKubeconfig, tenantNamespace } from "./support/tenantAssertions";
import { testbedPostgres } from "./support/testbed";

const run = promisify(execFile);
const ALICE = "alice@example.com";
const NAME = "team-upgrade";

/** The Tenant as the API server holds it. */
async function tenant(): Promise<{ metadata: { generation: number }; status?: Record<string, any> }> {
  return JSON.parse((await kubectl(undefined, "get", "tenant", NAME, "-o", "json")).stdout);
}

/**
 * Deletes the Tenant as its owner (the owner admission policy lets no one else but the admins'
 * group), and waits, as the test bed's admin, until the server's teardown has let it go.
 */
async function deleteTenant(): Promise<void> {
  await kubectl({ user: ALICE }, "delete", "tenant", NAME, "--wait=false");
  await kubectl(undefined, "wait", "--for=delete", `tenant/${NAME}`, "--timeout=300s");
}

/** The Tenant's kubeconfig, from the Secret its status names. */
async function kubeconfigOf(status: Record<string, any>): Promise<string> {
  const ref = status.kubeconfigSecretRef as { name: string; namespace: string; key: string };
  const secret = await hostClients().core.readNamespacedSecret({ name: ref.name, namespace: ref.namespace });
  return Buffer.from(secret.data![ref.key], "base64").toString("utf8");
}

/** A PostgreSQL client tool of the test bed's server (its package's binaries are not on PATH). */
function postgresTool(tool: string): string {
  const version = readdirSync("/usr/lib/postgresql").sort().at(-1)!;
  return path.join("/usr/lib/postgresql", version, "bin", tool);
}

/** The URL of database `name` on the test bed's PostgreSQL, with its admin user. */
const databaseUrl = (name: string): string => {
  const url = new URL(testbedPostgres());
  url.pathname = `/${name}`;
  return url.toString();
};

/** Runs SQL on the test bed's PostgreSQL. */
const psql = (sql: string) =>
  run(postgresTool("psql"), [databaseUrl("postgres"), "-q", "-v", "ON_ERROR_STOP=1", "-c", sql]);

/**
 * How many updates of the tenant's stack the state backend's database `database` holds: Pulumi's
 * PostgreSQL backend keeps the DIY layout's files as rows, one `<stack>-<time>.history.json` per update.
 */
async function recordedUpdates(database: string): Promise<number> {
  const sql = `SELECT count(*) FROM pulumi_state WHERE key LIKE '%/history/%${NAME}%.history.json'`;
  const { stdout } = await run(postgresTool("psql"), [databaseUrl(database), "-tAc", sql]);
  return Number(stdout.trim());
}

/** A server replica: `bin` (this version's, or a release's entry point run with node) with the shared backend. */
function startServer(
  bin: { command: string; args: string[]; serverArgs?: string[] },
  user: CliUser,
  id: string,
  backend: string,
): Running {
  const config = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-upgrade-config-")), "server.yaml");
  writeFileSync(config, stringify({}));
  const args = [
    ...bin.args,
    "server",
    "--id",
    id,
    "--config",
    config,
    "--listen",
    "127.0.0.1:0",
    "--backend",
    backend,
    ...(bin.serverArgs ?? []),
  ];
  return new Running(spawn(bin.command, args, { env: user.env, stdio: ["ignore", "pipe", "pipe"] }));
}

async function stopServer(server: Running | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  await server.finished;
}

describe("upgrading the server, and its state backend backed up and restored", () => {
  const suffix = randomBytes(4).toString("hex");
  const databases = { live: `upgrade_${suffix}` };
  let previous: ReleaseBuild;
  let user: CliUser;
  let server: Running | undefined;
  // This version serves its metrics apart, on a port of their own; the previous release on its API's.
  const current = { command: KUBESPACES_BIN, args: [] as string[], serverArgs: ["--metrics-listen", "127.0.0.1:0"] };

  beforeAll(async () => {
    previous = await buildRelease();
    // One home with one passphrase for every replica, as the installation's Secret gives every pod.
    user = newCliUser();
    mkdirSync(user.home, { recursive: true, mode: 0o700 });
    writeFileSync(path.join(user.home, "passphrase"), randomBytes(32).toString("base64url"), { mode: 0o600 });
    await psql(`CREATE DATABASE ${databases.live}`);
    await kubectl(undefined, "delete", "clusterrolebinding", "e2e-upgrade-requesters", "--ignore-not-found");
  });

  afterAll(async () => {
    // Whatever a failed test left: torn down by a replica of this version, then the replica stopped.
    if ((await kubectl(undefined, "get", "tenant", NAME, "--ignore-not-found", "-o", "name")).stdout.trim()) {
      if (!server || server.child.exitCode !== null)
        server = startServer(current, user, "upgrade-cleanup", databaseUrl(databases.live));
      await deleteTenant().catch(() => undefined);
    }
    await stopServer(server);
    await kubectl(undefined, "delete", "clusterrolebinding", "e2e-upgrade-requesters", "--ignore-not-found");
    for (const database of Object.values(databases))
      await psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  });

  it("takes over a Ready tenant of the previous release without updating it; its kubeconfig keeps working", async () => {
    server = startServer(
      { command: process.execPath, args: [previous.bin] },
      user,
      "upgrade-old",
      databaseUrl(databases.live),
    );
    await server.printed(replicaReconciles("upgrade-old"));
    await kubectl(
      undefined,
      "create",
      "clusterrolebinding",
      "e2e-upgrade-requesters",
      "--clusterrole=kubespaces-tenant-requester",
      `--user=${ALICE}`,
    );
    const manifest = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-upgrade-")), `${NAME}.yaml`);
    const spec = { owner: ALICE, resources: { cpu: "3", memory: "4Gi" } };
    writeFileSync(
      manifest,
      stringify({ apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", metadata: { name: NAME }, spec }),
    );
    await kubectl({ user: ALICE }, "apply", "-f", manifest);
    await kubectl(undefined, "wait", "--for=condition=Ready", `tenant/${NAME}`, "--timeout=600s");
    const before = (await tenant()).status!;
    const kubeconfigBefore = await kubeconfigOf(before);
    const provisionings = (await tenantEventReasons(NAME)).filter((reason) => reason === "Provisioning").length;
    // The previous release records no expiry in force: this version's server adds it on takeover.
    expect(before.expiry).toBeUndefined();
    await stopServer(server);

    server = startServer(current, user, "upgrade-new", databaseUrl(databases.live));
    await server.printed(replicaReconciles("upgrade-new"));
    await eventually(
      async () => (await tenant()).status?.expiry !== undefined,
      120_000,
      "the new server to reconcile the tenant",
    );
    const after = await tenant();
    expect(after.metadata.generation).toBe(1);
    // Kept by the new CRD's schema (an old one would prune it), and the running generation's.
    expect(after.status).toMatchObject({ phase: "Ready", observedGeneration: 1, expiry: { generation: 1 } });
    expect((await tenantEventReasons(NAME)).filter((reason) => reason === "Provisioning")).toHaveLength(provisionings);
    expect(await kubeconfigOf(after.status!)).toBe(kubeconfigBefore);
    await expectWorkingKubeconfig(kubeconfigBefore, NAME, after.status!.apiServerUrl);
  });

  it("restores the state backend from pg_dump into a fresh database, and the server updates the tenant from it", async () => {
    await stopServer(server);
    const dump = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-state-backup-")), "state.dump");
    await run(postgresTool("pg_dump"), ["--format=custom", `--file=${dump}`, databaseUrl(databases.live)]);
    const backedUp = await recordedUpdates(databases.live);
    expect(backedUp).toBeGreaterThan(0);
    // A fresh database of the same name (Pulumi's PostgreSQL backend keys each stack under the
    // database's name), the old one gone with everything in it, as after losing the server.
    await psql(`DROP DATABASE ${databases.live} WITH (FORCE)`);
    await psql(`CREATE DATABASE ${databases.live}`);
    await run(postgresTool("pg_restore"), ["--no-owner", `--dbname=${databaseUrl(databases.live)}`, dump]);
    expect(await recordedUpdates(databases.live)).toBe(backedUp);

    server = startServer(current, user, "upgrade-restored", databaseUrl(databases.live));
    await server.printed(replicaReconciles("upgrade-restored"));
    await kubectl({ user: ALICE }, "patch", "tenant", NAME, "--type=merge", "-p", '{"spec":{"resources":{"cpu":"4"}}}');
    await kubectl(
      undefined,
      "wait",
      "--for=jsonpath={.status.observedGeneration}=2",
      `tenant/${NAME}`,
      "--timeout=600s",
    );
    const updated = (await tenant()).status!;
    expect(updated).toMatchObject({ phase: "Ready", observedGeneration: 2 });
    const quota = await hostClients().core.readNamespacedResourceQuota({
      name: RESOURCE_QUOTA_NAME,
      namespace: tenantNamespace(NAME),
    });
    expect(quota.spec?.hard?.["requests.cpu"]).toBe("4");
    // The update went on from the restored stack: its history has one more, not a new stack's one.
    expect(await recordedUpdates(databases.live)).toBe(backedUp + 1);
    await expectWorkingKubeconfig(await kubeconfigOf(updated), NAME, updated.apiServerUrl);
  });

  it("tears the tenant down from the restored state: nothing is left", async () => {
    await deleteTenant();
    await expectNothingLeft(NAME);
  });
});
