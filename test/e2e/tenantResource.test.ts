/**
 * The Tenant custom resource on the test bed's real API server (1.36), installed from the generated
 * YAML under deploy/: kubectl's strict field validation, the CRD's CEL rules, the admission
 * policy on owners, the printer columns, the server's and the requesters' RBAC, each exercised with
 * kubectl's impersonation (`--as`, `--as-group`) from the test bed's admin kubeconfig. Last, a tenant is
 * provisioned and torn down by the Tenant component under the server's identity alone, which
 * shows that its ClusterRole and the tenant namespace's access binding hold what the component, its
 * lifecycle and the vCluster chart need, while the fence keeps its cluster-wide writes to tenants'.
 * The tests run in order.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { eventually } from "./support/hostCluster";
import { expectNothingLeft, expectReadyStatus } from "./support/tenantAssertions";
import { removeStack, setTenants, tenantsStack } from "./support/tenantsStack";
import { REPO_ROOT, testbedEnv } from "./support/testbed";
import { installOptions } from "../../provider/tenantResource/installOptions";
import { ownerAdmission } from "../../provider/tenantResource/ownerAdmission";

const env = testbedEnv();
const DEPLOY = ["tenant-crd.yaml", "admission.yaml", "rbac.yaml"].map((file) => path.join(REPO_ROOT, "deploy", file));
const SERVER = "system:serviceaccount:kubespaces-system:kubespaces-server";
const REQUESTERS = "e2e-tenant-requesters";
const ADMINS = "kubespaces-admins";
const alice = { as: "alice@example.com", groups: [REQUESTERS] };
const admin = { as: "carol@example.com", groups: [ADMINS] };
const server = { as: SERVER, groups: [] };

interface Who {
  readonly as: string;
  readonly groups: readonly string[];
}

/** kubectl on the test bed, as `who` when given; the result rather than a throw. */
function kubectl(args: readonly string[], who?: Who, input?: string) {
  const impersonation = who ? [`--as=${who.as}`, ...who.groups.map((g) => `--as-group=${g}`)] : [];
  const result = spawnSync("kubectl", [...impersonation, ...args], { env, encoding: "utf8", input });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

/** kubectl that must succeed. */
function kubectlOk(args: readonly string[], who?: Who, input?: string): string {
  const result = kubectl(args, who, input);
  if (!result.ok) throw new Error(`kubectl ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** Expects kubectl to have succeeded, showing what it said when it did not. */
const expectOk = (result: ReturnType<typeof kubectl>) => expect(result.ok, result.stderr).toBe(true);

/** The Ready condition the server writes once generation `generation` is provisioned. */
const readyCondition = (generation: number) => ({
  type: "Ready",
  status: "True",
  reason: "Provisioned",
  message: "ready",
  lastTransitionTime: "2026-12-01T00:00:00Z",
  observedGeneration: generation,
});

/** A Tenant manifest. */
const tenant = (name: string, spec: Record<string, unknown>) =>
  stringify({ apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", metadata: { name }, spec });

const apply = (manifest: string, who: Who) => kubectl(["apply", "-f", "-"], who, manifest);
const mergePatch = (name: string, patch: object, who: Who, subresource?: string) =>
  kubectl(
    [
      "patch",
      "tenant",
      name,
      "--type=merge",
      "-p",
      JSON.stringify(patch),
      ...(subresource ? [`--subresource=${subresource}`] : []),
    ],
    who,
  );

const NAMES = [
  "e2e-crd-alice",
  "e2e-crd-bob",
  "e2e-crd-probe",
  "e2e-crd-unknown",
  "e2e-crd-number",
  "e2e.crd.dotted",
  "e2e-crd-quantities",
  "e2e-crd-portal",
  "e2e-crd-ceiling",
];
/** Where the server publishes the ceilings a new tenant is held to. */
const CEILINGS = ["tenantceilings", "new-tenants"];

/** The published ceilings, as the server writes them. */
const publishedCeilings = (ceilings: Record<string, string>) =>
  stringify({
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "TenantCeilings",
    metadata: { name: "new-tenants" },
    spec: { platformRevision: "", ceilings },
  });
/** The PlatformRevision the server's fence is tried on; no server runs here to preview it. */
const REVISION = "e2e-fence-revision";
let stack: Stack | undefined;

beforeAll(async () => {
  for (const file of DEPLOY) kubectlOk(["apply", "-f", file]);
  // A server of an earlier file may have published its ceilings; no server runs here.
  kubectlOk(["delete", ...CEILINGS, "--ignore-not-found"]);
  for (const crd of ["tenants", "tenantceilings"]) {
    kubectlOk(["wait", "--for=condition=Established", `crd/${crd}.kubespaces.io`, "--timeout=60s"]);
  }
  // The platform binds the requesters' role; here to a group of requesters and to the admins.
  const binding = {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    metadata: { name: REQUESTERS },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "kubespaces-tenant-requester" },
    subjects: [REQUESTERS, ADMINS].map((name) => ({ kind: "Group", apiGroup: "rbac.authorization.k8s.io", name })),
  };
  kubectlOk(["apply", "-f", "-"], undefined, stringify(binding));
  // The API server loads a new policy a moment after it is stored: until then anything passes.
  await eventually(
    async () => {
      const refused = apply(tenant("e2e-crd-probe", { owner: "mallory@example.com" }), alice).stderr.includes(
        "spec.owner:",
      );
      if (!refused) kubectl(["delete", "tenant", "e2e-crd-probe", "--ignore-not-found"], admin);
      return refused;
    },
    30_000,
    "the owner policy to take effect",
  );
  const outsideNamespace = stringify({ apiVersion: "v1", kind: "Namespace", metadata: { name: "e2e-fence-probe" } });
  await eventually(
    async () =>
      kubectl(["apply", "--dry-run=server", "-f", "-"], server, outsideNamespace).stderr.includes(
        "writes only tenant namespaces",
      ),
    30_000,
    "the server's fence to take effect",
  );
});

afterAll(async () => {
  await removeStack(stack);
  for (const name of NAMES) {
    // As an admin: the policy holds for the test bed's own admin user too, who is not in the group.
    kubectl(["patch", "tenant", name, "--type=merge", "-p", '{"metadata":{"finalizers":null}}'], admin);
    kubectl(["delete", "tenant", name, "--ignore-not-found", "--wait=false"], admin);
  }
  kubectl(["patch", "platformrevision", REVISION, "--type=merge", "-p", '{"metadata":{"finalizers":null}}']);
  kubectl(["delete", "platformrevision", REVISION, "--ignore-not-found", "--wait=false"]);
  kubectl(["delete", "clusterrolebinding", REQUESTERS, "--ignore-not-found"]);
  kubectl(["delete", ...CEILINGS, "--ignore-not-found"]);
  for (const file of [...DEPLOY].reverse()) kubectl(["delete", "-f", file, "--ignore-not-found"]);
});

describe("the Tenant resource", () => {
  it("refuses an unknown field by strict field validation, and a number where the request takes a quantity", () => {
    const unknown = apply(tenant("e2e-crd-unknown", { owner: alice.as, color: "blue" }), alice);
    expect(unknown.ok).toBe(false);
    expect(unknown.stderr).toMatch(/strict decoding error: unknown field "spec\.color"/);
    const number = apply(tenant("e2e-crd-number", { owner: alice.as, resources: { cpu: 2 } }), alice);
    expect(number.ok).toBe(false);
    expect(number.stderr).toMatch(
      /spec\.resources\.cpu: Invalid value: "integer": spec\.resources\.cpu in body must be of type string/,
    );
  });

  it("refuses at once a name that is no DNS label, a blank owner and a bad quantity, with the other doors' messages", () => {
    const bad = apply(tenant("e2e.crd.dotted", { owner: " ", resources: { cpu: "ä8", memory: "0" } }), alice);
    expect(bad.ok).toBe(false);
    expect(bad.stderr).toContain('metadata.name: Invalid value: "e2e.crd.dotted": must be a DNS-1123 label');
    expect(bad.stderr).toContain('spec.owner: Invalid value: " ": must not be blank: it holds only whitespace');
    expect(bad.stderr).toContain('spec.resources.cpu: Invalid value: "ä8": must be a Kubernetes quantity such as 500m');
    expect(bad.stderr).toContain('spec.resources.memory: Invalid value: "0": must be greater than zero');
    const good = apply(
      tenant("e2e-crd-quantities", { owner: alice.as, resources: { cpu: "2500m", memory: "1.5Gi" } }),
      alice,
    );
    expectOk(good);
  });

  it("refuses a Tenant owned by another user, naming the field and the rule", () => {
    const result = apply(tenant("e2e-crd-bob", { owner: "bob@example.com" }), alice);
    expect(result.ok).toBe(false);
    expect(result.stderr).toContain(
      "spec.owner: must be the requesting user (alice@example.com) unless you are in group kubespaces-admins (got bob@example.com)",
    );
  });

  it("lets an admin create a tenant for someone else, and the owner create their own", () => {
    expectOk(apply(tenant("e2e-crd-bob", { owner: "bob@example.com" }), admin));
    expectOk(apply(tenant("e2e-crd-alice", { owner: alice.as, resources: { cpu: "3" } }), alice));
  });

  it("keeps a user to the tenants they own: no change to another's, no new owner, no approval", () => {
    expect(mergePatch("e2e-crd-bob", { spec: { resources: { cpu: "1" } } }, alice).stderr).toContain(
      "spec.owner: tenant e2e-crd-bob is owned by bob@example.com; only its owner may update it unless you are in group kubespaces-admins",
    );
    expect(kubectl(["delete", "tenant", "e2e-crd-bob"], alice).stderr).toContain("only its owner may delete it");
    expect(mergePatch("e2e-crd-alice", { spec: { owner: "bob@example.com" } }, alice).stderr).toContain(
      "spec.owner: may not be changed (from alice@example.com to bob@example.com) unless you are in group kubespaces-admins",
    );
    const approve = { metadata: { annotations: { "kubespaces.io/approved-generation": "1" } } };
    expect(mergePatch("e2e-crd-alice", approve, alice).stderr).toContain(
      "metadata.annotations[kubespaces.io/approved-generation]: approves a change, which only group kubespaces-admins may",
    );
    expectOk(mergePatch("e2e-crd-alice", approve, admin));
    expectOk(mergePatch("e2e-crd-alice", { spec: { resources: { cpu: "4" } } }, alice));
  });

  it("lets the server add its finalizer and write the status, which kubectl get tenants shows", () => {
    expectOk(mergePatch("e2e-crd-alice", { metadata: { finalizers: ["kubespaces.io/finalizer"] } }, server));
    const status = {
      phase: "Ready",
      conditions: [readyCondition(2)],
      message: "ready",
      apiServerUrl: "https://e2e-crd-alice.api.kubespaces.test",
      kubeconfigSecretRef: { name: "e2e-crd-alice-kubeconfig", namespace: "kubespaces-system", key: "config" },
      observedGeneration: 2,
    };
    expectOk(mergePatch("e2e-crd-alice", { status }, server, "status"));
    const table = kubectlOk(["get", "tenants"], alice);
    expect(table.split("\n")[0]).toMatch(/^NAME\s+OWNER\s+PHASE\s+API\s+EXPIRES\s+AGE$/);
    expect(table).toMatch(
      /\ne2e-crd-alice\s+alice@example\.com\s+Ready\s+https:\/\/e2e-crd-alice\.api\.kubespaces\.test\s+\d+s/,
    );
    expect(table).toMatch(/\ne2e-crd-bob\s+bob@example\.com\s/);
  });

  it("refuses a status write from a requester, and the removal of the server's finalizer by anyone but the server", () => {
    const write = mergePatch("e2e-crd-alice", { status: { phase: "Failed" } }, alice, "status");
    expect(write.ok).toBe(false);
    expect(write.stderr).toMatch(
      /tenants\.kubespaces\.io "e2e-crd-alice" is forbidden: User "alice@example\.com" cannot (get|patch) resource "tenants\/status"/,
    );
    expect(mergePatch("e2e-crd-alice", { metadata: { finalizers: null } }, alice).stderr).toContain(
      "metadata.finalizers: kubespaces.io/finalizer is removed by the kubespaces server",
    );
    expectOk(mergePatch("e2e-crd-alice", { metadata: { finalizers: null } }, server));
    expectOk(kubectl(["delete", "tenant", "e2e-crd-alice"], alice));
  });

  it("holds a Tenant to the ceilings the server published: a create or a change of resources above them refused in the reconciler's words, other updates let through", async () => {
    const name = "e2e-crd-ceiling";
    // As the server publishes them (its RBAC allows it), the server's configuration's: no revision.
    expectOk(kubectl(["create", "-f", "-"], server, publishedCeilings({ cpu: "4", pods: "30" })));
    const above = tenant(name, { owner: alice.as, resources: { cpu: "6", memory: "1Gi" } });
    // The API server reads a new parameter object a moment after it is stored.
    await eventually(async () => !apply(above, alice).ok, 30_000, "the published ceilings to take effect");
    expect(apply(above, alice).stderr).toContain(
      "spec.resources.cpu: 6 is above the platform's ceiling (platform.quota.ceilings.cpu: 4)",
    );
    expect(apply(tenant(name, { owner: alice.as, resources: { pods: 31 } }), alice).stderr).toContain(
      "spec.resources.pods: 31 is above the platform's ceiling (platform.quota.ceilings.pods: 30)",
    );
    expect(kubectl(["get", "tenant", name, "--ignore-not-found", "-o", "name"], admin).stdout).toBe("");
    // An admin is held to them too: the reconciler would refuse the request whoever made it.
    expect(apply(above, admin).ok).toBe(false);

    expectOk(apply(tenant(name, { owner: alice.as, resources: { cpu: "4", memory: "1Gi" } }), alice));
    expect(mergePatch(name, { spec: { resources: { cpu: "5" } } }, alice).stderr).toContain(
      "spec.resources.cpu: 5 is above the platform's ceiling (platform.quota.ceilings.cpu: 4)",
    );
    // Tightened below the tenant's request, the ceilings leave every other update alone (a finalizer's removal too).
    expectOk(kubectl(["replace", "-f", "-"], server, publishedCeilings({ cpu: "2", pods: "30" })));
    await eventually(
      async () => mergePatch(name, { spec: { resources: { cpu: "3" } } }, alice).stderr.includes("cpu: 2)"),
      30_000,
      "the tightened ceilings to take effect",
    );
    expectOk(kubectl(["annotate", "tenant", name, "example.com/team=payments"], alice));
    expectOk(mergePatch(name, { metadata: { finalizers: ["kubespaces.io/finalizer"] } }, server));
    expectOk(mergePatch(name, { metadata: { finalizers: null } }, server));
    // A tenant that runs another revision than the published ceilings' is the server's to judge.
    const runsAnother = {
      phase: "Ready",
      message: "ready",
      conditions: [readyCondition(1)],
      platformRevision: "e2e-older-revision",
    };
    expectOk(mergePatch(name, { status: runsAnother }, server, "status"));
    expectOk(mergePatch(name, { spec: { resources: { cpu: "3" } } }, alice));
  });

  it("fences the server: no rights in other namespaces, and its cluster-wide writes kept to tenants' objects", () => {
    for (const [verb, resource] of [
      ["get", "secrets"],
      ["create", "pods"],
      ["create", "pods/exec"],
    ])
      expect(kubectl(["auth", "can-i", verb, resource, "-n", "kube-system"], server).stdout.trim()).toBe("no");
    const refused = (manifest: object) => {
      const result = kubectl(["apply", "--dry-run=server", "-f", "-"], server, stringify(manifest));
      expect(result.ok, result.stdout).toBe(false);
      return result.stderr;
    };
    const tenantRole = { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "kubespaces-server-tenant" };
    const self = [{ kind: "ServiceAccount", name: "kubespaces-server", namespace: "kubespaces-system" }];
    const rbac = "rbac.authorization.k8s.io/v1";
    expect(
      refused({
        apiVersion: rbac,
        kind: "RoleBinding",
        metadata: { name: "e2e-grab", namespace: "kube-system" },
        roleRef: tenantRole,
        subjects: self,
      }),
    ).toContain("the kubespaces server writes RoleBindings only in tenant namespaces");
    expect(
      refused({
        apiVersion: rbac,
        kind: "ClusterRoleBinding",
        metadata: { name: "e2e-grab" },
        roleRef: tenantRole,
        subjects: self,
      }),
    ).toContain("the kubespaces server writes only the vCluster chart's ClusterRoleBindings");
    expect(refused({ apiVersion: "v1", kind: "Namespace", metadata: { name: "e2e-not-a-tenant" } })).toContain(
      "the kubespaces server writes only tenant namespaces",
    );
    const privileged = { "pod-security.kubernetes.io/enforce": "privileged" };
    expect(
      refused({ apiVersion: "v1", kind: "Namespace", metadata: { name: "kubespaces-tenant-e2e", labels: privileged } }),
    ).toContain("a tenant namespace enforces baseline or restricted");
    // A role of rights the server holds, to hand them to someone the fence does not match.
    const handOn = [{ apiGroups: [""], resources: ["namespaces"], verbs: ["delete"] }];
    expect(
      refused({ apiVersion: rbac, kind: "ClusterRole", metadata: { name: "vc-e2e-grab" }, rules: handOn }),
    ).toContain("the kubespaces server writes only the vCluster chart's ClusterRoles (vc-…), read-only");
  });

  it("fences the server's updates of a PlatformRevision to its finalizer and status: it cannot approve, resume or abort a rollout", () => {
    kubectlOk(["wait", "--for=condition=Established", "crd/platformrevisions.kubespaces.io", "--timeout=60s"]);
    const revision = { apiVersion: "kubespaces.io/v1alpha1", kind: "PlatformRevision", metadata: { name: REVISION } };
    kubectlOk(["apply", "-f", "-"], undefined, stringify({ ...revision, spec: { platform: {} } }));
    const refusal = "the kubespaces server changes only a PlatformRevision's finalizers";
    for (const decision of [
      "kubespaces.io/rollout=approved",
      "kubespaces.io/rollout=aborted",
      "kubespaces.io/resume=now",
    ]) {
      const annotate = kubectl(["annotate", "platformrevision", REVISION, decision], server);
      expect(annotate.ok, annotate.stdout).toBe(false);
      expect(annotate.stderr).toContain(`metadata.annotations: ${refusal}`);
    }
    expect(kubectl(["label", "platformrevision", REVISION, "e2e=grab"], server).stderr).toContain(
      `metadata.labels: ${refusal}`,
    );
    // What the server does write: its finalizer (a JSON patch, as server/kube/finalizerPatch.ts sends it) and the status.
    const finalizer = [{ op: "add", path: "/metadata/finalizers", value: ["kubespaces.io/revision-in-use"] }];
    expectOk(kubectl(["patch", "platformrevision", REVISION, "--type=json", "-p", JSON.stringify(finalizer)], server));
    const read = JSON.parse(kubectlOk(["get", "platformrevision", REVISION, "-o", "json"], server));
    const status = { ...read, status: { phase: "Previewing", message: "e2e" } };
    expectOk(kubectl(["replace", "--subresource=status", "-f", "-"], server, JSON.stringify(status)));
    // The fence matches the server alone: an admin approves.
    expectOk(kubectl(["annotate", "platformrevision", REVISION, "kubespaces.io/rollout=approved"]));
    expectOk(
      kubectl(
        ["patch", "platformrevision", REVISION, "--type=json", "-p", '[{"op":"remove","path":"/metadata/finalizers"}]'],
        server,
      ),
    );
    expectOk(kubectl(["delete", "platformrevision", REVISION]));
  });

  it("maps a prefixed user to the owner the portal wrote, when the host prefixes its identity provider's names", async () => {
    // The host's API server prefixes the identity provider's names with oidc: (--oidc-username-prefix,
    // --oidc-groups-prefix), while the portal and API know a person by the sign-in's email alone.
    const prefixed = ownerAdmission(installOptions({ identityPrefixes: { username: "oidc:", groups: "oidc:" } }));
    const policy = prefixed.map(({ object }) => stringify(object)).join("---\n");
    const aliceOidc = { as: "oidc:alice@example.com", groups: [REQUESTERS] };
    const bobOidc = { as: "oidc:bob@example.com", groups: [REQUESTERS] };
    // RBAC is the platform's binding of the requesters' role, to the requesters' group here.
    const adminOidc = { as: "oidc:carol@example.com", groups: ["oidc:kubespaces-admins", REQUESTERS] };
    try {
      expectOk(kubectl(["apply", "-f", "-"], undefined, policy));
      // Under the prefixed policy an owner is a name without the prefix: bob cannot own "oidc:bob@...".
      await eventually(
        async () =>
          kubectl(
            ["apply", "--dry-run=server", "-f", "-"],
            bobOidc,
            tenant("e2e-crd-probe", { owner: bobOidc.as }),
          ).stderr.includes("spec.owner: must be"),
        30_000,
        "the prefixed owner policy to take effect",
      );
      // Made as the portal makes it: by the server, for the signed-in person's email.
      expectOk(apply(tenant("e2e-crd-portal", { owner: "alice@example.com" }), server));
      expectOk(mergePatch("e2e-crd-portal", { metadata: { labels: { team: "atlas" } } }, aliceOidc));
      const bobs = mergePatch("e2e-crd-portal", { metadata: { labels: { team: "bob" } } }, bobOidc);
      expect(bobs.ok).toBe(false);
      expect(bobs.stderr).toContain("is owned by alice@example.com; only its owner may update it");
      expect(bobs.stderr).toContain("unless you are in group oidc:kubespaces-admins (you are oidc:bob@example.com)");
      // The admins are the prefixed group; the unprefixed one is nobody's here.
      expectOk(mergePatch("e2e-crd-portal", { metadata: { labels: { reviewed: "yes" } } }, adminOidc));
      const unprefixedAdmin = { as: "oidc:dave@example.com", groups: [ADMINS] };
      expect(mergePatch("e2e-crd-portal", { metadata: { labels: { team: "x" } } }, unprefixedAdmin).ok).toBe(false);
      expectOk(kubectl(["delete", "tenant", "e2e-crd-portal", "--dry-run=server"], aliceOidc));
      expect(kubectl(["delete", "tenant", "e2e-crd-portal", "--dry-run=server"], bobOidc).ok).toBe(false);
    } finally {
      kubectl(["delete", "tenant", "e2e-crd-portal", "--ignore-not-found"], server);
      kubectlOk(["apply", "-f", path.join(REPO_ROOT, "deploy", "admission.yaml")]);
    }
  });

  it("lets the server provision and tear down an exposed tenant with its ClusterRole and the tenant's access binding alone", async () => {
    const name = "e2e-crd-server";
    stack = await tenantsStack("tenant-resource", []);
    // The Pulumi Kubernetes provider, its Helm and @kubernetes/client-node all honour a kubeconfig's `as`.
    const kubeconfig = path.join(env.KUBESPACES_TESTBED_DIR, "server-kubeconfig");
    const config = parse(kubectlOk(["config", "view", "--raw", "--minify", "--flatten"]));
    config.users[0].user.as = SERVER;
    writeFileSync(kubeconfig, stringify(config));
    const whoami = spawnSync("kubectl", ["auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"], {
      env: { ...env, KUBECONFIG: kubeconfig },
      encoding: "utf8",
    });
    expect(whoami.stdout).toBe(SERVER);
    stack.workspace.envVars.KUBECONFIG = kubeconfig;
    const exposure = { baseDomain: "kubespaces.test", issuerRef: { name: "kubespaces-testbed-selfsigned" } };
    const namespaceAccess = {
      clusterRole: "kubespaces-server-tenant",
      subject: { kind: "ServiceAccount", name: "kubespaces-server", namespace: "kubespaces-system" },
    };
    await setTenants(stack, [{ name, exposure, namespaceAccess }]);
    expect((await stack.up()).summary.result).toBe("succeeded");
    // Its rights in the tenant namespace come from the binding there, and hold nowhere else.
    expect(kubectl(["auth", "can-i", "get", "secrets", "-n", `kubespaces-tenant-${name}`], server).stdout.trim()).toBe(
      "yes",
    );
    expectReadyStatus((await stack.outputs()).statuses.value[name]);
    await setTenants(stack, []);
    expect((await stack.up()).summary.result).toBe("succeeded");
    await expectNothingLeft(name);
  });
});
