/** Rolling a platform revision out (server/revisions/fleetRollout.ts): the order, the waves, the rollout's status, who is due. */
import { describe, expect, it } from "vitest";
import { RESUME_ANNOTATION, ROLLOUT_ANNOTATION } from "../../provider/contracts/platformRevisionNames";
import { withPreviews, type PlatformRevision } from "../../provider/server/revisions/fleetPreview";
import { isDue, rolloutOf, waveEnds, waveOrder } from "../../provider/server/revisions/fleetRollout";
import type { PlatformRevisionStatus, RevisionTenant } from "../../provider/tenantResource/platformRevisionStatus";

const NOW = new Date("2026-12-05T10:00:00Z");
const LATER = new Date("2026-12-05T11:00:00Z");
const TENANTS = ["team-a", "team-b", "team-c", "team-d", "team-e"];

const entry = (name: string, fields: Partial<RevisionTenant> = {}): RevisionTenant => ({
  name,
  generation: 1,
  outcome: "Changes",
  previewedAt: NOW.toISOString(),
  ...fields,
});

const revisionWith = (
  entries: RevisionTenant[],
  annotations: Record<string, string> = {},
  previous?: PlatformRevisionStatus["rollout"],
  waves = ["1", "50%", "100%"],
): PlatformRevision => ({
  metadata: { name: "r2", annotations },
  spec: { platform: {}, waves },
  status: { ...withPreviews(undefined, entries, new Set(TENANTS)), rollout: previous },
});

const rolloutNow = (revision: PlatformRevision, now = NOW, current = true) =>
  rolloutOf({ revision, status: revision.status!, current, now });

const approved = { [ROLLOUT_ANNOTATION]: "approved" };

describe("the order and the waves", () => {
  it("orders the tenants the same way whatever order they come in, and differently for another revision", () => {
    const order = waveOrder("r2", TENANTS);
    expect([...order].sort()).toEqual(TENANTS);
    expect(waveOrder("r2", [...TENANTS].reverse())).toEqual(order);
    // A tenant that comes or goes leaves the others' order as it was.
    expect(waveOrder("r2", [...TENANTS, "team-f"]).filter((name) => name !== "team-f")).toEqual(order);
    const others = ["r3", "r4", "r5", "r6"].map((revision) => waveOrder(revision, TENANTS)[0]);
    expect(new Set([order[0], ...others]).size).toBeGreaterThan(1);
  });

  it("ends each wave at a count or a share rounded up, never before the one before, the last at the whole fleet", () => {
    expect(waveEnds(["1", "10%", "100%"], 50)).toEqual([1, 5, 50]);
    expect(waveEnds(["1", "10%", "100%"], 3)).toEqual([1, 1, 3]);
    expect(waveEnds(["5", "2", "50%"], 4)).toEqual([4, 4, 4]);
    expect(waveEnds(["1", "10%"], 20)).toEqual([1, 20]);
    expect(waveEnds(["1"], 0)).toEqual([0]);
  });
});

