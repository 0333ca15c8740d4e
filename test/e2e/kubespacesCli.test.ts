/**
 * The `kubespaces` binary on the test bed, as a developer types the docs' walkthrough: create, get
 * --wait, kubeconfig --merge, kubectl into the tenant, list, delete; in a pseudo-terminal and
 * without one. Then what the CLI promises beyond the happy path: two creates at once, `get --wait`
 * following another terminal's create, bad requests refused with nothing created, and Ctrl-C
 * recovered by the next command (a stale stack lock included).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import {
  inTerminal,
  kubespaces,
  newCliUser,
  plainTranscript,
  startKubespaces,
  type CliUser,
} from "./support/kubespacesCli";
import { expectNothingLeft, tenantNamespace } from "./support/tenantAssertions";
import { testbedEnv, vclusterEndpoint } from "./support/testbed";

const OWNER = "alice@example.com";
/** The Pulumi project of the tenants' stacks (the login's default). */
const PROJECT = "kubespaces-self-service";
/** What `--output json` prints for tenants. */
interface TenantJson {
  metadata: { name: string };
  spec: { owner?: string };
  status: { phase: string; apiServerUrl?: string; namespace?: string };
}
interface TenantList {
  kind: string;
  items: TenantJson[];
}

/** The docs' walkthrough, as one shell session that prints each command and its exit code. */
const WALKTHROUGH = [
  `kubespaces login --user ${OWNER}`,
  "kubespaces tenant create team-atlas --cpu 8 --memory 16Gi",
  "kubespaces tenant get team-atlas --wait",
  "kubespaces tenant kubeconfig team-atlas --merge",
  "kubectl config use-context team-atlas",
  "kubectl get ns",
  "kubespaces tenant list",
  "kubespaces tenant delete team-atlas",
];

const session = (commands: readonly string[]) =>
  [
    "set -u",
    `step() { printf '$ %s\\n' "$*"; local start=$EPOCHREALTIME rc=0; "$@" || rc=$?; printf '# exit %d after %ss\\n' "$rc" "$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"; return "$rc"; }`,
    ...commands.map((command) => `step ${command} || exit $?`),
  ].join("\n");

const namespaceExists = async (tenant: string) =>
  (await readOrUndefined(() => hostClients().core.readNamespace({ name: tenantNamespace(tenant) }))) !== undefined;
const requestFiles = (user: CliUser) => {
  const dir = path.join(user.home, "tenants", PROJECT);
  return existsSync(dir) ? readdirSync(dir) : [];
};
/** Where the file backend keeps a tenant stack's locks (pkg/backend/diy: .pulumi/locks/<org>/<project>/<stack>). */
const stackLocks = (user: CliUser, tenant: string) =>
  path.join(user.home, "state", ".pulumi", "locks", "organization", PROJECT, tenant);
/** The tenants of `list --output json`, as name and phase. */
const listedPhases = (stdout: string) =>
  (JSON.parse(stdout) as TenantList).items.map((t) => `${t.metadata.name} ${t.status.phase}`);
const kubectl = (user: CliUser, ...args: string[]) =>
  execFileSync("kubectl", args, { env: user.env, encoding: "utf8" });

let users: CliUser[] = [];
const HOLD_CONTROL_PLANE = "kubespaces.io/testbed-hold-control-plane";
const cliUser = () => {
  const user = newCliUser();
  users.push(user);
  return user;
};

// A failed test must not leave tenants behind for the next file: delete whatever a user still has.
afterEach(async () => {
  for (const user of users) {
    const listed = await kubespaces(user, "tenant", "list", "--all", "--output", "json");
    const tenants = listed.code === 0 && listed.stdout.trim() ? (JSON.parse(listed.stdout) as TenantList).items : [];
    for (const tenant of tenants) await kubespaces(user, "tenant", "delete", tenant.metadata.name);
    rmSync(path.dirname(user.home), { recursive: true, force: true });
  }
  users = [];
});

