/**
 * A replica's part of the fleet preview (server/revisions/replicaFleet.ts), over a stand-in of the
 * revisions' store that refuses a write of a status read before another write, as the API server
 * refuses a stale resourceVersion.
 */
import { describe, expect, it } from "vitest";
import { parsePlatformPolicy } from "../../provider/model/platformPolicyValue";
import { REVISION_FINALIZER, ROLLOUT_ANNOTATION } from "../../provider/contracts/platformRevisionNames";
import { revisionTenantOf, type PlatformRevision } from "../../provider/server/revisions/fleetPreview";
import { waveOrder } from "../../provider/server/revisions/fleetRollout";
import {
  ReplicaFleet,
  type FleetShare,
  type PlatformRevisionStore,
} from "../../provider/server/revisions/replicaFleet";
import type { PlatformRevisionStatus } from "../../provider/tenantResource/platformRevisionStatus";

const NOW = new Date("2026-12-05T00:00:00Z");

/** A stand-in of the API server's PlatformRevisions: versions bump at each write; a stale one is refused. */
class StandInRevisionStore implements PlatformRevisionStore {
  readonly objects = new Map<string, PlatformRevision>();
  /** Writes of other replicas to slip in before this many of the next writes. */
  interleaved = 0;

  put(name: string, platform: unknown, created = "2026-12-01T00:00:00Z"): PlatformRevision {
    const object = { metadata: { name, creationTimestamp: created, resourceVersion: "1" }, spec: { platform } };
    this.objects.set(name, object);
    return object;
  }

  async get(name: string) {
    return this.objects.get(name);
  }

  async writeStatus(revision: PlatformRevision, status: PlatformRevisionStatus): Promise<boolean> {
    const stored = this.objects.get(revision.metadata.name)!;
    if (this.interleaved > 0) {
      this.interleaved--;
      this.bump(stored, stored.status);
      return false;
    }
    if (stored.metadata.resourceVersion !== revision.metadata.resourceVersion) return false;
    this.bump(stored, status);
    return true;
  }

  async changeFinalizer(name: string, present: boolean): Promise<void> {
    const stored = this.objects.get(name);
    if (!stored) return;
    const list = (stored.metadata.finalizers ?? []).filter((f) => f !== REVISION_FINALIZER);
    const finalizers = present ? [...list, REVISION_FINALIZER] : list;
    // As the API server does: a revision being deleted goes once its last finalizer does.
    if (stored.metadata.deletionTimestamp && finalizers.length === 0) {
      this.objects.delete(name);
      return;
    }
    const resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
    this.objects.set(name, { ...stored, metadata: { ...stored.metadata, resourceVersion, finalizers } });
  }

  /** An admin's `kubectl delete`: held by its finalizers, gone at once without. */
  delete(name: string): void {
    const stored = this.objects.get(name)!;
    if (!stored.metadata.finalizers?.length) return void this.objects.delete(name);
    const resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
    const deletionTimestamp = "2026-12-05T12:00:00Z";
    this.objects.set(name, { ...stored, metadata: { ...stored.metadata, resourceVersion, deletionTimestamp } });
  }

  private bump(stored: PlatformRevision, status: PlatformRevisionStatus | undefined) {
    const resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
    this.objects.set(stored.metadata.name, { ...stored, metadata: { ...stored.metadata, resourceVersion }, status });
  }
}

const share = (owned: string[], all: string[] = owned, pending: string[] = []): FleetShare => ({
  tenants: () => new Set(all),
  owned: () => owned,
  onPending: (name) => pending.push(name),
});

const previewsOver = (store: StandInRevisionStore, logs: string[] = []) =>
  new ReplicaFleet(store, {
    policyOf: (name, platform) => ({
      ...parsePlatformPolicy(`platform revision ${name}`, platform),
      namespacePrefix: "t-",
    }),
    log: (line) => logs.push(line),
  });

