/** Leader election over a Lease, against a stand-in Lease store that checks resourceVersions as the API server does. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  LeaseObserver,
  runLeaseElection,
  tryAcquireOrRenew,
  type LeaseRecord,
  type LeaseStore,
} from "../../provider/server/leaseElection";

/** A stand-in for one Lease on the API server: writes carry the version they read, or fail as a 409 would. */
class FakeLeaseStore implements LeaseStore {
  lease?: LeaseRecord;
  private version = 0;
  async read() {
    return this.lease && { ...this.lease };
  }
  async create(record: LeaseRecord) {
    if (this.lease) return false;
    this.lease = { ...record, resourceVersion: String(++this.version) };
    return true;
  }
  async replace(record: LeaseRecord) {
    if (!this.lease || record.resourceVersion !== this.lease.resourceVersion) return false;
    this.lease = { ...record, resourceVersion: String(++this.version) };
    return true;
  }
}

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

describe("runLeaseElection", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls lead once when it wins, aborts its signal when it stops, and gives the Lease up", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const stop = new AbortController();
    const leads: AbortSignal[] = [];
    const running = runLeaseElection(
      store,
      { identity: "a", retryPeriodSeconds: 5 },
      (s) => void leads.push(s),
      stop.signal,
    );
    await vi.advanceTimersByTimeAsync(20_000);
    expect(leads).toHaveLength(1);
    expect(leads[0].aborted).toBe(false);
    stop.abort();
    await running;
    expect(leads[0].aborted).toBe(true);
    expect(store.lease?.holderIdentity).toBeUndefined();
  });

  it("goes on leading through a renewal that failed, and stops at once when another replica holds the Lease", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const stop = new AbortController();
    const leads: AbortSignal[] = [];
    const errors: unknown[] = [];
    const running = runLeaseElection(
      store,
      { identity: "a", retryPeriodSeconds: 5, onError: (e) => errors.push(e) },
      (s) => void leads.push(s),
      stop.signal,
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(leads).toHaveLength(1);
    const { replace } = store;
    store.replace = async () => {
      throw new Error("API server unreachable");
    };
    await vi.advanceTimersByTimeAsync(5_000);
    expect(errors).toHaveLength(1);
    expect(leads[0].aborted).toBe(false);

    store.replace = replace;
    store.lease = { ...store.lease, holderIdentity: "b", renewTime: new Date() };
    await vi.advanceTimersByTimeAsync(5_000);
    expect(leads[0].aborted).toBe(true);
    stop.abort();
    await running;
  });

  it("stops leading at the renew deadline, before the lease duration, when its Lease calls hang; the hung call is aborted", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const stop = new AbortController();
    const lost: number[] = [];
    const start = Date.now();
    const running = runLeaseElection(
      store,
      { identity: "a", leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 },
      (leading) => leading.addEventListener("abort", () => lost.push(Date.now() - start)),
      stop.signal,
    );
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
    expect(hung.length).toBeGreaterThan(0);
    expect(hung.every((signal) => signal.aborted)).toBe(true);
    stop.abort();
    await running;
  });

  it("tries again only once the work it led has stopped, and leads again when it wins", async () => {
    vi.useFakeTimers();
    const store = new FakeLeaseStore();
    const stop = new AbortController();
    const leads: AbortSignal[] = [];
    let workStopped!: () => void;
    const running = runLeaseElection(
      store,
      { identity: "a", leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 },
      (leading) => {
        leads.push(leading);
        return new Promise<void>((resolve) => (workStopped = resolve));
      },
      stop.signal,
    );
    await vi.advanceTimersByTimeAsync(1);
    const { read } = store;
    let calls = 0;
    store.read = () => (calls++, new Promise(() => {}));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(leads[0].aborted).toBe(true);
    // The Lease answers again, but the work has not stopped: no call, no new lead.
    store.read = (...args) => (calls++, read.apply(store, args));
    calls = 0;
    await vi.advanceTimersByTimeAsync(20_000);
    expect([calls, leads.length]).toEqual([0, 1]);
    workStopped();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(leads).toHaveLength(2);
    expect(leads[1].aborted).toBe(false);
    stop.abort();
    workStopped();
    await running;
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
  ])("refuses %s", async (_, timing, message) => {
    const election = runLeaseElection(
      new FakeLeaseStore(),
      { identity: "a", ...timing },
      () => {},
      new AbortController().signal,
    );
    await expect(election).rejects.toThrow(message);
  });
});
