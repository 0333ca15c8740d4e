/**
 * The reconciler of Tenant resources, over the real tenants service (requests as Tenant resources,
 * runs in memory) with stand-ins for the API server (support/fakeTenantResources.ts), the stacks
 * and the host (support/fakeTenantStacks.ts).
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { MemoryRunJournals } from "../../provider/server/memoryRunJournals";
import { ResourceRequestStore } from "../../provider/server/resourceRequestStore";
import { gatePlanOf, TenantReconciler, type ReconcilerConfig } from "../../provider/server/reconcile/tenantReconciler";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  PREVIEW_ONLY_ANNOTATION,
  TENANT_FINALIZER,
} from "../../provider/contracts/tenantResourceNames";
import { specSha256 } from "../../provider/server/reconcile/tenantApproval";
import type { RequestStore } from "../../provider/tenants/ports";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { FakeTenantResources } from "./support/fakeTenantResources";
import type { TenantPlatformInput } from "../../provider/model/tenantPlatformSchema";
import type { FleetPort } from "../../provider/server/revisions/replicaFleet";
import type { RevisionTenant } from "../../provider/tenantResource/platformRevisionStatus";
import { FakeHost, FakeTenantStacks, kubeconfigOf } from "./support/fakeTenantStacks";

const atlas = { owner: "alice@example.com", resources: { cpu: "4", memory: "8Gi" } } as unknown as TenantRequestInput;
const serverActor = { owner: "system:kubespaces-server:test", groups: ["kubespaces-admins"], isAdmin: true };

let resources: FakeTenantResources;
let stacks: FakeTenantStacks;
let reconciler: TenantReconciler;

/** The approval annotations an admin sets for `generation` of `spec`. */
const approvalOf = (generation: number, spec: TenantRequestInput) => ({
  [APPROVED_GENERATION_ANNOTATION]: String(generation),
  [APPROVED_SPEC_SHA256_ANNOTATION]: specSha256(spec),
});

/** `store`, with `patch` applied just before its first read. */
function patchedBeforeFirstRead(store: RequestStore, patch: () => void): RequestStore {
  let patched = false;
  return {
    get: async (name) => {
      if (!patched) {
        patched = true;
        patch();
      }
      return store.get(name);
    },
    list: () => store.list(),
    add: (name, spec) => store.add(name, spec),
    remove: (name) => store.remove(name),
  };
}

const reconcilerWith = (
  requireApproval: boolean,
  requests = (store: RequestStore): RequestStore => store,
  reports: Pick<ReconcilerConfig, "onResync" | "onNote" | "fleet" | "events"> = {},
) =>
  new TenantReconciler(
    new TenantsService(
      {
        requests: requests(new ResourceRequestStore(resources)),
        runs: new MemoryRunJournals(),
        stacks,
        host: new FakeHost(),
      },
      { policy: {} },
    ),
    resources,
    { actor: serverActor, requireApproval, ...reports },
    () => new Date("2026-12-01T00:00:00Z"),
  );

beforeEach(() => {
  resources = new FakeTenantResources();
  stacks = new FakeTenantStacks();
  reconciler = reconcilerWith(false);
});

const phases = (name: string) =>
  resources.statusesOf(name).reduce<string[]>((seen, s) => (seen.at(-1) === s.phase ? seen : [...seen, s.phase]), []);

describe("a new Tenant", () => {
  it("gets the finalizer, goes Pending, Provisioning, Ready, with its endpoints and kubeconfig Secret", async () => {
    resources.apply("team-atlas", atlas);
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });

    const tenant = resources.peek("team-atlas")!;
    expect(tenant.metadata.finalizers).toEqual([TENANT_FINALIZER]);
    expect(phases("team-atlas")).toEqual(["Pending", "Provisioning", "Ready"]);
    expect(tenant.status).toMatchObject({
      phase: "Ready",
      observedGeneration: 1,
      namespace: "kubespaces-tenant-team-atlas",
      apiServerUrl: "https://team-atlas.kubespaces-tenant-team-atlas.svc:443",
      kubeconfigSecretRef: { name: "team-atlas-kubeconfig", namespace: "kubespaces-tenant-team-atlas", key: "config" },
      conditions: [{ type: "Ready", status: "True", reason: "Provisioned", observedGeneration: 1 }],
    });
    expect(resources.secrets.get("kubespaces-tenant-team-atlas/team-atlas-kubeconfig")).toEqual({
      labels: { "kubespaces.io/tenant": "team-atlas", "app.kubernetes.io/managed-by": "kubespaces-server" },
      data: { config: kubeconfigOf("team-atlas") },
    });
    // The request the stack got is the resource's spec, held to the server's policy.
    expect(stacks.callsOf("up", "team-atlas")[0].program?.request).toEqual(atlas);
    // The Secret's kubeconfig came with the update: the stack's outputs were not read again.
    expect(stacks.callsOf("kubeconfig")).toEqual([]);
  });

  it("that is Ready at its generation is left alone; a resync previews it after a refresh, and runs no update when nothing drifted", async () => {
    const resyncs: string[] = [];
    reconciler = reconcilerWith(false, undefined, { onResync: (outcome) => resyncs.push(outcome) });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(stacks.callsOf("preview")).toEqual([]);

    const writesBefore = resources.statusesOf("team-atlas").length;
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(stacks.callsOf("preview").map((c) => c.run?.refresh)).toEqual([true]);
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(resources.statusesOf("team-atlas").length).toBe(writesBefore);
    expect(resyncs).toEqual(["clean"]);

    // A preview that fails tells nothing: the update runs, and finds nothing to change.
    stacks.failNextPreview("team-atlas");
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(resyncs).toEqual(["clean", "unknown"]);
    expect(stacks.callsOf("up")).toHaveLength(2);

    // Something was removed by hand: the refreshed preview plans it, and the update puts it back.
    stacks.drift("team-atlas");
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(resyncs).toEqual(["clean", "unknown", "drifted"]);
    const ups = stacks.callsOf("up");
    expect(ups).toHaveLength(3);
    expect(ups[2].run?.refresh).toBe(true);
    // It stays Ready throughout: each resync's update writes its end only.
    expect(
      resources
        .statusesOf("team-atlas")
        .slice(writesBefore)
        .map((s) => s.phase),
    ).toEqual(["Ready", "Ready"]);
  });

  it("keeps the kubeconfig Secret as it is when a run hands back the same kubeconfig; a new one is written, dated and told", async () => {
    const events: string[] = [];
    reconciler = reconcilerWith(false, undefined, {
      events: { record: async (tenant, reason) => void events.push(`${tenant.metadata.name} ${reason}`) },
    });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    const ref = resources.peek("team-atlas")!.status!.kubeconfigSecretRef!;
    const first = resources.secretText(ref);
    stacks.drift("team-atlas");
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(resources.secretText(ref)).toBe(first);
    expect(resources.peek("team-atlas")!.status!.kubeconfigChangedAt).toBeUndefined();
    expect(events).not.toContain("team-atlas KubeconfigChanged");

    // A new certificate (or endpoint): the Secret holds the new one, and the status says since when.
    stacks.setKubeconfig("team-atlas", "apiVersion: v1\nkind: Config\n# a new certificate\n");
    stacks.drift("team-atlas");
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(resources.secretText(ref)).toContain("# a new certificate");
    expect(resources.peek("team-atlas")!.status!.kubeconfigChangedAt).toBe("2026-12-01T00:00:00.000Z");
    expect(events).toContain("team-atlas KubeconfigChanged");
  });

  it("whose spec changed is brought up again at the new generation", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, resources: { cpu: "6", memory: "8Gi" } } as TenantRequestInput);
    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("up").map((c) => (c.program?.request as { resources: unknown }).resources)).toEqual([
      { cpu: "4", memory: "8Gi" },
      { cpu: "6", memory: "8Gi" },
    ]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", observedGeneration: 2 });
  });
});

