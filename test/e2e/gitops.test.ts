/**
 * The GitOps door end to end with a real Flux (`testbed.sh flux`: its source-controller and
 * kustomize-controller, and a Git server of Debian's lighttpd with Git's own http-backend). Tenant
 * files are committed and pushed over HTTP as people push them; Flux applies them as the
 * ServiceAccount the docs' example names (examples/flux/tenants.yaml, applied as written, its Git
 * URL the test bed's), and `kubespaces server` reconciles them. The admission policy sees Flux's
 * ServiceAccount as the requester and refuses a request over the ceiling the server published, a file
 * removed is a tenant torn down, and a pull request's preview-only Tenant shows its plan. Waits are
 * on what Flux and the server report, never on time; each push is followed by the request to
 * reconcile now that `flux reconcile source git` makes. The tests run in order.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { installOptions } from "../../provider/tenantResource/installOptions";
import { ownerAdmission } from "../../provider/tenantResource/ownerAdmission";
import {
  applyManifests,
  FLUX_NAMESPACE,
  fluxExample,
  fluxReport,
  manifestFile,
  reconcileNow,
  testbedFlux,
  type FluxReport,
  type Manifest,
} from "./support/flux";
import { GitWorkingCopy, type GitAuthor } from "./support/gitRepository";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import { kubectl } from "./support/hostKubectl";
import { newCliUser } from "./support/kubespacesCli";
import { startServedKubespaces, stopServedKubespaces, type ServedKubespaces } from "./support/servedKubespaces";
import { expectNothingLeft, tenantNamespace } from "./support/tenantAssertions";

const ALICE: GitAuthor = { name: "Alice", email: "alice@example.com" };
const BOB: GitAuthor = { name: "Bob", email: "bob@example.com" };
/** The platform team's reviewer, who merges the teams' pull requests. */
const PLATFORM: GitAuthor = { name: "Platform", email: "platform@example.com" };
/**
 * A platform admin who is also the cluster's: the admission policy lets the admin group through,
 * and RBAC the cluster's superusers (the test bed's admin is held to the policy like anyone).
 */
const AS_ADMIN = { user: PLATFORM.email, groups: ["kubespaces-admins", "system:masters"] };

/** The repository of this run: a fresh one each time, so that a kept test bed starts from nothing. */
const REPOSITORY = `e2e-gitops-${randomBytes(3).toString("hex")}`;
/** The example's ServiceAccount, which Flux applies the Tenant files as. */
const APPLIER = `system:serviceaccount:${FLUX_NAMESPACE}:kubespaces-tenants`;
/** The platform's ceiling on CPU, which team-c asks above. */
const CPU_CEILING = "8";
/** Waits for a tenant's provisioning or teardown: a vCluster's start on a loaded 2-core machine. */
const TENANT_MS = 600_000;
/** Waits for Flux alone: a fetch and an apply. */
const FLUX_MS = 120_000;

/** Tenant `name` of `owner` asking for `cpu`, preview-only when `previewOnly`. */
function tenantManifest(name: string, owner: GitAuthor, cpu: string, previewOnly = false): object {
  const annotations = previewOnly ? { annotations: { "kubespaces.io/preview-only": "true" } } : {};
  return {
    apiVersion: "kubespaces.io/v1alpha1",
    kind: "Tenant",
    metadata: { name, ...annotations },
    spec: { owner: owner.email, resources: { cpu, memory: "4Gi" } },
  };
}

/** The file `tenants/<name>.yaml` holding Tenant `name` (tenantManifest's arguments). */
const tenantFile = (name: string, owner: GitAuthor, cpu: string, previewOnly = false) => ({
  [`tenants/${name}.yaml`]: stringify(tenantManifest(name, owner, cpu, previewOnly)),
});