describe("a replica's part of the fleet preview", () => {
  it("asks, once it follows its share, for each owned tenant the newest revision has not seen", () => {
    const store = new StandInRevisionStore();
    const previews = previewsOver(store);
    previews.seen(store.put("r1", { quota: { ceilings: { cpu: "8" } } }));
    const pending: string[] = [];
    // Before the share runs, nothing is pending: no tenant is reconciled yet.
    expect(previews.pendingFor("team-atlas", 1)).toBeUndefined();
    previews.follow(share(["team-atlas", "team-borealis"], ["team-atlas", "team-borealis", "other"], pending));
    expect(pending).toEqual(["team-atlas", "team-borealis"]);
    const due = previews.pendingFor("team-atlas", 1);
    expect(due?.revision).toBe("r1");
    // The policy as the server runs it: the revision's, with what the server adds.
    expect(due?.policy).toEqual({ quota: { ceilings: { cpu: "8" } }, namespacePrefix: "t-" });
  });

  it("previews only on the newest revision; an older one keeps what it had", () => {
    const store = new StandInRevisionStore();
    const previews = previewsOver(store);
    previews.follow(share(["team-atlas"]));
    previews.seen(store.put("r1", {}, "2026-12-01T00:00:00Z"));
    previews.seen(store.put("r2", {}, "2026-12-02T00:00:00Z"));
    expect(previews.pendingFor("team-atlas", 1)?.revision).toBe("r2");
    previews.gone("r2");
    expect(previews.pendingFor("team-atlas", 1)?.revision).toBe("r1");
  });

  it("records a result, writing again over other replicas' writes, and the tenant is then not pending", async () => {
    const store = new StandInRevisionStore();
    const previews = previewsOver(store);
    const pending: string[] = [];
    previews.follow(share(["team-atlas"], ["team-atlas", "team-borealis"], pending));
    const unwritten = store.put("r1", {});
    previews.seen(unwritten);
    store.interleaved = 2;
    await previews.record("r1", revisionTenantOf("team-atlas", 1, { steps: [] }, NOW));
    const written = store.objects.get("r1")!;
    expect(written.status).toMatchObject({ phase: "Previewing", summary: { tenants: 2, previewed: 1, unchanged: 1 } });
    // Known at once, even while the watch still brings a status from before the write.
    previews.seen(unwritten);
    expect(previews.pendingFor("team-atlas", 1)).toBeUndefined();
    expect(pending).toEqual(["team-atlas"]);
    // A new generation of the tenant's request is previewed again.
    expect(previews.pendingFor("team-atlas", 2)?.revision).toBe("r1");
  });

  it("gives up after many refused writes, saying so", async () => {
    const store = new StandInRevisionStore();
    const previews = previewsOver(store);
    previews.follow(share(["team-atlas"]));
    previews.seen(store.put("r1", {}));
    store.interleaved = 100;
    await expect(previews.record("r1", revisionTenantOf("team-atlas", 1, { steps: [] }, NOW))).rejects.toThrow(
      /other replicas wrote its status 8 times/,
    );
  });

  it("marks a revision whose policy is not one Invalid, naming the field, and previews nothing on it", async () => {
    const store = new StandInRevisionStore();
    const logs: string[] = [];
    const previews = previewsOver(store, logs);
    const pending: string[] = [];
    previews.follow(share(["team-atlas"], ["team-atlas"], pending));
    previews.seen(store.put("bad", { quota: { ceilings: { cpu: 8 } } }));
    await expect.poll(() => store.objects.get("bad")!.status?.phase).toBe("Invalid");
    expect(store.objects.get("bad")!.status!.message).toMatch(/platform revision bad .*quota\.ceilings\.cpu/);
    expect(pending).toEqual([]);
    expect(previews.pendingFor("team-atlas", 1)).toBeUndefined();
    // Logged once, by the replica whose write landed; seen again, it is not written again.
    expect(logs).toEqual([expect.stringMatching(/^platform revision bad is not a valid platform policy: /)]);
    previews.seen(store.objects.get("bad")!);
    expect(logs).toHaveLength(1);
  });

  it("rolls an approved revision out wave by wave, asking for each due tenant, and opens the next wave on the last result", async () => {
    const store = new StandInRevisionStore();
    const fleet = previewsOver(store);
    const tenants = ["team-a", "team-b", "team-c"];
    const pending: string[] = [];
    fleet.follow(share(tenants, tenants, pending));
    const put = store.put("r1", {});
    store.objects.set("r1", { ...put, spec: { ...put.spec, waves: ["1", "100%"] } });
    fleet.seen(store.objects.get("r1")!);
    for (const name of tenants) await fleet.record("r1", revisionTenantOf(name, 1, { steps: [] }, NOW));
    fleet.seen(store.objects.get("r1")!);
    expect(store.objects.get("r1")!.status?.rollout).toMatchObject({ phase: "Waiting" });
    expect(fleet.dueFor("team-a", 1, undefined)).toBeUndefined();

    // Approved: the replica writes the rollout (wave 1), and asks for the first wave's tenant once it sees it.
    approve(store, "r1");
    fleet.seen(store.objects.get("r1")!);
    await expect.poll(() => store.objects.get("r1")!.status?.rollout?.phase).toBe("RollingOut");
    pending.length = 0;
    fleet.seen(store.objects.get("r1")!);
    const [first, ...rest] = waveOrder("r1", tenants);
    expect(pending).toEqual([first]);
    expect(fleet.dueFor(first, 1, undefined)?.revision).toBe("r1");
    expect(rest.map((name) => fleet.dueFor(name, 1, undefined))).toEqual([undefined, undefined]);

    await fleet.recordApplied("r1", first, 1);
    fleet.seen(store.objects.get("r1")!);
    expect(store.objects.get("r1")!.status?.rollout).toMatchObject({ phase: "RollingOut", wave: 2, applied: 1 });
    expect(rest.every((name) => fleet.dueFor(name, 1, undefined)?.revision === "r1")).toBe(true);
    for (const name of rest) await fleet.recordApplied("r1", name, 1);
    fleet.seen(store.objects.get("r1")!);
    expect(store.objects.get("r1")!.status?.rollout).toMatchObject({ phase: "RolledOut", applied: 3 });

    // Rolled out: a tenant running no revision yet (one made since) is brought up with it.
    expect(fleet.runningPolicy(undefined)?.revision).toBe("r1");
  });

  it("runs a tenant with the revision its status names, even while a newer one rolls out", () => {
    const store = new StandInRevisionStore();
    const fleet = previewsOver(store);
    fleet.follow(share(["team-a"]));
    fleet.seen(store.put("r1", { quota: { ceilings: { cpu: "8" } } }, "2026-12-01T00:00:00Z"));
    fleet.seen(store.put("r2", { quota: { ceilings: { cpu: "4" } } }, "2026-12-02T00:00:00Z"));
    expect(fleet.runningPolicy("r1")?.policy.quota).toEqual({ ceilings: { cpu: "8" } });
    // None rolled out to every tenant: a tenant that names none runs with the server's own policy.
    expect(fleet.runningPolicy(undefined)).toBeUndefined();
    // A tenant running r2 already is not previewed on it again.
    expect(fleet.pendingFor("team-a", 1, false, "r2")).toBeUndefined();
    expect(fleet.pendingFor("team-a", 1, false, "r1")?.revision).toBe("r2");
  });
});

