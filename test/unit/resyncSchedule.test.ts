/**
 * When periodic resyncs fall (resyncSchedule.ts): each tenant once a period, at an offset its name
 * decides, the fleet spread over the period; run on fake timers, so no test waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resyncOffsetMs, scheduleResyncs } from "../../provider/server/resyncSchedule";

describe("a tenant's resync offset", () => {
  it("is the same for the same name, within the period", () => {
    expect(resyncOffsetMs("team-atlas", 600_000)).toBe(resyncOffsetMs("team-atlas", 600_000));
    for (const name of ["a", "team-atlas", "team-atlas-2", "z".repeat(63)]) {
      expect(resyncOffsetMs(name, 600_000)).toBeGreaterThanOrEqual(0);
      expect(resyncOffsetMs(name, 600_000)).toBeLessThan(600_000);
    }
  });

  it("spreads a fleet of similar names over the period", () => {
    const period = 600_000;
    const names = Array.from({ length: 200 }, (_, i) => `team-${i}`);
    const tenths = new Array(10).fill(0);
    for (const name of names) tenths[Math.floor((resyncOffsetMs(name, period) / period) * 10)]++;
    // 20 a tenth if even; none far from it.
    for (const count of tenths) expect(count).toBeGreaterThan(8);
  });
});

describe("the resync schedule", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("resyncs each tenant once a period at its offset, and nothing once stopped", async () => {
    const period = 60_000;
    const names = ["team-atlas", "team-borealis", "team-cygnus"];
    const resynced: [string, number][] = [];
    const stop = new AbortController();
    const start = Date.now();
    scheduleResyncs(
      period,
      async () => names,
      (name) => resynced.push([name, Date.now() - start]),
      () => {},
      stop.signal,
    );
    await vi.advanceTimersByTimeAsync(2 * period);
    const first = names.map((name) => [name, resyncOffsetMs(name, period)]);
    const second = names.map((name) => [name, period + resyncOffsetMs(name, period)]);
    expect(resynced.sort((a, b) => a[1] - b[1])).toEqual(
      [...first, ...second].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    stop.abort();
    const count = resynced.length;
    await vi.advanceTimersByTimeAsync(3 * period);
    expect(resynced).toHaveLength(count);
  });

  it("reports a failed list and tries again at the next period", async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const stop = new AbortController();
    scheduleResyncs(
      1_000,
      async () => {
        calls++;
        throw new Error("the API server did not answer");
      },
      () => {},
      (error) => errors.push(error),
      stop.signal,
    );
    await vi.advanceTimersByTimeAsync(2_500);
    expect(calls).toBe(3);
    expect(errors).toHaveLength(3);
    stop.abort();
  });
});
