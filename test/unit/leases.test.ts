/** Holding a Lease, against a stand-in Lease store that checks resourceVersions as the API server does. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { holdLease, LeaseObserver, leaseTiming, tryAcquireOrRenew } from "../../provider/server/replicas/leases";
import { FakeLeaseStore } from "./support/fakeLeaseStore";

let now: number;
const clock = () => new Date(now);
const options = (identity: string) => ({ identity, leaseDurationSeconds: 15, now: clock });

beforeEach(() => {
  now = Date.UTC(2026, 11, 1);
});

describe("tryAcquireOrRenew", () => {
  it("gives the Lease to the first replica, keeps the second out while the first renews, and hands it over once it stops", async () => {
    const store = new FakeLeaseStore();
    const [a, b] = [new LeaseObserver(), new LeaseObserver()];
    expect(await tryAcquireOrRenew(store, options("a"), a)).toBe(true);
    expect(await tryAcquireOrRenew(store, options("b"), b)).toBe(false);
    for (let i = 0; i < 5; i++) {
      now += 5_000;
      expect(await tryAcquireOrRenew(store, options("a"), a)).toBe(true);
      expect(await tryAcquireOrRenew(store, options("b"), b)).toBe(false);
    }
    // a stops renewing: b waits a whole duration from when it last saw a change.
    now += 15_000;
    expect(await tryAcquireOrRenew(store, options("b"), b)).toBe(false);
    now += 1_000;
    expect(await tryAcquireOrRenew(store, options("b"), b)).toBe(true);
    expect(store.lease).toMatchObject({ holderIdentity: "b", leaseTransitions: 1 });
    // a comes back: it is not the holder any more, and the Lease is fresh.
    expect(await tryAcquireOrRenew(store, options("a"), a)).toBe(false);
  });

  it("lets exactly one of two replicas take an expired Lease in the same round", async () => {
    const store = new FakeLeaseStore();
    await tryAcquireOrRenew(store, options("old"), new LeaseObserver());
    const [b, c] = [new LeaseObserver(), new LeaseObserver()];
    await tryAcquireOrRenew(store, options("b"), b);
    await tryAcquireOrRenew(store, options("c"), c);
    now += 16_000;
    // Both read the same version before either writes.
    const read = store.read.bind(store);
    const snapshot = await read();
    store.read = async () => snapshot && { ...snapshot };
    const results = await Promise.all([
      tryAcquireOrRenew(store, options("b"), b),
      tryAcquireOrRenew(store, options("c"), c),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("judges expiry by its own clock, not the holder's renewTime: a holder whose clock runs ahead keeps its Lease while it renews", async () => {
    const store = new FakeLeaseStore();
    const observer = new LeaseObserver();
    await tryAcquireOrRenew(store, { ...options("a"), now: () => new Date(now - 60_000) }, new LeaseObserver());
    expect(await tryAcquireOrRenew(store, options("b"), observer)).toBe(false);
  });
});

describe("holdLease", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  const timing = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 };

  it("runs the work holding the Lease, renews it while the work runs, and removes it once the work has settled", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const renewals: (Date | undefined)[] = [];
    const holding = holdLease(store, { identity: "a", ...timing }, new LeaseObserver(), async (held) => {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        renewals.push(store.lease?.renewTime);
      }
      return held.aborted ? "aborted" : "finished";
    });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await holding).toEqual({ held: true, value: "finished" });
    expect(new Set(renewals.map((r) => r?.getTime())).size).toBe(3);
    expect(store.lease).toBeUndefined();
  });

  it("never runs the work while another replica holds the Lease", async () => {
    const store = new FakeLeaseStore();
    await tryAcquireOrRenew(store, options("b"), new LeaseObserver());
    const work = vi.fn(async () => "ran");
    expect(await holdLease(store, { identity: "a", ...timing }, new LeaseObserver(), work)).toEqual({ held: false });
    expect(work).not.toHaveBeenCalled();
    expect(store.lease?.holderIdentity).toBe("b");
  });

  it("takes over a Lease its expiry judges gone at once, and leaves a Lease another replica took over in place", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    await tryAcquireOrRenew(store, options("gone"), new LeaseObserver());
    let aborted: AbortSignal | undefined;
    const holding = holdLease(
      store,
      { identity: "a", ...timing },
      { expired: (lease) => lease.holderIdentity === "gone" },
      async (held) => {
        aborted = held;
        await new Promise((resolve) => held.addEventListener("abort", resolve));
        return "stopped";
      },
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(store.lease?.holderIdentity).toBe("a");
    store.lease = { ...store.lease, holderIdentity: "b", renewTime: new Date() };
    await vi.advanceTimersByTimeAsync(2_000);
    expect(aborted?.aborted).toBe(true);
    expect(await holding).toEqual({ held: true, value: "stopped" });
    expect(store.lease?.holderIdentity).toBe("b");
  });

  it("goes on through a renewal that failed", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const errors: unknown[] = [];
    let held!: AbortSignal;
    let finish!: () => void;
    const holding = holdLease(
      store,
      { identity: "a", ...timing, onError: (e) => errors.push(e) },
      new LeaseObserver(),
      (signal) => ((held = signal), new Promise<void>((resolve) => (finish = resolve))),
    );
    await vi.advanceTimersByTimeAsync(1);
    const { replace } = store;
    store.replace = async () => {
      throw new Error("API server unreachable");
    };
    await vi.advanceTimersByTimeAsync(2_000);
    expect(errors).toHaveLength(1);
    expect(held.aborted).toBe(false);
    store.replace = replace;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(held.aborted).toBe(false);
    finish();
    await holding;
  });

  it("aborts the work at the renew deadline, before the lease duration, when its Lease calls hang; the hung call is aborted", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const lost: number[] = [];
    const start = Date.now();
    const holding = holdLease(store, { identity: "a", ...timing }, new LeaseObserver(), async (held) => {
      await new Promise((resolve) => held.addEventListener("abort", resolve));
      lost.push(Date.now() - start);
    });
    await vi.advanceTimersByTimeAsync(1);
    expect(store.lease?.holderIdentity).toBe("a");
    // From now on every call hangs, and takes no notice of its signal.
    const hung: AbortSignal[] = [];
    store.read = (signal?: AbortSignal) => {
      if (signal) hung.push(signal);
      return new Promise(() => {});
    };
    await vi.advanceTimersByTimeAsync(10_000 - 2);
    expect(lost).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lost).toEqual([10_000]);
    // The removal at the end hangs too, and is cut off at its own deadline.
    await vi.advanceTimersByTimeAsync(10_000);
    await holding;
    expect(hung.length).toBeGreaterThan(0);
    expect(hung.every((signal) => signal.aborted)).toBe(true);
  });

  it.each<[string, object, RegExp]>([
    [
      "a renew deadline as long as the lease",
      { leaseDurationSeconds: 15, renewDeadlineSeconds: 15 },
      /renewDeadlineSeconds \(15\) must be shorter than leaseDurationSeconds \(15\)/,
    ],
    [
      "a retry period as long as the renew deadline",
      { renewDeadlineSeconds: 4, retryPeriodSeconds: 4 },
      /retryPeriodSeconds \(4\) must be shorter than renewDeadlineSeconds \(4\)/,
    ],
  ])("refuses %s", (_, timing, message) => {
    expect(() => leaseTiming({ identity: "a", ...timing })).toThrow(message);
  });
});
