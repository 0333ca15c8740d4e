/** The reconciler's work queue: one run per tenant at a time, a limit across tenants, backoff, stop. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReconcileQueue, type ReconcileQueueOptions } from "../../provider/server/reconcile/reconcileQueue";
import { deferred, type Deferred } from "./support/fakeTenantStacks";

/** A queue of `options` (retries first after a second) over work whose runs the test finishes one by one. */
function scriptedQueue(options: Omit<ReconcileQueueOptions, "initialBackoffMs">) {
  type Result = { retry: boolean; revisitAt?: number };
  const runs: { name: string; resync: boolean; signal: AbortSignal; done: Deferred<Result> }[] = [];
  const work = vi.fn((name: string, run: { resync: boolean; signal: AbortSignal }) => {
    const done = deferred<Result>();
    runs.push({ name, ...run, done });
    return done.promise;
  });
  return { runs, work, queue: new ReconcileQueue(work, { initialBackoffMs: 1000, ...options }) };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("ReconcileQueue", () => {
  it("brings a tenant back at the time its reconcile named, once; a later run's time replaces it, and stop clears it", async () => {
    const { runs, queue } = scriptedQueue({ concurrency: 1, maxBackoffMs: 8000 });
    queue.add("a");
    await flush();
    runs[0].done.resolve({ retry: false, revisitAt: Date.now() + 60_000 });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(2);
    // This run names a later time; the one before is spent, and only the new one comes.
    runs[1].done.resolve({ retry: false, revisitAt: Date.now() + 30_000 });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(runs).toHaveLength(3);
    runs[2].done.resolve({ retry: false, revisitAt: Date.now() + 10_000 });
    await flush();
    await queue.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(3);
  });

  it("waits at most setTimeout's limit for a visit far ahead, and looks again then", async () => {
    const { runs, queue } = scriptedQueue({ concurrency: 1, maxBackoffMs: 8000 });
    queue.add("a");
    await flush();
    runs[0].done.resolve({ retry: false, revisitAt: Date.now() + 90 * 86_400_000 });
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1);
    expect(runs).toHaveLength(2);
  });

  it("runs one reconcile per tenant at a time; a change during a run runs once more after it", async () => {
    const { runs, work, queue } = scriptedQueue({ concurrency: 4, maxBackoffMs: 8000 });
    queue.add("a");
    queue.add("a");
    await flush();
    expect(runs.map((r) => r.name)).toEqual(["a"]);
    queue.add("a");
    queue.add("a", true);
    await flush();
    expect(runs).toHaveLength(1);
    runs[0].done.resolve({ retry: false });
    await flush();
    expect(runs.map((r) => [r.name, r.resync])).toEqual([
      ["a", false],
      ["a", true],
    ]);
    runs[1].done.resolve({ retry: false });
    await queue.idle();
    expect(work).toHaveBeenCalledTimes(2);
  });

  it("runs different tenants side by side up to its limit", async () => {
    const { runs, queue } = scriptedQueue({ concurrency: 2, maxBackoffMs: 8000 });
    ["a", "b", "c"].forEach((n) => queue.add(n));
    await flush();
    expect(runs.map((r) => r.name)).toEqual(["a", "b"]);
    runs[1].done.resolve({ retry: false });
    await flush();
    expect(runs.map((r) => r.name)).toEqual(["a", "b", "c"]);
    expect(queue.size).toEqual({ running: 2, waiting: 0, retrying: 0 });
  });

  it("retries with a doubling backoff up to its cap, and forgets it after a success", async () => {
    const { runs, queue } = scriptedQueue({ concurrency: 1, maxBackoffMs: 3000 });
    queue.add("a");
    await flush();
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      runs.at(-1)!.done.resolve({ retry: true });
      await flush();
      const before = runs.length;
      let waited = 0;
      while (runs.length === before) {
        await vi.advanceTimersByTimeAsync(500);
        waited += 500;
      }
      delays.push(waited);
    }
    expect(delays).toEqual([1000, 2000, 3000]);
    runs.at(-1)!.done.resolve({ retry: false });
    await flush();
    expect(queue.size.retrying).toBe(0);
  });

  it("counts a reconcile that throws as one to retry, and reports it", async () => {
    const onError = vi.fn();
    const work = vi.fn().mockRejectedValueOnce(new Error("API server gone")).mockResolvedValue({ retry: false });
    const queue = new ReconcileQueue(work, { concurrency: 1, initialBackoffMs: 1000, maxBackoffMs: 1000, onError });
    queue.add("a");
    await flush();
    expect(onError).toHaveBeenCalledWith("a", expect.objectContaining({ message: "API server gone" }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(work).toHaveBeenCalledTimes(2);
  });

  it("stops: running reconciles are signalled, waiting and retrying ones dropped, nothing new starts", async () => {
    const { runs, queue } = scriptedQueue({ concurrency: 1, maxBackoffMs: 1000 });
    queue.add("a");
    queue.add("b");
    await flush();
    const stopped = queue.stop();
    expect(runs[0].signal.aborted).toBe(true);
    runs[0].done.resolve({ retry: true });
    await stopped;
    queue.add("c");
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs.map((r) => r.name)).toEqual(["a"]);
  });

  it("tells how long each tenant waited for a worker, from being asked for to its run starting", async () => {
    const waits: [string, number][] = [];
    const { runs, queue } = scriptedQueue({
      concurrency: 1,
      maxBackoffMs: 8000,
      onStart: (name, waitedMs) => waits.push([name, waitedMs]),
    });
    queue.add("a");
    queue.add("b");
    await flush();
    await vi.advanceTimersByTimeAsync(3000);
    runs[0].done.resolve({ retry: false });
    await flush();
    expect(waits).toEqual([
      ["a", 0],
      ["b", 3000],
    ]);
  });
});