describe("a request the policy refuses", () => {
  it("is marked Failed, InvalidRequest, naming the field and the rule, and nothing is run", async () => {
    resources.apply("team-atlas", { ...atlas, resources: { cpu: "lots" } } as unknown as TenantRequestInput);
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    const status = resources.peek("team-atlas")!.status!;
    expect(status).toMatchObject({
      phase: "Failed",
      observedGeneration: 1,
      conditions: [{ type: "Ready", status: "False", reason: "InvalidRequest" }],
    });
    expect(status.message).toMatch(/resources\.cpu: must be a Kubernetes quantity/);
    expect(stacks.calls.filter((c) => c.op === "up" || c.op === "preview")).toEqual([]);
  });

  it("asks for nothing the platform decides: a spec naming the platform's fields is refused", async () => {
    resources.apply("team-atlas", {
      ...atlas,
      platform: { allowUnsafeOverrides: true },
    } as unknown as TenantRequestInput);
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Failed",
      conditions: [{ reason: "InvalidRequest" }],
    });
    expect(resources.peek("team-atlas")!.status!.message).toMatch(/platform/);
    expect(stacks.callsOf("up")).toEqual([]);
  });
});

describe("a new Tenant applied asleep", () => {
  it("is marked Failed, InvalidRequest, naming sleep, at once: it has no kubeconfig until it first starts", async () => {
    resources.apply("team-atlas", { ...atlas, sleep: true });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Failed",
      conditions: [{ reason: "InvalidRequest" }],
    });
    expect(resources.peek("team-atlas")!.status!.message).toContain("cannot be made asleep: a new tenant starts awake");
    expect(stacks.callsOf("up")).toEqual([]);
  });
});

describe("a Tenant applied above its owner's caps", () => {
  const capped = (caps: ReconcilerConfig["caps"]) =>
    new TenantReconciler(
      new TenantsService(
        { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
        { policy: {} },
      ),
      resources,
      { actor: serverActor, requireApproval: false, caps },
      () => new Date("2026-12-01T00:00:00Z"),
    );

  it("is marked Failed, InvalidRequest, naming the cap and the owner's tenants, and nothing is run for it", async () => {
    reconciler = capped({ tenants: 1, awake: 1 });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-borealis", atlas);
    expect(await reconciler.reconcile("team-borealis")).toEqual({ retry: false });
    expect(resources.peek("team-borealis")!.status).toMatchObject({
      phase: "Failed",
      conditions: [{ type: "Ready", status: "False", reason: "InvalidRequest" }],
    });
    expect(resources.peek("team-borealis")!.status!.message).toContain(
      "caps.perOwner.tenants: alice@example.com may own 1 tenant(s) and owns 1 (team-atlas)",
    );
    expect(stacks.callsOf("up").map((c) => c.name)).toEqual(["team-atlas"]);
  });

  it("keeps a running tenant running when a cap is lowered: its resync is not refused, its sleep passes", async () => {
    resources.apply("team-atlas", atlas);
    resources.apply("team-borealis", atlas);
    await reconciler.reconcile("team-atlas");
    await reconciler.reconcile("team-borealis");
    reconciler = capped({ tenants: 1, awake: 1 });
    expect(await reconciler.reconcile("team-atlas", { resync: true })).toEqual({ retry: false });
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready" });
    resources.apply("team-borealis", { ...atlas, sleep: true });
    await reconciler.reconcile("team-borealis");
    expect(resources.peek("team-borealis")!.status).toMatchObject({ phase: "Sleeping", observedGeneration: 2 });
  });
});

describe("a failed provisioning", () => {
  it("is marked Failed with the engine's reason and retried; the retry brings it to Ready", async () => {
    resources.apply("team-atlas", atlas);
    stacks.failNextUp("team-atlas", { reason: "QuotaFailed", detail: "exceeded quota: team-atlas-quota" });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: true });
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Failed",
      conditions: [{ status: "False", reason: "QuotaFailed" }],
    });
    expect(resources.peek("team-atlas")!.status!.message).toMatch(/exceeded quota.*tried again later/);

    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    expect(resources.peek("team-atlas")!.status?.phase).toBe("Ready");
  });

  it("does not overwrite a Secret the server did not make: the tenant is retried, the Secret kept", async () => {
    resources.secrets.set("kubespaces-tenant-team-atlas/team-atlas-kubeconfig", {
      labels: { owner: "someone-else" },
      data: { config: "theirs" },
    });
    resources.apply("team-atlas", atlas);
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: true });
    expect(resources.secrets.get("kubespaces-tenant-team-atlas/team-atlas-kubeconfig")?.data).toEqual({
      config: "theirs",
    });
    expect(resources.peek("team-atlas")!.status!.message).toMatch(/was not made by kubespaces server/);
  });
});