describe("the docs' walkthrough", () => {
  it("works in a terminal: live progress, the tenant's kubeconfig merged, kubectl inside the tenant", async () => {
    const user = cliUser();
    const run = inTerminal(user, session(WALKTHROUGH));
    const { code, stdout } = await run.finished;
    const transcript = plainTranscript(stdout);
    writeFileSync(path.join(user.home, "..", "walkthrough-terminal.txt"), transcript);
    expect(code, transcript).toBe(0);
    expect(transcript).toMatch(/team-atlas\s+Pending -> Provisioning/);
    expect(transcript).toMatch(/team-atlas\s+Provisioning -> Ready/);
    expect(transcript).toMatch(
      /\$ kubespaces tenant get team-atlas --wait\nNAME\s+PHASE\s+API\nteam-atlas\s+Ready\s+https:\/\/team-atlas\.kubespaces-tenant-team-atlas\.svc:443/,
    );
    expect(transcript).toContain('Switched to context "team-atlas".');
    expect(transcript).toMatch(/\$ kubectl get ns\nNAME\s+STATUS\s+AGE\ndefault\s+Active[\s\S]*kube-system\s+Active/);
    expect(transcript).toMatch(
      /\$ kubespaces tenant list\nNAME\s+OWNER\s+PHASE\s+API\nteam-atlas\s+alice@example\.com\s+Ready/,
    );
    expect(transcript).toMatch(/tenant team-atlas deleted: \d+ resource\(s\) removed/);
    await expectNothingLeft("team-atlas");
  });

  it("works without a terminal: plain progress lines, --output json, a kubeconfig merged beside other contexts", async () => {
    const user = cliUser();
    mkdirSync(path.dirname(user.kubeconfig), { recursive: true });
    writeFileSync(
      user.kubeconfig,
      "apiVersion: v1\nkind: Config\nclusters: [{name: other, cluster: {server: 'https://other.example:6443'}}]\nusers: [{name: other, user: {token: other-token}}]\ncontexts: [{name: other, context: {cluster: other, user: other}}]\ncurrent-context: other\n",
    );
    expect((await kubespaces(user, "login", "--user", OWNER)).code).toBe(0);

    const preview = await kubespaces(
      user,
      "tenant",
      "create",
      "team-atlas",
      "--cpu",
      "8",
      "--memory",
      "16Gi",
      "--preview",
    );
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain("Preview of creating tenant team-atlas; nothing was changed.");
    expect(preview.stdout).toMatch(/\+\s+create\s+kubernetes:helm\.sh\/v3:Release\s+team-atlas-vcluster/);
    expect(requestFiles(user)).toEqual([]);
    expect(await namespaceExists("team-atlas")).toBe(false);

    const created = await kubespaces(user, "tenant", "create", "team-atlas", "--cpu", "8", "--memory", "16Gi");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain("team-atlas: Pending -> Provisioning\n");
    expect(created.stderr).toContain("team-atlas: creating Release team-atlas-vcluster\n");
    expect(created.stderr).toContain("team-atlas: Provisioning -> Ready\n");

    const got = await kubespaces(user, "tenant", "get", "team-atlas", "--wait", "--output", "json");
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "team-atlas" },
      spec: { owner: OWNER },
      status: {
        phase: "Ready",
        conditions: [{ type: "Ready", status: "True", reason: "Provisioned" }],
        apiServerUrl: "https://team-atlas.kubespaces-tenant-team-atlas.svc:443",
        namespace: "kubespaces-tenant-team-atlas",
      },
    });
    // -o wide reads the host's quota with the host's credentials: the 8 CPUs and 16Gi asked for
    // (the quota's requests.*), and the awake hours from the stack's history.
    const wide = await kubespaces(user, "tenant", "get", "team-atlas", "-o", "wide");
    expect(wide.code, wide.stderr).toBe(0);
    expect(wide.stdout).toMatch(
      /CPU\s+MEMORY\s+STORAGE\s+AWAKE\(30D\)\nteam-atlas\s+Ready\s.*\s\S+\/8\s+\S+\/16Gi\s+\S+\s+0(\.\d)?h\n$/,
    );

    expect((await kubespaces(user, "tenant", "kubeconfig", "team-atlas", "--merge")).code).toBe(0);
    expect(statSync(user.kubeconfig).mode & 0o777).toBe(0o600);
    expect(statSync(`${user.kubeconfig}.kubespaces-backup`).mode & 0o777).toBe(0o600);
    expect(kubectl(user, "config", "get-contexts", "-o", "name").split("\n").filter(Boolean).sort()).toEqual([
      "other",
      "team-atlas",
    ]);
    expect(kubectl(user, "config", "current-context").trim()).toBe("other");
    kubectl(user, "config", "use-context", "team-atlas");
    const namespaces = JSON.parse(kubectl(user, "get", "ns", "--output", "json")) as {
      items: { metadata: { name: string } }[];
    };
    expect(namespaces.items.map((ns) => ns.metadata.name)).toEqual(expect.arrayContaining(["default", "kube-system"]));

    const listed = await kubespaces(user, "tenant", "list", "--output", "json");
    expect(listedPhases(listed.stdout)).toEqual(["team-atlas Ready"]);
    const yaml = await kubespaces(user, "tenant", "list", "--output", "yaml");
    expect(yaml.stdout).toContain("kind: TenantList\n");
    expect(yaml.stdout).toContain("      name: team-atlas\n");
    expect((await kubespaces(user, "tenant", "list", "--output", "name")).stdout).toBe("tenant/team-atlas\n");

    const deletePreview = await kubespaces(user, "tenant", "delete", "team-atlas", "--preview");
    expect(deletePreview.stdout).toMatch(/-\s+delete\s+kubernetes:core\/v1:Namespace\s+team-atlas-namespace/);
    expect(requestFiles(user)).toEqual(["team-atlas.yaml"]);

    const deleted = await kubespaces(user, "tenant", "delete", "team-atlas");
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain("- Namespace team-atlas-namespace");
    expect(deleted.stderr).toContain("team-atlas: Deleting -> Deleted\n");
    await expectNothingLeft("team-atlas");
    expect(requestFiles(user)).toEqual([]);
    expect((await kubespaces(user, "tenant", "get", "team-atlas")).code).toBe(4);
  });
});