/** The owner admission policy as a platform installs it with `adminUsers` (the TenantCrd component's option). */
async function installOwnerPolicy(adminUsers: string[]): Promise<void> {
  const objects = ownerAdmission(installOptions({ adminUsers })).map(({ object }) => object);
  const flags = ["--server-side", "--force-conflicts", "--field-manager=e2e-platform"];
  await kubectl(undefined, "apply", ...flags, "-f", manifestFile(objects));
}

/** Whether the API server lets Flux's ServiceAccount make a Tenant for someone else now (a server-side dry run). */
async function applierMayActForOthers(): Promise<boolean> {
  const probe = manifestFile([tenantManifest("e2e-gitops-probe", BOB, "1")]);
  return kubectl({ user: APPLIER }, "apply", "--dry-run=server", "-f", probe).then(
    () => true,
    () => false,
  );
}

/** Tenant `name` as the API server holds it; undefined when there is none. */
async function tenant(name: string): Promise<Manifest | undefined> {
  const { stdout } = await kubectl(undefined, "get", "tenant", name, "--show-managed-fields", "-o", "json").catch(
    () => ({ stdout: "" }),
  );
  return stdout ? (JSON.parse(stdout) as Manifest) : undefined;
}

/** Waits until Kustomization `name` reports what `holds` accepts; returns that report. */
async function kustomizationReports(
  name: string,
  holds: (report: FluxReport) => boolean,
  timeoutMs: number,
  what: string,
): Promise<FluxReport> {
  let report: FluxReport = {};
  try {
    await eventually(async () => holds((report = await fluxReport("kustomization", name))), timeoutMs, what);
  } catch (error) {
    throw new Error(`Kustomization ${name} did not report ${what}; it last reported ${JSON.stringify(report)}`, {
      cause: error,
    });
  }
  return report;
}

/** Flux's name for a commit of branch `branch`, as its status gives it. */
const revision = (branch: string, commit: string) => `${branch}@sha1:${commit}`;

/** Whether a Kustomization's report says it applied `commit` of `branch` and found every Tenant it applied healthy. */
const readyAt =
  (commit: string, branch = "main") =>
  (report: FluxReport) =>
    report.revision === revision(branch, commit) && report.ready?.status === "True";

/** The limits.cpu of tenant `name`'s host quota. */
async function hostCpuLimit(name: string): Promise<string | undefined> {
  const quota = await hostClients().core.readNamespacedResourceQuota({
    name: "kubespaces-quota",
    namespace: tenantNamespace(name),
  });
  return quota.spec?.hard?.["limits.cpu"];
}

/** Pushes from `work` and asks Flux to fetch the repository now; returns the commit. */
async function push(
  work: GitWorkingCopy,
  author: GitAuthor,
  message: string,
  changes: Record<string, string | undefined>,
) {
  const commit = work.commitAndPush(author, message, changes);
  await reconcileNow("gitrepository", "platform");
  return commit;
}

let served: ServedKubespaces | undefined;
let work: GitWorkingCopy;
let gitUrl: string;
/** The platform's objects this run made, deleted in reverse after it (each Kustomization before its ServiceAccount: it prunes as it). */
const made: Manifest[] = [];

beforeAll(async () => {
  gitUrl = `${testbedFlux(REPOSITORY)}/${REPOSITORY}.git`;
  work = new GitWorkingCopy(gitUrl);
  served = await startServedKubespaces(newCliUser(), "gitops", {
    platform: { quota: { ceilings: { cpu: CPU_CEILING } } },
  });
});

afterAll(async () => {
  try {
    // Deleting a Kustomization prunes what it applied; the server tears those tenants down.
    for (const { kind, metadata } of [...made].reverse()) {
      const namespace = metadata.namespace ? ["-n", metadata.namespace] : [];
      await kubectl(undefined, "delete", ...namespace, kind, metadata.name, "--ignore-not-found");
    }
    // The rest is torn down before the server stops: a server stopped mid-teardown leaves a namespace.
    await kubectl(AS_ADMIN, "delete", "tenants", "--all", "--wait=true", "--timeout=600s");
  } finally {
    await stopServedKubespaces(served);
    // Back to the policy the server installs, which names no admin user.
    await installOwnerPolicy([]);
    work?.remove();
  }
});