describe("a deleted Tenant", () => {
  it("goes Deleting, its stack is torn down, and only then does the finalizer go and the Tenant with it", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    await resources.delete("team-atlas");
    expect(resources.peek("team-atlas")?.metadata.deletionTimestamp).toBeDefined();

    const gate = stacks.blockNext("team-atlas");
    const reconciling = reconciler.reconcile("team-atlas");
    await gate.reached;
    expect(resources.peek("team-atlas")?.status?.phase).toBe("Deleting");
    expect(resources.peek("team-atlas")?.metadata.finalizers).toEqual([TENANT_FINALIZER]);
    gate.release();

    expect(await reconciling).toEqual({ retry: false });
    expect(stacks.has("team-atlas")).toBe(false);
    expect(resources.peek("team-atlas")).toBeUndefined();
  });

  it("that was never provisioned loses its finalizer with nothing torn down", async () => {
    resources.apply("team-atlas", { ...atlas, resources: { cpu: "lots" } } as unknown as TenantRequestInput);
    await reconciler.reconcile("team-atlas");
    await resources.delete("team-atlas");
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")).toBeUndefined();
    expect(stacks.callsOf("destroy")).toEqual([]);
  });

  it("whose teardown fails keeps its finalizer and is retried", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    await resources.delete("team-atlas");
    const gate = stacks.blockNext("team-atlas");
    const stop = new AbortController();
    const reconciling = reconciler.reconcile("team-atlas", { signal: stop.signal });
    await gate.reached;
    stop.abort();
    expect(await reconciling).toEqual({ retry: true });
    expect(resources.peek("team-atlas")?.metadata.finalizers).toEqual([TENANT_FINALIZER]);
    expect(resources.peek("team-atlas")?.status).toMatchObject({ phase: "Deleting" });
  });
});

describe("with the approval gate", () => {
  beforeEach(() => {
    reconciler = reconcilerWith(true);
  });

  it("holds a new Tenant AwaitingApproval with its plan, and provisions it once an admin approves its generation", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    const held = resources.peek("team-atlas")!.status!;
    expect(held).toMatchObject({
      phase: "AwaitingApproval",
      plan: { generation: 1, creates: 4, updates: 0, replaces: 0, deletes: 0 },
      conditions: [{ status: "Unknown", reason: "AwaitingApproval" }],
    });
    expect(held.message).toContain(`${APPROVED_GENERATION_ANNOTATION}=1`);
    expect(stacks.callsOf("up")).toEqual([]);

    // Reconciled again unapproved (a resync, a restart): the plan is not made again.
    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("preview")).toHaveLength(1);

    expect(held.plan?.specSha256).toBe(specSha256(atlas));
    expect(held.message).toContain(`${APPROVED_SPEC_SHA256_ANNOTATION}=${specSha256(atlas)}`);
    resources.apply("team-atlas", atlas, approvalOf(1, atlas));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
  });

  it("holds a spec whose digest is not the approved one, and a generation approved without a digest (the old form)", async () => {
    const otherSpec = { ...atlas, resources: { cpu: "6", memory: "8Gi" } } as TenantRequestInput;
    resources.apply("team-atlas", atlas, {
      [APPROVED_GENERATION_ANNOTATION]: "1",
      [APPROVED_SPEC_SHA256_ANNOTATION]: specSha256(otherSpec),
    });
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "AwaitingApproval", plan: { generation: 1 } });

    resources.apply("team-borealis", { ...atlas, owner: "bob@example.com" } as TenantRequestInput, {
      [APPROVED_GENERATION_ANNOTATION]: "1",
    });
    await reconciler.reconcile("team-borealis");
    expect(resources.peek("team-borealis")!.status).toMatchObject({ phase: "AwaitingApproval" });
    expect(stacks.callsOf("up")).toEqual([]);
  });

  it("provisions only the spec it checked: an owner's patch that lands right after the approval is held, not brought up", async () => {
    const patched = { ...atlas, resources: { cpu: "16", memory: "64Gi" } } as TenantRequestInput;
    // The owner's patch lands between the reconciler's read of the Tenant and the service's.
    reconciler = reconcilerWith(true, (store) =>
      patchedBeforeFirstRead(store, () => resources.apply("team-atlas", patched)),
    );
    resources.apply("team-atlas", atlas, approvalOf(1, atlas));
    await reconciler.reconcile("team-atlas");

    expect(stacks.callsOf("up").map((c) => c.program?.request)).not.toContainEqual(patched);
    const held = resources.peek("team-atlas")!.status!;
    expect(held).toMatchObject({
      phase: "AwaitingApproval",
      plan: { generation: 2, specSha256: specSha256(patched) },
    });
    expect(held.message).toContain(`${APPROVED_SPEC_SHA256_ANNOTATION}=${specSha256(patched)}`);
    expect(stacks.callsOf("preview").at(-1)?.program?.request).toEqual(patched);
  });

  it("holds a change to an approved Tenant until its new generation is approved", async () => {
    resources.apply("team-atlas", atlas, approvalOf(1, atlas));
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, resources: { cpu: "6", memory: "8Gi" } } as TenantRequestInput);
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "AwaitingApproval",
      plan: { generation: 2 },
      // Where the tenant is stays shown while the change waits.
      namespace: "kubespaces-tenant-team-atlas",
    });
    expect(stacks.callsOf("up")).toHaveLength(1);
  });
});