describe("a host cluster named by login", () => {
  it("provisions on the context `login --context` records, with the policy's chart, and kubeconfig --server reaches the tenant", async () => {
    const user = cliUser();
    // A user with a cluster of their own: pulumi and its Kubernetes provider installed (the test
    // bed's), and a kubeconfig with the host's context (the test bed's admin one).
    const {
      KUBECONFIG: hostKubeconfig,
      KUBESPACES_VCLUSTER_CHART: chart,
      PULUMI_CONFIG_PASSPHRASE: _passphrase,
      ...tools
    } = testbedEnv();
    Object.assign(user.env, tools);
    const context = kubectl(user, "--kubeconfig", hostKubeconfig, "config", "current-context").trim();
    const policy = path.join(user.home, "..", "policy.yaml");
    writeFileSync(policy, `chart: { localPath: ${chart} }\n`);
    const login = await kubespaces(
      user,
      "login",
      "--user",
      OWNER,
      "--context",
      context,
      "--kubeconfig",
      hostKubeconfig,
      "--platform",
      policy,
    );
    expect(login.stdout).toContain(`host      context ${context} of ${hostKubeconfig}`);

    const created = await kubespaces(user, "tenant", "create", "cli-ctx", "--cpu", "3", "--memory", "4Gi");
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`provisioning on context ${context} of ${hostKubeconfig}`);
    expect(created.stderr).not.toContain("local test bed");

    // The tenant's in-cluster URL does not resolve here; --server is the port-forward a user would run.
    const endpoint = vclusterEndpoint(tenantNamespace("cli-ctx"), "cli-ctx");
    expect((await kubespaces(user, "tenant", "kubeconfig", "cli-ctx", "--merge", "--server", endpoint)).code).toBe(0);
    kubectl(user, "config", "use-context", "cli-ctx");
    expect(kubectl(user, "get", "ns", "kube-system", "--output", "name").trim()).toBe("namespace/kube-system");

    expect((await kubespaces(user, "tenant", "delete", "cli-ctx")).code).toBe(0);
    await expectNothingLeft("cli-ctx");
  });
});

