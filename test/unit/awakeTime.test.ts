/**
 * A tenant's awake time read from its stack's history: which updates wake it, put it to sleep or
 * leave it as it was, and how the time falls into the window's days.
 */
import { describe, expect, it } from "vitest";
import { awakeIntervals, awakeTime } from "../../provider/tenants/awakeTime";
import type { StackUpdate } from "../../provider/tenants/ports";

const ALICE = "alice@example.com";
const HOUR = 3_600_000;
const NOW = Date.parse("2026-12-06T12:00:00.000Z");
const at = (hoursBeforeNow: number) => new Date(NOW - hoursBeforeNow * HOUR).toISOString();

let version = 0;
/** A succeeded update that started `hoursBeforeNow` ago and took a minute. */
function update(hoursBeforeNow: number, fields: Partial<StackUpdate> & { sleep?: boolean }): StackUpdate {
  const { sleep, ...rest } = fields;
  return {
    version: ++version,
    kind: "update",
    startedAt: at(hoursBeforeNow),
    endedAt: at(hoursBeforeNow - 1 / 60),
    result: "succeeded",
    changes: {},
    request: { owner: ALICE, ...(sleep !== undefined && { sleep }) },
    ...rest,
  };
}

describe("a tenant's awake time from its history", () => {
  it("counts a tenant made ten hours ago and never put to sleep as awake since its create started", () => {
    expect(awakeTime([update(10, {})], NOW).hours).toBe(10);
  });

  it("stops at the end of a sleep and starts again at the start of the wake", () => {
    // Newest first, as the history lists them: woken 1 h ago, asleep 4 h ago, made 6 h ago.
    const newestFirst = [update(1, { sleep: false }), update(4, { sleep: true }), update(6, {})];
    expect(awakeIntervals(newestFirst, NOW)).toEqual([
      { from: NOW - 6 * HOUR, to: NOW - 4 * HOUR + HOUR / 60 },
      { from: NOW - HOUR, to: NOW },
    ]);
    expect(awakeTime(newestFirst, NOW)).toMatchObject({ hours: 3, seconds: 3 * 3600 + 60 });
  });

  it("takes a failed sleep to change nothing, and a refresh to leave the tenant as it was", () => {
    const newestFirst = [
      update(2, { kind: "refresh", request: undefined }),
      update(3, { sleep: true, result: "failed" }),
      update(5, {}),
    ];
    expect(awakeTime(newestFirst, NOW).hours).toBe(5);
  });

  it("ends the awake time at a teardown", () => {
    const newestFirst = [update(2, { kind: "destroy", request: undefined }), update(5, {})];
    expect(awakeTime(newestFirst, NOW).hours).toBe(3);
  });

  it("counts an update that recorded no request as bringing the tenant up, so as not to undercount", () => {
    expect(awakeTime([update(4, { request: undefined })], NOW).hours).toBe(4);
  });

  it("counts only the window: a tenant awake for 40 days shows 29 whole days and today so far", () => {
    const { hours, days } = awakeTime([update(40 * 24, {})], NOW);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ date: "2026-11-07", hours: 24 });
    expect(days[29]).toEqual({ date: "2026-12-06", hours: 12 });
    expect(hours).toBe(29 * 24 + 12);
  });

  it("splits a night's awake time between the two days it spans", () => {
    // Awake from 22:00 on the 4th to 02:00 (plus the minute of the sleep) on the 5th.
    const newestFirst = [update(34, { sleep: true }), update(38, {})];
    const { days } = awakeTime(newestFirst, NOW);
    expect(days.find((d) => d.date === "2026-12-04")?.hours).toBe(2);
    expect(days.find((d) => d.date === "2026-12-05")?.hours).toBe(2);
    expect(days.find((d) => d.date === "2026-12-06")?.hours).toBe(0);
  });

  it("shows no time for a tenant with no history", () => {
    const { hours, days } = awakeTime([], NOW);
    expect(hours).toBe(0);
    expect(days.every((d) => d.hours === 0)).toBe(true);
  });
});