describe("specSha256", () => {
  it("is the SHA-256 of the spec as compact JSON with its keys sorted at every level (what `jq -cjS .spec` prints)", () => {
    const spec = { resources: { memory: "8Gi", cpu: "4" }, owner: "alice@example.com" } as TenantRequestInput;
    expect(specSha256(spec)).toBe("43ae2d2a7c86d80a3d3228086659c080d212654ad7274cd0ded54e18f639ca1b");
    expect(specSha256({ ...spec, resources: { cpu: "4", memory: "8Gi" } } as TenantRequestInput)).toBe(
      specSha256(spec),
    );
    expect(specSha256({ ...spec, resources: { cpu: "5", memory: "8Gi" } } as TenantRequestInput)).not.toBe(
      specSha256(spec),
    );
  });
});

describe("the service's notes", () => {
  it("reach the server's log with the tenant they are of", async () => {
    const notes: string[] = [];
    reconciler = reconcilerWith(false, undefined, { onNote: (tenant, line) => notes.push(`${tenant}: ${line}`) });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    expect(notes).toContainEqual(
      expect.stringMatching(/^team-atlas: request of team-atlas stored \(.*\); provisioning on /),
    );
    expect(notes.every((note) => note.startsWith("team-atlas: "))).toBe(true);
  });
});

describe("a preview-only Tenant", () => {
  const previewOnly = (value: string) => ({ [PREVIEW_ONLY_ANNOTATION]: value });

  it("is previewed, its plan in the status, and provisioned only once the annotation goes", async () => {
    resources.apply("team-atlas", atlas, previewOnly("true"));
    await reconciler.reconcile("team-atlas");
    const held = resources.peek("team-atlas")!.status!;
    expect(held).toMatchObject({
      phase: "Previewed",
      plan: { generation: 1, specSha256: specSha256(atlas), creates: 4, updates: 0, replaces: 0, deletes: 0 },
      conditions: [{ status: "Unknown", reason: "Previewed" }],
    });
    expect(held.message).toBe(
      `generation 1 is previewed only (4 to create, 0 to update, 0 to replace, 0 to delete); nothing is provisioned until the annotation ${PREVIEW_ONLY_ANNOTATION} goes`,
    );
    expect(stacks.callsOf("up")).toEqual([]);
    // Reconciled again with nothing changed (a resync, a restart): the plan is not made again.
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(stacks.callsOf("preview")).toHaveLength(1);
    expect(stacks.callsOf("up")).toEqual([]);

    resources.apply("team-atlas", atlas, previewOnly("false"));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
    expect(resources.peek("team-atlas")!.status!.plan).toBeUndefined();
  });

  it("is previewed before the approval gate, which holds it once the annotation goes", async () => {
    reconciler = reconcilerWith(true);
    resources.apply("team-atlas", atlas, previewOnly("true"));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status!.phase).toBe("Previewed");
    resources.apply("team-atlas", atlas, previewOnly("false"));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "AwaitingApproval", plan: { generation: 1 } });
    expect(stacks.callsOf("up")).toEqual([]);
  });

  it("keeps a Ready tenant's running generation when its changed spec is previewed only", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    const grown = { ...atlas, resources: { cpu: "6", memory: "8Gi" } } as TenantRequestInput;
    resources.apply("team-atlas", grown, previewOnly("true"));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Previewed",
      observedGeneration: 1,
      plan: { generation: 2, specSha256: specSha256(grown) },
    });
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(stacks.callsOf("preview").at(-1)?.program?.request).toEqual(grown);
  });
});

describe("gatePlanOf", () => {
  it("counts each kind of change and leaves out what stays the same", () => {
    const step = (op: string) => ({ op, type: "t", name: op, diffs: [] });
    const plan = gatePlanOf(
      3,
      "ab".repeat(32),
      ["create", "update", "same", "replace", "delete", "read", "refresh"].map(step),
    );
    expect(plan).toMatchObject({
      generation: 3,
      specSha256: "ab".repeat(32),
      creates: 1,
      updates: 1,
      replaces: 1,
      deletes: 1,
    });
    expect(plan.steps.map((s) => s.op)).toEqual(["create", "update", "replace", "delete"]);
  });
});

describe("acknowledge", () => {
  it("marks a new Tenant Pending before its turn, and leaves one that has a status or is being deleted alone", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.acknowledge("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Pending",
      conditions: [{ type: "Ready", status: "Unknown", reason: "Pending", observedGeneration: 1 }],
    });
    expect(stacks.calls).toEqual([]);

    await reconciler.reconcile("team-atlas");
    await reconciler.acknowledge("team-atlas");
    expect(resources.peek("team-atlas")!.status?.phase).toBe("Ready");

    resources.apply("team-borealis", { ...atlas, owner: "bob@example.com" } as TenantRequestInput);
    await resources.addFinalizer("team-borealis", TENANT_FINALIZER);
    await resources.delete("team-borealis");
    await reconciler.acknowledge("team-borealis");
    expect(resources.peek("team-borealis")?.metadata.deletionTimestamp).toBeDefined();
    expect(resources.statusesOf("team-borealis")).toEqual([]);
  });
});

