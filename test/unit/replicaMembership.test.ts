/** The live replicas, as their Leases say, against stand-in Leases that check resourceVersions as the API server does. */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import {
  ReplicaMembership,
  replicaLeaseName,
  type ReplicaLeases,
} from "../../provider/server/replicas/replicaMembership";
import { FakeLeaseStore } from "./support/fakeLeaseStore";

/** The stand-in API server's Leases, by name. */
let leases: Map<string, FakeLeaseStore>;
const api: ReplicaLeases = {
  lease: (name) => {
    if (!leases.has(name)) leases.set(name, new FakeLeaseStore());
    return leases.get(name)!;
  },
  list: async () => [...leases].flatMap(([name, store]) => (store.lease ? [{ ...store.lease, name }] : [])),
};
const timing = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 };

/** Replica `identity`, running until its controller aborts. */
function replica(identity: string) {
  const membership = new ReplicaMembership(api, replicaLeaseName("kubespaces-server", identity), {
    identity,
    ...timing,
  });
  const stop = new AbortController();
  const running = membership.run(stop.signal);
  return { membership, stop, running };
}

beforeEach(() => {
  leases = new Map();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it("lists every replica whose Lease is renewed, tells its subscribers when that changes, and removes its own Lease on a clean stop", async () => {
  const a = replica("a");
  await a.membership.listed;
  expect(a.membership.replicas()).toEqual(["a"]);
  const seen: (readonly string[])[] = [];
  a.membership.subscribe((replicas) => seen.push(replicas));
  const b = replica("b");
  await vi.advanceTimersByTimeAsync(2_001);
  expect(a.membership.replicas()).toEqual(["a", "b"]);
  expect(b.membership.replicas()).toEqual(["a", "b"]);
  expect(seen).toEqual([["a", "b"]]);

  b.stop.abort();
  await b.running;
  expect(leases.get(replicaLeaseName("kubespaces-server", "b"))?.lease).toBeUndefined();
  await vi.advanceTimersByTimeAsync(2_001);
  expect(a.membership.replicas()).toEqual(["a"]);
  expect(a.membership.isGone("b")).toBe(false);
  a.stop.abort();
  await a.running;
});

it("counts a killed replica gone once its Lease went a whole duration unrenewed, then removes its Lease", async () => {
  const a = replica("a");
  const b = replica("b");
  await vi.advanceTimersByTimeAsync(2_001);
  expect(a.membership.replicas()).toEqual(["a", "b"]);
  // b is killed: its Lease stays, unrenewed.
  const bLease = leases.get(replicaLeaseName("kubespaces-server", "b"))!;
  const kept = bLease.lease;
  b.stop.abort();
  await b.running;
  bLease.lease = kept;
  await vi.advanceTimersByTimeAsync(14_000);
  expect(a.membership.replicas()).toEqual(["a", "b"]);
  await vi.advanceTimersByTimeAsync(4_000);
  expect(a.membership.replicas()).toEqual(["a"]);
  expect(a.membership.isGone("b")).toBe(true);
  expect(bLease.lease).toBeDefined();
  await vi.advanceTimersByTimeAsync(4 * 15_000);
  expect(bLease.lease).toBeUndefined();
  a.stop.abort();
  await a.running;
});

it("names a replica's Lease after its identity, made a valid object name that keeps identities apart", () => {
  expect(replicaLeaseName("kubespaces-server", "kubespaces-server-7d9f-x2")).toBe(
    "kubespaces-server-replica-kubespaces-server-7d9f-x2",
  );
  const odd = replicaLeaseName("kubespaces-server", "Host_A-123");
  expect(odd).toMatch(/^kubespaces-server-replica-host-a-123-[0-9a-f]{10}$/);
  expect(replicaLeaseName("kubespaces-server", "host_a-123")).not.toBe(odd);
  expect(replicaLeaseName("kubespaces-server", "x".repeat(400)).length).toBeLessThanOrEqual(253);
});