describe("GitOps with Flux", () => {
  let commit: string;

  it("applies the committed Tenants as its own ServiceAccount: refused at admission until the platform names it an admin user, then applied", async () => {
    // The first commit comes before the GitRepository: Flux fetches it when it is made.
    commit = work.commitAndPush(PLATFORM, "team-a and team-b", {
      ...tenantFile("team-a", ALICE, "3"),
      ...tenantFile("team-b", BOB, "3"),
    });
    const example = fluxExample(gitUrl);
    made.push(...example);
    await applyManifests(example);

    // The server installed the policy without admin users: the requester Flux applies as is refused.
    const refused = await kustomizationReports(
      "tenants",
      (report) => report.ready?.status === "False" && report.ready.message.includes("spec.owner"),
      FLUX_MS,
      "the admission policy's refusal",
    );
    expect(refused.ready?.message).toContain(`spec.owner: must be the requesting user (${APPLIER})`);
    expect(await tenant("team-a")).toBeUndefined();

    await installOwnerPolicy([APPLIER]);
    // The API server loads a new policy a moment after it is stored.
    await eventually(applierMayActForOthers, 30_000, "the policy naming Flux's ServiceAccount to take effect");
    await reconcileNow("kustomization", "tenants");
    for (const name of ["team-a", "team-b"]) {
      await eventually(async () => (await tenant(name)) !== undefined, FLUX_MS, `Flux to apply ${name}`);
      const applied = (await tenant(name))!;
      expect(applied.metadata.labels).toMatchObject({
        "kustomize.toolkit.fluxcd.io/name": "tenants",
        "kustomize.toolkit.fluxcd.io/namespace": FLUX_NAMESPACE,
      });
      expect(applied.metadata.managedFields.map((field: { manager: string }) => field.manager)).toContain(
        "kustomize-controller",
      );
    }
  });

  it("gets both Ready from kubespaces server, and Flux's Kustomization is Ready once they are", async () => {
    await kubectl(
      undefined,
      "wait",
      "--for=condition=Ready",
      "tenant/team-a",
      "tenant/team-b",
      `--timeout=${TENANT_MS / 1000}s`,
    );
    await kustomizationReports("tenants", readyAt(commit), TENANT_MS, "Ready at the first commit");
    expect(await hostCpuLimit("team-a")).toBe("3");
    expect((await tenant("team-b"))!.spec.owner).toBe(BOB.email);
  });

  it("reconciles an owner's edit in Git: the tenant's quota follows", async () => {
    commit = await push(work, ALICE, "team-a: 4 CPUs", tenantFile("team-a", ALICE, "4"));
    // Ready at this commit means team-a was found Ready at its new generation (Flux checks observedGeneration).
    await kustomizationReports("tenants", readyAt(commit), TENANT_MS, "Ready at the edit");
    expect((await tenant("team-a"))!.status).toMatchObject({ phase: "Ready", observedGeneration: 2 });
    expect(await hostCpuLimit("team-a")).toBe("4");
  });

  it("reports in the Kustomization's Ready condition a request above the platform's ceiling, refused at admission; nothing is made for it", async () => {
    commit = await push(work, ALICE, "team-c: 64 CPUs", tenantFile("team-c", ALICE, "64"));
    // The server published its ceilings for admission: the API server refuses Flux's apply, in the server's words.
    const refused = await kustomizationReports(
      "tenants",
      (report) => report.ready?.status === "False" && report.ready.message.includes("team-c"),
      FLUX_MS,
      "the ceiling policy's refusal",
    );
    expect(refused.ready?.message).toContain(
      `spec.resources.cpu: 64 is above the platform's ceiling (platform.quota.ceilings.cpu: ${CPU_CEILING})`,
    );
    expect(await tenant("team-c")).toBeUndefined();
    expect(await readOrUndefined(() => hostClients().core.readNamespace({ name: tenantNamespace("team-c") }))).toBe(
      undefined,
    );
    // The other tenants stay as they were.
    expect((await tenant("team-a"))!.status!.phase).toBe("Ready");

    // The owner takes the file back: Flux is Ready again.
    commit = await push(work, ALICE, "team-c: withdrawn", { "tenants/team-c.yaml": undefined });
    await kustomizationReports("tenants", readyAt(commit), FLUX_MS, "Ready once team-c is withdrawn");
  });

  it("tears a tenant down with nothing left when its file is removed from Git", async () => {
    commit = await push(work, PLATFORM, "team-b: removed", { "tenants/team-b.yaml": undefined });
    await kubectl(undefined, "wait", "--for=delete", "tenant/team-b", `--timeout=${TENANT_MS / 1000}s`);
    await expectNothingLeft("team-b");
    await kustomizationReports("tenants", readyAt(commit), FLUX_MS, "Ready without team-b");
    expect((await tenant("team-a"))!.status!.phase).toBe("Ready");
  });

  it("shows a pull request's preview-only Tenant's plan in its status, from a GitRepository and Kustomization of the pull request's branch", async () => {
    const branch = "add-team-d";
    work.checkout(branch);
    const prCommit = work.commitAndPush(ALICE, "team-d, preview only", tenantFile("team-d", ALICE, "3", true));
    work.checkout("main");
    // The pull request's source holds only the files it adds or changes: the others are main's Kustomization's.
    const files = work.changedFiles("main", branch);
    expect(files).toEqual(["tenants/team-d.yaml"]);
    const [, , source, kustomization] = fluxExample(gitUrl);
    const name = `tenants-pr-${branch}`;
    const pullRequest: Manifest[] = [
      {
        ...source,
        metadata: { name, namespace: FLUX_NAMESPACE },
        spec: {
          ...source.spec,
          ref: { branch },
          ignore: ["/*", "!/tenants/", "/tenants/*", ...files.map((f) => `!/${f}`)].join("\n"),
        },
      },
      {
        ...kustomization,
        metadata: { name, namespace: FLUX_NAMESPACE },
        spec: { ...kustomization.spec, sourceRef: { kind: "GitRepository", name } },
      },
    ];
    made.push(...pullRequest);
    await applyManifests(pullRequest);

    await kustomizationReports(name, readyAt(prCommit, branch), FLUX_MS, "Ready at the pull request's commit");
    const status = (await tenant("team-d"))!.status;
    expect(status.phase).toBe("Previewed");
    expect(status.plan).toMatchObject({ generation: 1, updates: 0, replaces: 0, deletes: 0 });
    expect(status.plan.creates).toBeGreaterThan(5);
    expect(status.plan.steps.map((step: { type: string }) => step.type)).toEqual(
      expect.arrayContaining(["kubernetes:core/v1:Namespace", "kubernetes:helm.sh/v3:Release"]),
    );
    expect(
      await readOrUndefined(() => hostClients().core.readNamespace({ name: tenantNamespace("team-d") })),
    ).toBeUndefined();
    // main's Tenants stay main's Kustomization's.
    expect((await tenant("team-a"))!.metadata.labels["kustomize.toolkit.fluxcd.io/name"]).toBe("tenants");

    // The pull request closes: its Kustomization goes, and prunes its preview.
    await kubectl(undefined, "delete", "-n", FLUX_NAMESPACE, "kustomization", name, "--wait=true", "--timeout=120s");
    await kubectl(undefined, "wait", "--for=delete", "tenant/team-d", "--timeout=120s");
    expect((await tenant("team-a"))!.status!.phase).toBe("Ready");
  });
});