/** A fleet with no revision rolled out, and none being rolled out. */
const NO_ROLLOUT: Pick<FleetPort, "runningPolicy" | "dueFor" | "recordApplied" | "recordApplyFailure"> = {
  runningPolicy: () => undefined,
  dueFor: () => undefined,
  recordApplied: async () => {},
  recordApplyFailure: async () => {},
};

describe("the fleet preview", () => {
  /** A stand-in of a replica's part of the fleet preview: one revision on the table, results kept here. */
  const fleetOf = (policy: TenantPlatformInput) => {
    const recorded: RevisionTenant[] = [];
    const fleet: FleetPort = {
      pendingFor: (name, generation, retryFailed) => {
        const entry = [...recorded].reverse().find((e) => e.name === name && e.generation === generation);
        return entry && !(retryFailed && entry.outcome === "Failed") ? undefined : { revision: "r2", policy };
      },
      record: async (revision, entry) => {
        expect(revision).toBe("r2");
        recorded.push(entry);
      },
      ...NO_ROLLOUT,
    };
    return { fleet, recorded };
  };

  it("previews a new tenant on the revision after provisioning it with the server's own policy, and only once", async () => {
    const { fleet, recorded } = fleetOf({ namespacePrefix: "revision-" });
    reconciler = reconcilerWith(false, undefined, { fleet });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    expect(stacks.calls.map((c) => c.op)).toEqual(["up", "preview"]);
    // The update ran with the server's policy, the preview with the revision's.
    expect(stacks.callsOf("up")[0].program?.platform.namespacePrefix).toBeUndefined();
    expect(stacks.callsOf("preview")[0].program?.platform.namespacePrefix).toBe("revision-");
    expect(recorded).toEqual([expect.objectContaining({ name: "team-atlas", generation: 1, outcome: "NoChanges" })]);
    expect(resources.peek("team-atlas")!.status?.phase).toBe("Ready");
    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("preview")).toHaveLength(1);
  });

  it("records a request the revision's policy refuses as Failed, naming the field, and leaves the tenant as it was", async () => {
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    const { fleet, recorded } = fleetOf({ quota: { ceilings: { cpu: "2" } } });
    reconciler = reconcilerWith(false, undefined, { fleet });
    const writes = resources.statusesOf("team-atlas").length;
    await reconciler.reconcile("team-atlas");
    expect(recorded).toEqual([
      expect.objectContaining({ outcome: "Failed", reason: expect.stringMatching(/resources\.cpu: 4 is above/) }),
    ]);
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(resources.statusesOf("team-atlas")).toHaveLength(writes);
    // Not again until a resync, which tries a failed preview again (the failure may have passed).
    await reconciler.reconcile("team-atlas");
    expect(recorded).toHaveLength(1);
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(recorded.map((e) => e.outcome)).toEqual(["Failed", "Failed"]);
  });

  it("notes a result it could not record, and the reconcile still ends as it did", async () => {
    const notes: string[] = [];
    const fleet: FleetPort = {
      pendingFor: () => ({ revision: "r2", policy: {} }),
      record: async () => {
        throw new Error("the API server did not answer");
      },
      ...NO_ROLLOUT,
    };
    reconciler = reconcilerWith(false, undefined, { fleet, onNote: (_tenant, line) => notes.push(line) });
    resources.apply("team-atlas", atlas);
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    expect(notes).toContain("its preview on platform revision r2 was not recorded: the API server did not answer");
  });
});

