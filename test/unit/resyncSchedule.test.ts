/**
 * When periodic resyncs fall (resyncSchedule.ts): each tenant once a period, at an offset its name
 * decides, the fleet spread over the period; run on fake timers, so no test waits.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RESYNC_SLICES, resyncOffsetMs, scheduleResyncs } from "../../provider/server/reconcile/resyncSchedule";

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
      () => names,
      (name) => resynced.push([name, Date.now() - start]),
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

  it("resyncs a tenant made during a period within that period when its offset is still ahead", async () => {
    const period = 60_000;
    const slice = period / RESYNC_SLICES;
    // A name whose offset falls after the first two slices, and one whose offset falls in the first.
    const names = Array.from({ length: 100 }, (_, i) => `team-${i}`);
    const late = names.find((name) => resyncOffsetMs(name, period) >= 2 * slice)!;
    const early = names.find((name) => resyncOffsetMs(name, period) < slice / 2)!;
    const known: string[] = [];
    const resynced: [string, number][] = [];
    const stop = new AbortController();
    const start = Date.now();
    scheduleResyncs(
      period,
      () => known,
      (name) => resynced.push([name, Date.now() - start]),
      stop.signal,
    );
    // Both are made once the first slice has been read.
    await vi.advanceTimersByTimeAsync(slice + 1);
    known.push(late, early);
    await vi.advanceTimersByTimeAsync(2 * period);
    stop.abort();
    // The late one in this period at its offset; the early one, whose slice was read before it was
    // made, only in the next period, and then a period apart.
    expect(resynced.filter(([name]) => name === late).map(([, at]) => at)).toEqual([
      resyncOffsetMs(late, period),
      period + resyncOffsetMs(late, period),
    ]);
    expect(resynced.filter(([name]) => name === early).map(([, at]) => at)).toEqual([
      period + resyncOffsetMs(early, period),
      2 * period + resyncOffsetMs(early, period),
    ]);
  });

  it("reads the tenants once a slice, and resyncs no tenant that went", async () => {
    const period = 12_000;
    let reads = 0;
    const known = new Set(Array.from({ length: 50 }, (_, i) => `team-${i}`));
    const resynced: string[] = [];
    const stop = new AbortController();
    scheduleResyncs(
      period,
      () => {
        reads++;
        return [...known];
      },
      (name) => resynced.push(name),
      stop.signal,
    );
    known.clear();
    await vi.advanceTimersByTimeAsync(period);
    stop.abort();
    // The first slice's were scheduled before the tenants went; nothing after.
    const firstSlice = [...Array.from({ length: 50 }, (_, i) => `team-${i}`)].filter(
      (name) => resyncOffsetMs(name, period) < period / RESYNC_SLICES,
    );
    expect(resynced.sort()).toEqual(firstSlice.sort());
    expect(reads).toBe(RESYNC_SLICES + 1);
  });
});