describe("concurrency", () => {
  it("two creates at once both end Ready, and get --wait in a third terminal follows one of them live", async () => {
    const user = cliUser();
    await kubespaces(user, "login", "--user", OWNER);
    const one = startKubespaces(user, ["tenant", "create", "cli-one", "--cpu", "3", "--memory", "4Gi"]);
    const two = startKubespaces(user, ["tenant", "create", "cli-two", "--cpu", "3", "--memory", "4Gi"]);
    // The create's journal is open once it shows Pending: from then on, get --wait can follow it.
    await one.printed(/cli-one: Pending\n/);
    const follower = startKubespaces(user, ["tenant", "get", "cli-one", "--wait"]);
    const [first, second, followed] = await Promise.all([one.finished, two.finished, follower.finished]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(followed.code, followed.stderr).toBe(0);
    expect(followed.stderr).toMatch(/cli-one: (Pending -> )?Provisioning\n[\s\S]*cli-one: Provisioning -> Ready\n/);
    expect(followed.stdout).toMatch(/cli-one\s+Ready\s+https:/);
    expect(await namespaceExists("cli-one")).toBe(true);
    expect(await namespaceExists("cli-two")).toBe(true);
    expect(listedPhases((await kubespaces(user, "tenant", "list", "--all", "--output", "json")).stdout)).toEqual([
      "cli-one Ready",
      "cli-two Ready",
    ]);

    const deletes = await Promise.all(["cli-one", "cli-two"].map((name) => kubespaces(user, "tenant", "delete", name)));
    for (const deleted of deletes) expect(deleted.code, deleted.stderr).toBe(0);
    await expectNothingLeft("cli-one");
    await expectNothingLeft("cli-two");
  });
});

describe("a stack per tenant", () => {
  it("tenants created one after another each get a stack of their own; deleting one leaves the other untouched", async () => {
    const user = cliUser();
    await kubespaces(user, "login", "--user", OWNER);
    for (const name of ["cli-first", "cli-second"]) {
      const created = await kubespaces(user, "tenant", "create", name, "--cpu", "3", "--memory", "4Gi");
      expect(created.code, created.stderr).toBe(0);
    }
    const stacks = readdirSync(path.join(user.home, "state", ".pulumi", "stacks", PROJECT))
      .filter((f) => f.endsWith(".json"))
      .sort();
    expect(stacks).toEqual(["cli-first.json", "cli-second.json"]);
    const deleted = await kubespaces(user, "tenant", "delete", "cli-first");
    expect(deleted.code, deleted.stderr).toBe(0);
    await expectNothingLeft("cli-first");
    expect(await namespaceExists("cli-second")).toBe(true);
    expect(listedPhases((await kubespaces(user, "tenant", "list", "--output", "json")).stdout)).toEqual([
      "cli-second Ready",
    ]);
    expect((await kubespaces(user, "tenant", "delete", "cli-second")).code).toBe(0);
    await expectNothingLeft("cli-second");
  });
});

describe("refusals", () => {
  it("refuses bad requests and bad files with the component's messages, before anything is created", async () => {
    const user = cliUser();
    const policy = path.join(user.home, "..", "policy.yaml");
    writeFileSync(policy, "quota:\n  ceilings: { cpu: '4' }\n");
    expect((await kubespaces(user, "login", "--user", OWNER, "--platform", policy)).code).toBe(0);

    const badQuantity = await kubespaces(user, "tenant", "create", "cli-bad", "--memory", "lots");
    expect(badQuantity.code).toBe(2);
    expect(badQuantity.stderr).toContain('kubespaces:index:Tenant "cli-bad" has an invalid input; nothing was created');
    expect(badQuantity.stderr).toContain("resources.memory: must be a Kubernetes quantity");

    const aboveCeiling = await kubespaces(user, "tenant", "create", "cli-bad", "--cpu", "8");
    expect(aboveCeiling.code).toBe(2);
    expect(aboveCeiling.stderr).toContain("resources.cpu: 8 is above the platform's ceiling");

    const platformField = path.join(user.home, "..", "platform-field.yaml");
    writeFileSync(
      platformField,
      "apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata: { name: cli-bad }\nspec:\n  owner: mallory@example.com\n  platform: { allowUnsafeOverrides: true }\n",
    );
    const fromFile = await kubespaces(user, "tenant", "create", "--file", platformField);
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain("the rest is the platform's policy");

    const wrongKind = path.join(user.home, "..", "wrong-kind.yaml");
    writeFileSync(wrongKind, "apiVersion: kubespaces.io/v2\nkind: Tenant\nmetadata: { name: cli-bad }\nspec: {}\n");
    const wrong = await kubespaces(user, "tenant", "create", "--file", wrongKind);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(`${wrongKind}, document 1: must be apiVersion kubespaces.io/v1alpha1, kind Tenant`);

    const hostKubeconfig = path.join(user.home, "..", "host.kubeconfig");
    writeFileSync(
      hostKubeconfig,
      "apiVersion: v1\nkind: Config\nclusters: [{name: other, cluster: {server: 'https://other.example:6443'}}]\nusers: [{name: other, user: {token: other-token}}]\ncontexts: [{name: other, context: {cluster: other, user: other}}]\n",
    );
    const noContext = await kubespaces(user, "login", "--context", "no-such-context", "--kubeconfig", hostKubeconfig);
    expect(noContext.code).toBe(2);
    expect(noContext.stderr).toContain(`kubeconfig ${hostKubeconfig} has no context no-such-context (it has: other)`);
    expect(noContext.stderr).not.toContain("other-token");

    expect(requestFiles(user)).toEqual([]);
    expect(await namespaceExists("cli-bad")).toBe(false);
    expect((await kubespaces(user, "tenant", "get", "cli-bad")).code).toBe(4);
  });
});

describe("failures", () => {
  it("a tenant that does not become ready: create and get exit 3 with the reason, list shows it Failed, delete removes it", async () => {
    const user = cliUser();
    const policy = path.join(user.home, "..", "policy.yaml");
    writeFileSync(policy, "readinessTimeoutSeconds: 5\n");
    await kubespaces(user, "login", "--user", OWNER, "--platform", policy);
    // The test bed's hold annotation keeps the control plane from starting, as a node that cannot start it.
    const manifest = path.join(user.home, "..", "cli-fail.yaml");
    writeFileSync(
      manifest,
      `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata: { name: cli-fail }\nspec:\n  owner: ${OWNER}\n  vcluster:\n    valuesOverrides:\n      controlPlane: { statefulSet: { annotations: { ${HOLD_CONTROL_PLANE}: "true" } } }\n`,
    );
    const created = await kubespaces(user, "tenant", "create", "--file", manifest);
    expect(created.code, created.stderr).toBe(3);
    expect(created.stderr).toContain("cli-fail: Provisioning -> Failed");
    expect(created.stderr).toMatch(/tenant cli-fail failed \(ProvisioningFailed\): .*not ready after 5s/);
    expect(created.stdout).toMatch(/cli-fail\s+Failed/);

    const got = await kubespaces(user, "tenant", "get", "cli-fail", "--output", "json");
    expect(got.code).toBe(3);
    expect(JSON.parse(got.stdout)).toMatchObject({
      metadata: { name: "cli-fail" },
      status: { phase: "Failed", conditions: [{ status: "False", reason: "ProvisioningFailed" }] },
    });
    expect(listedPhases((await kubespaces(user, "tenant", "list", "--output", "json")).stdout)).toEqual([
      "cli-fail Failed",
    ]);

    expect((await kubespaces(user, "tenant", "delete", "cli-fail")).code).toBe(0);
    await expectNothingLeft("cli-fail");
  });

  it("a stack locked by a live update past --lock-timeout: exit 5 naming the holder, the lock kept, the request kept", async () => {
    const user = cliUser();
    await kubespaces(user, "login", "--user", OWNER);
    // A live holder: this test's own process, on this machine, since now.
    const lock = path.join(stackLocks(user, "cli-busy"), "00000000-live-lock.json");
    mkdirSync(path.dirname(lock), { recursive: true });
    writeFileSync(
      lock,
      JSON.stringify({
        pid: process.pid,
        username: "bob",
        hostname: os.hostname(),
        timestamp: new Date().toISOString(),
      }),
    );
    // What the lock decides is asserted, not how long the wait took: however slow the first
    // attempt, the command ends busy, names the holder, and leaves the live lock in place.
    const busy = await kubespaces(user, "tenant", "create", "cli-busy", "--defaults", "--lock-timeout", "1");
    expect(busy.code, busy.stderr).toBe(5);
    expect(busy.stderr).toContain(
      `tenant cli-busy's stack is still locked by another update after 1s (pid ${process.pid} of "bob@${os.hostname()}"`,
    );
    expect(requestFiles(user)).toEqual(["cli-busy.yaml"]);
    expect(existsSync(lock)).toBe(true);
    const got = JSON.parse(
      (await kubespaces(user, "tenant", "get", "cli-busy", "--output", "json")).stdout,
    ) as TenantJson;
    expect(got.status.phase).toBe("Pending");
    rmSync(lock);
    const deleted = await kubespaces(user, "tenant", "delete", "cli-busy");
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain("tenant cli-busy deleted");
    expect(requestFiles(user)).toEqual([]);
  });
});

describe("interruptions", () => {
  it("Ctrl-C during a create keeps the request; the next create clears a dead update's lock and finishes it", async () => {
    const user = cliUser();
    await kubespaces(user, "login", "--user", OWNER);
    const run = inTerminal(user, "kubespaces tenant create cli-int --cpu 3 --memory 4Gi");
    await run.printed(/creating Release cli-int-vcluster/);
    run.child.stdin?.write("\x03");
    const interrupted = await run.finished;
    const transcript = plainTranscript(interrupted.stdout);
    expect(interrupted.code, transcript).toBe(130);
    expect(transcript).toContain("the create of tenant cli-int was interrupted; its request is kept");
    expect(requestFiles(user)).toEqual(["cli-int.yaml"]);

    // The graceful cancel released the stack's lock. Now a lock left by an update whose process is
    // gone (as after `kill -9`), on this machine.
    const locks = stackLocks(user, "cli-int");
    expect(existsSync(locks) ? readdirSync(locks) : []).toEqual([]);
    const gone = execFileSync("bash", ["-c", "true & echo $!"], { encoding: "utf8" }).trim();
    mkdirSync(locks, { recursive: true });
    writeFileSync(
      path.join(locks, "00000000-dead-lock.json"),
      JSON.stringify({
        pid: Number(gone),
        username: "alice",
        hostname: os.hostname(),
        timestamp: new Date().toISOString(),
      }),
    );

    const resumed = await kubespaces(user, "tenant", "create", "cli-int");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(
      `removing the lock of an update that is gone (pid ${gone} of "alice@${os.hostname()}"`,
    );
    expect(resumed.stdout).toMatch(/cli-int\s+Ready/);

    expect((await kubespaces(user, "tenant", "delete", "cli-int")).code).toBe(0);
    await expectNothingLeft("cli-int");
  });
});