describe("the rollout of a platform revision", () => {
  /** A stand-in of a replica's part of the fleet: revision r2 is due to reach team-atlas until it runs it. */
  const rollingOut = (policy: TenantPlatformInput, older?: TenantPlatformInput) => {
    const applied: string[] = [];
    const failures: string[] = [];
    const fleet: FleetPort = {
      pendingFor: () => undefined,
      record: async () => {},
      runningPolicy: (running) =>
        running === "r2" ? { revision: "r2", policy } : older && { revision: "r1", policy: older },
      dueFor: (_name, _generation, running) =>
        running !== "r2" && failures.length === 0 ? { revision: "r2", policy } : undefined,
      recordApplied: async (revision, name, generation) => void applied.push(`${revision}/${name}/${generation}`),
      recordApplyFailure: async (revision, name, generation, reason) =>
        void failures.push(`${revision}/${name}/${generation}: ${reason}`),
    };
    return { fleet, applied, failures };
  };

  it("brings a Ready tenant up on the revision due to reach it, and later runs keep its policy", async () => {
    const { fleet, applied } = rollingOut({ namespacePrefix: "revision-" });
    reconciler = reconcilerWith(false, undefined, { fleet });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    // First provisioned with the server's own policy, then brought up on r2 once Ready.
    const ups = stacks.callsOf("up");
    expect(ups.map((c) => c.program?.platform.namespacePrefix)).toEqual([undefined, "revision-"]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", platformRevision: "r2" });
    expect(applied).toEqual(["r2/team-atlas/1"]);

    // A resync previews (and, on drift, brings it up) with r2's policy, never the server's own.
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(stacks.callsOf("preview").at(-1)?.program?.platform.namespacePrefix).toBe("revision-");
    expect(stacks.callsOf("up")).toHaveLength(2);
  });

  it("tells a rollout's update by its Events, even when a resync brings it: no drift is put back", async () => {
    const { fleet } = rollingOut({ namespacePrefix: "revision-" });
    const events: string[] = [];
    resources.apply("team-atlas", atlas);
    await reconcilerWith(false).reconcile("team-atlas");
    reconciler = reconcilerWith(false, undefined, {
      fleet,
      events: { record: async (_tenant, reason, note) => void events.push(`${reason}: ${note ?? ""}`) },
    });
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(events).toEqual([
      "Provisioning: bringing generation 1 up on platform revision r2",
      "Ready: generation 1 is ready",
    ]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", platformRevision: "r2" });
  });

  it("records a failure to bring the tenant up, and its next try brings it back to the revision it ran", async () => {
    const { fleet, failures } = rollingOut({ quota: { ceilings: { cpu: "2" } } }, { namespacePrefix: "r1-" });
    reconciler = reconcilerWith(false, undefined, { fleet });
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    expect(failures).toEqual([expect.stringMatching(/^r2\/team-atlas\/1: .*resources\.cpu: 4 is above/s)]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Failed", platformRevision: "r1" });

    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("up").at(-1)?.program?.platform.namespacePrefix).toBe("r1-");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", platformRevision: "r1" });
  });
});

describe("a tenant's life: sleep and expiry", () => {
  const NOW = Date.parse("2026-12-01T00:00:00Z");
  const hoursFromNow = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();
  const recorded = () => {
    const events: string[] = [];
    return {
      events,
      record: async (_t: unknown, reason: string, note?: string) => void events.push(`${reason}: ${note ?? ""}`),
    };
  };

  it("a Tenant that asks for sleep is Sleeping, its Ready condition False with reason Sleeping, and is left alone like a Ready one", async () => {
    const { events, record } = recorded();
    reconciler = reconcilerWith(false, undefined, { events: { record } });
    // A tenant starts awake (it has no kubeconfig until its control plane first starts), then sleeps.
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, sleep: true });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Sleeping",
      observedGeneration: 2,
      conditions: [{ type: "Ready", status: "False", reason: "Sleeping" }],
    });
    expect(events.at(-1)).toBe("Sleeping: generation 2 is asleep");
    await reconciler.reconcile("team-atlas");
    expect(stacks.callsOf("up")).toHaveLength(2);
    // Waking is a change like any other: Ready again.
    resources.apply("team-atlas", { ...atlas, sleep: false });
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", observedGeneration: 3 });
    expect(stacks.callsOf("up").map((c) => c.program?.request.sleep)).toEqual([undefined, true, false]);
  });

  it("warns a tenant within warnHours of its expiry with the Expiring condition and one Event, and asks to come back at the expiry", async () => {
    const { events, record } = recorded();
    reconciler = reconcilerWith(false, undefined, { events: { record } });
    const expiresAt = hoursFromNow(2);
    resources.apply("team-atlas", { ...atlas, expiresAt });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false, revisitAt: Date.parse(expiresAt) });
    const conditions = resources.peek("team-atlas")!.status!.conditions;
    expect(conditions.map((c) => [c.type, c.status])).toEqual([
      ["Ready", "True"],
      ["Expiring", "True"],
    ]);
    expect(conditions[1].message).toContain(`expires at ${expiresAt}`);
    expect(events.filter((e) => e.startsWith("ExpiringSoon"))).toHaveLength(1);

    // The warning stays through later writes of the Ready condition, and is not recorded again.
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(resources.peek("team-atlas")!.status!.conditions.map((c) => c.type)).toEqual(["Ready", "Expiring"]);
    expect(events.filter((e) => e.startsWith("ExpiringSoon"))).toHaveLength(1);

    // Extended past the warning: the condition goes, and the next visit is the new warning's time.
    const later = hoursFromNow(100);
    resources.apply("team-atlas", { ...atlas, expiresAt: later });
    const result = await reconciler.reconcile("team-atlas");
    expect(result.revisitAt).toBe(Date.parse(later) - 24 * 3_600_000);
    expect(resources.peek("team-atlas")!.status!.conditions.map((c) => c.type)).toEqual(["Ready"]);
  });

  it("deletes a Tenant whose expiry has come, with an Event; the deletion's reconcile tears it down like any other", async () => {
    const { events, record } = recorded();
    resources.apply("team-atlas", { ...atlas, expiresAt: hoursFromNow(1) });
    await reconcilerWith(false, undefined, { events: { record } }).reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, expiresAt: hoursFromNow(-1) });
    reconciler = reconcilerWith(false, undefined, { events: { record } });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false });
    expect(events.at(-1)).toBe(`Expired: it expired at ${hoursFromNow(-1)}; deleting it`);
    expect(resources.peek("team-atlas")!.metadata.deletionTimestamp).toBeDefined();
    // Nothing was brought up for the expired generation.
    expect(stacks.callsOf("up")).toHaveLength(1);

    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")).toBeUndefined();
    expect(stacks.callsOf("destroy")).toHaveLength(1);
  });

  it("keeps the running generation's expiry in force while a change that drops it waits for approval", async () => {
    const { events, record } = recorded();
    const expiresAt = hoursFromNow(1);
    const withExpiry = { ...atlas, expiresAt };
    let now = new Date(NOW);
    const service = new TenantsService(
      { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
      { policy: {} },
    );
    reconciler = new TenantReconciler(
      service,
      resources,
      { actor: serverActor, requireApproval: true, events: { record } },
      () => now,
    );
    resources.apply("team-atlas", withExpiry, approvalOf(1, withExpiry));
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status!.expiry).toEqual({ generation: 1, expiresAt });
    // The owner drops the expiry: generation 2 waits, and generation 1's expiry still stands.
    resources.apply("team-atlas", atlas, approvalOf(1, withExpiry));
    const held = await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "AwaitingApproval",
      expiry: { generation: 1, expiresAt },
    });
    expect(held.revisitAt).toBe(Date.parse(expiresAt));
    now = new Date(NOW + 2 * 3_600_000);
    await reconciler.reconcile("team-atlas");
    expect(events.at(-1)).toBe(`Expired: it expired at ${expiresAt}; deleting it`);
    expect(resources.peek("team-atlas")!.metadata.deletionTimestamp).toBeDefined();
  });

  it("keeps the running generation's expiry in force when a change that pushes it out is refused", async () => {
    const expiresAt = hoursFromNow(1);
    const withExpiry = { ...atlas, expiresAt };
    let now = new Date(NOW);
    const service = new TenantsService(
      { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
      { policy: { expiry: { maxLifetimeHours: 48 } } },
    );
    reconciler = new TenantReconciler(service, resources, { actor: serverActor, requireApproval: false }, () => now);
    resources.apply("team-atlas", withExpiry);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, expiresAt: hoursFromNow(24 * 365) });
    await reconciler.reconcile("team-atlas");
    const refused = resources.peek("team-atlas")!.status!;
    expect(refused).toMatchObject({ phase: "Failed", expiry: { generation: 1, expiresAt } });
    expect(refused.conditions[0]!.reason).toBe("InvalidRequest");
    now = new Date(NOW + 2 * 3_600_000);
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.metadata.deletionTimestamp).toBeDefined();
  });

  it("records the spec's expiry as the one in force for a tenant that runs at its generation without a record (an older server's)", async () => {
    const expiresAt = hoursFromNow(5);
    resources.apply("team-atlas", { ...atlas, expiresAt });
    await reconciler.reconcile("team-atlas");
    const status = resources.peek("team-atlas")!.status!;
    const { expiry: _dropped, ...older } = status;
    await resources.writeStatus("team-atlas", older);
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status!.expiry).toEqual({ generation: 1, expiresAt });
    expect(stacks.callsOf("up")).toHaveLength(1);
  });

  it("warns as the platform's policy says: no warning before warnHours, and a visit when it starts", async () => {
    const expiresAt = hoursFromNow(5);
    const warnAt = Date.parse(expiresAt) - 2 * 3_600_000;
    reconciler = new TenantReconciler(
      new TenantsService(
        { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
        { policy: {} },
      ),
      resources,
      { actor: serverActor, requireApproval: false, policy: { expiry: { warnHours: 2 } } },
      () => new Date(NOW),
    );
    resources.apply("team-atlas", { ...atlas, expiresAt });
    expect(await reconciler.reconcile("team-atlas")).toEqual({ retry: false, revisitAt: warnAt });
    expect(resources.peek("team-atlas")!.status!.conditions.map((c) => c.type)).toEqual(["Ready"]);
  });
});

