/**
 * The fleet preview's facts (server/revisions/fleetPreview.ts): which revision is on the table, which tenant
 * is still to be previewed on it, one tenant's result, and the revision's status as replicas put
 * their results in.
 */
import { describe, expect, it } from "vitest";
import {
  currentRevision,
  invalidRevisionStatus,
  needsPreview,
  revisionTenantOf,
  withPreviews,
  type PlatformRevision,
} from "../../provider/server/revisions/fleetPreview";
import type { ResourceStep } from "../../provider/tenants/tenantObject";

const NOW = new Date("2026-12-05T00:00:00Z");
const QUOTA = "kubernetes:core/v1:ResourceQuota";
const RELEASE = "kubernetes:helm.sh/v3:Release";

const revision = (name: string, created: string, status?: PlatformRevision["status"]): PlatformRevision => ({
  metadata: { name, creationTimestamp: created },
  spec: { platform: {} },
  ...(status && { status }),
});

const quotaUpdate: ResourceStep[] = [
  { op: "same", type: "kubernetes:core/v1:Namespace", name: "ns", diffs: [] },
  { op: "update", type: QUOTA, name: "quota", diffs: ["spec"] },
];

describe("the revision on the table", () => {
  it("is the newest, by creation and then by name", () => {
    const older = revision("r1", "2026-12-01T00:00:00Z");
    const newer = revision("r2", "2026-12-02T00:00:00Z");
    const sameTimeLaterName = revision("r3", "2026-12-02T00:00:00Z");
    expect(currentRevision([newer, older])).toBe(newer);
    expect(currentRevision([sameTimeLaterName, newer, older])).toBe(sameTimeLaterName);
    expect(currentRevision([])).toBeUndefined();
  });
});

describe("whether a tenant is still to be previewed", () => {
  const previewed = revision("r1", "2026-12-01T00:00:00Z", {
    phase: "Previewing",
    message: "",
    tenants: [revisionTenantOf("team-atlas", 2, { steps: [] }, NOW)],
  });

  it("is so for a tenant with no result, or a result of another generation of its request", () => {
    expect(needsPreview(previewed, "team-borealis")).toBe(true);
    expect(needsPreview(previewed, "team-atlas", 3)).toBe(true);
    expect(needsPreview(previewed, "team-atlas", 2)).toBe(false);
    expect(needsPreview(previewed, "team-atlas")).toBe(false);
  });

  it("is so again, on a resync, for a tenant whose preview failed at its generation", () => {
    const failed = revision("r1", "2026-12-01T00:00:00Z", {
      phase: "Previewed",
      message: "",
      tenants: [revisionTenantOf("team-atlas", 2, { failure: "the state backend did not answer" }, NOW)],
    });
    expect(needsPreview(failed, "team-atlas", 2)).toBe(false);
    expect(needsPreview(failed, "team-atlas", 2, true)).toBe(true);
    expect(needsPreview(previewed, "team-atlas", 2, true)).toBe(false);
  });

  it("is never so on a revision whose policy is invalid", () => {
    expect(needsPreview(revision("bad", "2026-12-01T00:00:00Z", invalidRevisionStatus("x: y")), "team-atlas")).toBe(
      false,
    );
  });
});

describe("one tenant's result", () => {
  it("is its plan when the revision changes something, counted by kind, the unchanged steps left out", () => {
    const entry = revisionTenantOf("team-atlas", 4, { steps: quotaUpdate }, NOW);
    expect(entry).toMatchObject({ name: "team-atlas", generation: 4, outcome: "Changes" });
    expect(entry.plan).toMatchObject({ creates: 0, updates: 1, replaces: 0, deletes: 0 });
    expect(entry.plan!.steps).toEqual([quotaUpdate[1]]);
    expect(entry.previewedAt).toBe(NOW.toISOString());
  });

  it("is NoChanges when nothing changes, and Failed with the reason when the preview failed", () => {
    expect(revisionTenantOf("a", 1, { steps: [quotaUpdate[0]] }, NOW)).toMatchObject({ outcome: "NoChanges" });
    expect(revisionTenantOf("a", 1, { steps: [quotaUpdate[0]] }, NOW).plan).toBeUndefined();
    expect(revisionTenantOf("a", 1, { failure: "resources.cpu: 8 is above" }, NOW)).toMatchObject({
      outcome: "Failed",
      reason: "resources.cpu: 8 is above",
    });
  });
});

describe("a revision's status as results are put in", () => {
  const tenants = new Set(["a", "b", "c"]);
  const changes = (name: string, steps: ResourceStep[] = quotaUpdate) => revisionTenantOf(name, 1, { steps }, NOW);

  it("is Previewing until every known tenant has a result, then Previewed with the sum", () => {
    const first = withPreviews(undefined, [changes("a")], tenants);
    expect(first.phase).toBe("Previewing");
    expect(first.message).toBe("previewed on 1 of 3 tenants");
    const replace: ResourceStep[] = [{ op: "replace", type: RELEASE, name: "vc", diffs: ["chart"] }];
    const second = withPreviews(first, [changes("b", replace)], tenants);
    const done = withPreviews(second, [revisionTenantOf("c", 1, { failure: "no" }, NOW)], tenants);
    expect(done.phase).toBe("Previewed");
    expect(done.summary).toEqual({
      tenants: 3,
      previewed: 3,
      changing: 2,
      unchanged: 0,
      failed: 1,
      creates: 0,
      updates: 1,
      replaces: 1,
      deletes: 0,
      fields: [`${QUOTA} spec`, `${RELEASE} chart`],
    });
    expect(done.tenants!.map((t) => t.name)).toEqual(["a", "b", "c"]);
    expect(done.message).toBe("previewed on every tenant (3): 2 would change, 0 would not, 1 failed");
  });

  it("replaces a tenant's result with a newer one, never with one of an older request", () => {
    const newer = { ...changes("a"), generation: 3 };
    const status = withPreviews(undefined, [newer], tenants);
    const stale = revisionTenantOf("a", 2, { steps: [] }, NOW);
    expect(withPreviews(status, [stale], tenants).tenants).toEqual([newer]);
    const newest = revisionTenantOf("a", 4, { steps: [] }, NOW);
    expect(withPreviews(status, [newest], tenants).tenants).toEqual([newest]);
  });

  it("leaves out the results of tenants that are gone", () => {
    const status = withPreviews(undefined, [changes("a"), changes("gone")], tenants);
    expect(status.tenants!.map((t) => t.name)).toEqual(["a"]);
    expect(status.summary!.previewed).toBe(1);
  });
});