describe("how a rollout stands", () => {
  it("waits for the preview, then for an admin's approval, naming the command", () => {
    expect(rolloutNow(revisionWith([entry("team-a")]))).toMatchObject({
      phase: "Waiting",
      message: expect.stringContaining("waiting for the preview: previewed on 1 of 5 tenants"),
    });
    const previewed = rolloutNow(revisionWith(TENANTS.map((name) => entry(name))));
    expect(previewed).toEqual({
      phase: "Waiting",
      waves: 3,
      applied: 0,
      message:
        "previewed; an admin rolls it out with `kubectl annotate platformrevision r2 kubespaces.io/rollout=approved`",
    });
  });

  it("opens the first wave once approved, and the next once every tenant of the first runs it", () => {
    const [first, ...rest] = waveOrder("r2", TENANTS);
    expect(
      rolloutNow(
        revisionWith(
          TENANTS.map((name) => entry(name)),
          approved,
        ),
      ),
    ).toMatchObject({
      phase: "RollingOut",
      wave: 1,
      applied: 0,
    });
    const firstRuns = [entry(first, { appliedGeneration: 1 }), ...rest.map((name) => entry(name))];
    expect(rolloutNow(revisionWith(firstRuns, approved))).toMatchObject({
      phase: "RollingOut",
      wave: 2,
      applied: 1,
      message: "wave 2 of 3: 1 of 5 tenants run it",
    });
    const all = TENANTS.map((name) => entry(name, { appliedGeneration: 1 }));
    expect(rolloutNow(revisionWith(all, approved))).toMatchObject({ phase: "RolledOut", applied: 5 });
  });

  it("halts on a failed tenant of the open wave, naming it and its reason, until an admin resumes that halt", () => {
    const [first, ...rest] = waveOrder("r2", TENANTS);
    const conflicting = [
      entry(first, { outcome: "Failed", reason: "resources.cpu: 6 is above the platform's ceiling" }),
      ...rest.map((name) => entry(name)),
    ];
    const halted = rolloutNow(revisionWith(conflicting, approved));
    expect(halted).toMatchObject({
      phase: "Halted",
      wave: 1,
      halt: {
        tenant: first,
        reason: "its preview failed: resources.cpu: 6 is above the platform's ceiling",
        at: NOW.toISOString(),
      },
    });
    expect(halted.message).toContain(`kubectl annotate platformrevision r2 ${RESUME_ANNOTATION}=${NOW.toISOString()}`);

    // Resolved (its request now fits) but not resumed: it stays halted, as it was.
    const resolved = [entry(first, { generation: 2 }), ...rest.map((name) => entry(name))];
    expect(rolloutNow(revisionWith(resolved, approved, halted), LATER)).toEqual(halted);
    // Resumed with another halt's time: still halted.
    const stale = { ...approved, [RESUME_ANNOTATION]: "2026-12-01T00:00:00.000Z" };
    expect(rolloutNow(revisionWith(resolved, stale, halted), LATER).phase).toBe("Halted");
    // Resumed: it rolls out again.
    const resumed = { ...approved, [RESUME_ANNOTATION]: NOW.toISOString() };
    expect(rolloutNow(revisionWith(resolved, resumed, halted), LATER)).toMatchObject({
      phase: "RollingOut",
      wave: 1,
      resumedFrom: NOW.toISOString(),
    });
    // Resumed while the tenant still fails: a new halt, at its own time.
    expect(rolloutNow(revisionWith(conflicting, resumed, halted), LATER)).toMatchObject({
      phase: "Halted",
      halt: { tenant: first, at: LATER.toISOString() },
    });
  });

  it("tries a tenant whose update failed again once the halt is resumed, and halts again on a new failure", () => {
    const [first, ...rest] = waveOrder("r2", TENANTS);
    const failedAt = "2026-12-05T09:59:00.000Z";
    const entries = [
      entry(first, { applyFailure: { reason: "the database did not answer", at: failedAt } }),
      ...rest.map((name) => entry(name)),
    ];
    const halted = rolloutNow(revisionWith(entries, approved));
    expect(halted.halt?.reason).toBe("bringing it up on the revision failed: the database did not answer");
    const resumed = { ...approved, [RESUME_ANNOTATION]: halted.halt!.at };
    const again = revisionWith(entries, resumed, halted);
    expect(rolloutNow(again, LATER)).toMatchObject({ phase: "RollingOut", wave: 1 });
    const rolling = { ...again, status: { ...again.status!, rollout: rolloutNow(again, LATER) } };
    expect(isDue(rolling, first, 1)).toBe(true);
    const failedAgain = [
      entry(first, { applyFailure: { reason: "refused", at: LATER.toISOString() } }),
      ...rest.map((name) => entry(name)),
    ];
    expect(rolloutNow(revisionWith(failedAgain, resumed, rolling.status.rollout), LATER).phase).toBe("Halted");
  });

  it("stops at an admin's abort, and a newer revision supersedes one not rolled out to every tenant", () => {
    const entries = TENANTS.map((name) => entry(name));
    expect(rolloutNow(revisionWith(entries, { [ROLLOUT_ANNOTATION]: "aborted" })).phase).toBe("Aborted");
    expect(rolloutNow(revisionWith(entries, approved), NOW, false).phase).toBe("Superseded");
    const rolledOut = rolloutNow(
      revisionWith(
        TENANTS.map((name) => entry(name, { appliedGeneration: 1 })),
        approved,
      ),
    );
    expect(rolloutNow(revisionWith(entries, approved, rolledOut), NOW, false).phase).toBe("RolledOut");
  });
});

describe("who is due", () => {
  it("is a tenant of the open wave, previewed at its generation without a failure, not yet running it", () => {
    const order = waveOrder("r2", TENANTS);
    const entries = TENANTS.map((name) => entry(name));
    const revision = revisionWith(entries, approved);
    const rolling = { ...revision, status: { ...revision.status!, rollout: rolloutNow(revision) } };
    expect(order.filter((name) => isDue(rolling, name, 1))).toEqual([order[0]]);
    // Previewed at another generation, or running it already: not due.
    expect(isDue(rolling, order[0], 2)).toBe(false);
    expect(isDue(rolling, order[0], 1, "r2")).toBe(false);
    // Not approved: nobody.
    const waiting = { ...rolling, metadata: { ...rolling.metadata, annotations: {} } };
    expect(isDue(waiting, order[0], 1)).toBe(false);
  });
});