describe("a revision's finalizer", () => {
  it("is kept while a tenant runs the revision, and taken off its deletion once none does; it is then no longer on the table", async () => {
    const store = new StandInRevisionStore();
    const fleet = previewsOver(store);
    fleet.tenantRuns("team-a", "r1");
    fleet.seen(store.put("r1", {}));
    // Not before the share runs: until then not every tenant is known.
    await Promise.resolve();
    expect(store.objects.get("r1")!.metadata.finalizers).toBeUndefined();
    fleet.follow(share(["team-a", "team-b"]));
    await expect.poll(() => store.objects.get("r1")!.metadata.finalizers).toEqual([REVISION_FINALIZER]);

    store.delete("r1");
    fleet.seen(store.objects.get("r1")!);
    expect(fleet.pendingFor("team-b", 1)).toBeUndefined();
    // The tenant that runs it still runs with its policy.
    expect(fleet.runningPolicy("r1")?.revision).toBe("r1");
    await Promise.resolve();
    expect(store.objects.get("r1")!.metadata.finalizers).toEqual([REVISION_FINALIZER]);
    fleet.tenantRuns("team-a", undefined);
    await expect.poll(() => store.objects.has("r1")).toBe(false);
  });
});

/** The admin's approval of revision `name`, as `kubectl annotate` writes it: a new version. */
function approve(store: StandInRevisionStore, name: string): void {
  const stored = store.objects.get(name)!;
  const resourceVersion = String(Number(stored.metadata.resourceVersion) + 1);
  const annotations = { [ROLLOUT_ANNOTATION]: "approved" };
  store.objects.set(name, { ...stored, metadata: { ...stored.metadata, resourceVersion, annotations } });
}

describe("the current rollout, for the metrics", () => {
  const rolledStatus = (phase: "RollingOut" | "Halted", applied: number): PlatformRevisionStatus => ({
    phase: "Previewed",
    message: "previewed",
    summary: {
      tenants: 5,
      previewed: 5,
      changing: 5,
      unchanged: 0,
      failed: 0,
      creates: 0,
      updates: 5,
      replaces: 0,
      deletes: 0,
      fields: [],
    },
    rollout: { phase, wave: 2, waves: 3, applied, message: "rolling" },
  });

  it("is the newest revision's rollout as its status holds it, and none before one is worked out", () => {
    const store = new StandInRevisionStore();
    const fleet = previewsOver(store);
    expect(fleet.currentRollout()).toBeUndefined();
    const older = store.put("r1", {}, "2026-12-01T00:00:00Z");
    fleet.seen({ ...older, status: rolledStatus("Halted", 1) });
    expect(fleet.currentRollout()).toEqual({ phase: "Halted", wave: 2, waves: 3, applied: 1, tenants: 5 });
    const newer = store.put("r2", {}, "2026-12-02T00:00:00Z");
    fleet.seen(newer);
    // The newest revision is current; its rollout is not worked out yet.
    expect(fleet.currentRollout()).toBeUndefined();
    fleet.seen({ ...newer, status: rolledStatus("RollingOut", 3) });
    expect(fleet.currentRollout()).toMatchObject({ phase: "RollingOut", applied: 3, tenants: 5 });
  });
});