describe("snapshots and restores asked for by annotation", () => {
  /** A stand-in store that knows the objects `present`, and a stand-in vCluster that records what it was asked. */
  const standIns = (present: string[] = []) => {
    const asked: string[] = [];
    const store = {
      objectOf: (owner: string, snapshot: string) => ({
        key: `${owner}/${snapshot}`,
        options: "{}",
        url: `s3://bucket/${owner}/${snapshot}`,
      }),
      exists: async (object: { key: string }) => present.includes(object.key),
    };
    const vcluster = {
      take: async (target: { tenant: string }, snapshot: string) =>
        void asked.push(`take ${target.tenant} ${snapshot}`),
      restore: async (target: { tenant: string }, object: { key: string }, fresh: boolean) =>
        void asked.push(`restore ${target.tenant} ${object.key}${fresh ? " fresh" : ""}`),
    };
    return { asked, snapshots: { store, vcluster } };
  };
  const withEvents = (snapshots: ReturnType<typeof standIns>["snapshots"]) => {
    const events: string[] = [];
    const record = async (_t: unknown, reason: string, note?: string) => void events.push(`${reason}: ${note ?? ""}`);
    const service = new TenantsService(
      { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
      { policy: {} },
    );
    const config = { actor: serverActor, requireApproval: false, events: { record }, snapshots };
    return {
      events,
      reconciler: new TenantReconciler(service, resources, config, () => new Date("2026-12-05T06:30:12Z")),
    };
  };

  it("takes a snapshot once per ask, lists it in the status, and keeps it across later writes", async () => {
    const { asked, snapshots } = standIns();
    const { events, reconciler } = withEvents(snapshots);
    resources.apply("team-atlas", atlas, { "kubespaces.io/snapshot": "ask-1" });
    await reconciler.reconcile("team-atlas");
    expect(asked).toEqual(["take team-atlas team-atlas-20261205t063012z"]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({
      phase: "Ready",
      snapshotRequest: "ask-1",
      snapshots: [
        {
          name: "team-atlas-20261205t063012z",
          takenAt: "2026-12-05T06:30:12.000Z",
          url: "s3://bucket/alice@example.com/team-atlas-20261205t063012z",
        },
      ],
    });
    expect(events).toContain("SnapshotTaken: snapshot team-atlas-20261205t063012z is kept in the snapshot store");
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(asked).toHaveLength(1);
    expect(resources.peek("team-atlas")!.status!.snapshots).toHaveLength(1);
  });

  it("refuses a snapshot of a sleeping tenant, and any without a store, with an Event, once", async () => {
    const { asked, snapshots } = standIns();
    const { events, reconciler } = withEvents(snapshots);
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", { ...atlas, sleep: true }, { "kubespaces.io/snapshot": "ask-1" });
    await reconciler.reconcile("team-atlas");
    expect(asked).toEqual([]);
    expect(events).toContain(
      "SnapshotFailed: no snapshot taken: a sleeping tenant's control plane is down: wake it first",
    );
    expect(resources.peek("team-atlas")!.status!.snapshotRequest).toBe("ask-1");

    resources.apply("team-bravo", atlas, { "kubespaces.io/snapshot": "ask-1" });
    await reconcilerWith(false, undefined, {
      events: { record: async (_t, reason, note) => void events.push(`${reason}: ${note}`) },
    }).reconcile("team-bravo");
    expect(events.at(-1)).toBe(
      "SnapshotFailed: no snapshot taken: the server has no snapshot store (its configuration's `snapshots`)",
    );
  });

  it("restores from the owner's snapshot: up asleep, vCluster's restore, up as the spec asks; one of another tenant as into a new vCluster", async () => {
    const { asked, snapshots } = standIns(["alice@example.com/team-atlas-1"]);
    const { events, reconciler } = withEvents(snapshots);
    resources.apply("team-atlas", atlas);
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", atlas, { "kubespaces.io/restore-from": "team-atlas-1" });
    await reconciler.reconcile("team-atlas");
    expect(asked).toEqual(["restore team-atlas alice@example.com/team-atlas-1 fresh"]);
    expect(stacks.callsOf("up").map((c) => c.program?.request.sleep)).toEqual([undefined, true, undefined]);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", restoredFrom: "team-atlas-1" });
    expect(events.filter((e) => /^Restor/.test(e))).toEqual([
      "Restoring: restoring snapshot team-atlas-1: the control plane goes down first",
      "Restored: restored from snapshot team-atlas-1",
    ]);
    // Served once.
    await reconciler.reconcile("team-atlas", { resync: true });
    expect(asked).toHaveLength(1);
  });

  it("restores a snapshot of this very tenant (its status lists it) into its own data", async () => {
    const { asked, snapshots } = standIns(["alice@example.com/team-atlas-20261205t063012z"]);
    const { reconciler } = withEvents(snapshots);
    resources.apply("team-atlas", atlas, { "kubespaces.io/snapshot": "ask-1" });
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", atlas, { "kubespaces.io/restore-from": "team-atlas-20261205t063012z" });
    await reconciler.reconcile("team-atlas");
    expect(asked).toEqual([
      "take team-atlas team-atlas-20261205t063012z",
      "restore team-atlas alice@example.com/team-atlas-20261205t063012z",
    ]);
  });

  it("brings back after a restore the request that ran, not a spec patched while it ran, which then meets the approval gate", async () => {
    const { snapshots } = standIns(["alice@example.com/team-atlas-1"]);
    const events: string[] = [];
    const record = async (_t: unknown, reason: string, note?: string) => void events.push(`${reason}: ${note ?? ""}`);
    const bigger = { ...atlas, resources: { cpu: "8", memory: "16Gi" } } as TenantRequestInput;
    // The owner patches the spec while vCluster's restore runs.
    const vcluster = {
      ...snapshots.vcluster,
      restore: async () => void resources.apply("team-atlas", bigger, { "kubespaces.io/restore-from": "team-atlas-1" }),
    };
    const service = new TenantsService(
      { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
      { policy: {} },
    );
    const config = {
      actor: serverActor,
      requireApproval: true,
      events: { record },
      snapshots: { ...snapshots, vcluster },
    };
    reconciler = new TenantReconciler(service, resources, config, () => new Date("2026-12-05T06:30:12Z"));
    resources.apply("team-atlas", atlas, approvalOf(1, atlas));
    await reconciler.reconcile("team-atlas");
    resources.apply("team-atlas", atlas, { ...approvalOf(1, atlas), "kubespaces.io/restore-from": "team-atlas-1" });
    await reconciler.reconcile("team-atlas");

    const ups = stacks.callsOf("up").map((c) => [c.program?.request.resources?.cpu, c.program?.request.sleep]);
    expect(ups).toEqual([
      ["4", undefined],
      ["4", true],
      ["4", undefined],
    ]);
    expect(resources.peek("team-atlas")!.metadata.generation).toBe(2);
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
    // The patched generation is reconciled like any change: held, and nothing more is brought up.
    await reconciler.reconcile("team-atlas");
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "AwaitingApproval", observedGeneration: 1 });
    expect(stacks.callsOf("up")).toHaveLength(3);
  });

  it("refuses a restore-from annotation that is no snapshot's name, without quoting it and without a store lookup", async () => {
    const { asked, snapshots } = standIns();
    const looked: string[] = [];
    const store = { ...snapshots.store, exists: async (o: { key: string }) => (looked.push(o.key), true) };
    const { events, reconciler } = withEvents({ ...snapshots, store });
    resources.apply("team-atlas", atlas, { "kubespaces.io/restore-from": "../bob@example.com/team-bob-1" });
    await reconciler.reconcile("team-atlas");
    expect(looked).toEqual([]);
    expect(asked).toEqual([]);
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(events.at(-1)).toBe(
      "RestoreFailed: not restored from the snapshot the annotation names: that is not a snapshot's name (its status lists them)",
    );
  });

  it("never brings a tenant down for a snapshot its owner does not have: another owner's is not found", async () => {
    const { asked, snapshots } = standIns(["bob@example.com/team-bob-1"]);
    const { events, reconciler } = withEvents(snapshots);
    resources.apply("team-atlas", atlas, { "kubespaces.io/restore-from": "team-bob-1" });
    await reconciler.reconcile("team-atlas");
    expect(asked).toEqual([]);
    expect(stacks.callsOf("up")).toHaveLength(1);
    expect(events.at(-1)).toBe(
      "RestoreFailed: not restored from team-bob-1: the tenant's owner has no snapshot of that name",
    );
    expect(resources.peek("team-atlas")!.status).toMatchObject({ phase: "Ready", restoredFrom: "team-bob-1" });
  });
});
