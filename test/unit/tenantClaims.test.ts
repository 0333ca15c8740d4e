/** A tenant's claim: the Lease a replica holds while it reconciles the tenant. */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { TenantClaims } from "../../provider/server/replicas/tenantClaims";
import { tryAcquireOrRenew, LeaseObserver } from "../../provider/server/replicas/leases";
import { FakeLeaseStore } from "./support/fakeLeaseStore";

let claims: Map<string, FakeLeaseStore>;
const claimOf = (tenant: string) => {
  if (!claims.has(tenant)) claims.set(tenant, new FakeLeaseStore());
  return claims.get(tenant)!;
};
const timing = { leaseDurationSeconds: 15, renewDeadlineSeconds: 10, retryPeriodSeconds: 2 };

beforeEach(() => {
  claims = new Map();
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

it("lets one replica reconcile a tenant at a time, and leaves no claim once it is done", async () => {
  const a = new TenantClaims(claimOf, { identity: "a", ...timing }, () => false);
  const b = new TenantClaims(claimOf, { identity: "b", ...timing }, () => false);
  let finish!: () => void;
  const holding = a.hold("team-a", () => new Promise<string>((resolve) => (finish = () => resolve("done"))));
  await vi.advanceTimersByTimeAsync(1);
  const other = vi.fn(async () => "ran");
  expect(await b.hold("team-a", other)).toEqual({ held: false });
  expect(await b.hold("team-b", other)).toEqual({ held: true, value: "ran" });
  finish();
  expect(await holding).toEqual({ held: true, value: "done" });
  expect(claims.get("team-a")!.lease).toBeUndefined();
  expect(await b.hold("team-a", other)).toEqual({ held: true, value: "ran" });
});

it("takes over the claim of a replica known gone at once, and a live replica's only once it went a whole duration unrenewed", async () => {
  await tryAcquireOrRenew(claimOf("team-gone"), { identity: "dead" }, new LeaseObserver());
  await tryAcquireOrRenew(claimOf("team-stuck"), { identity: "stuck" }, new LeaseObserver());
  const b = new TenantClaims(claimOf, { identity: "b", ...timing }, (identity) => identity === "dead");
  const work = async () => "ran";
  expect(await b.hold("team-gone", work)).toEqual({ held: true, value: "ran" });
  expect(await b.hold("team-stuck", work)).toEqual({ held: false });
  await vi.advanceTimersByTimeAsync(15_001);
  expect(await b.hold("team-stuck", work)).toEqual({ held: true, value: "ran" });
});

it("stops the work when the caller's signal aborts (the server is stopping), and then removes the claim", async () => {
  const a = new TenantClaims(claimOf, { identity: "a", ...timing }, () => false);
  const stopping = new AbortController();
  const holding = a.hold(
    "team-a",
    (held) => new Promise<string>((resolve) => held.addEventListener("abort", () => resolve("cancelled"))),
    stopping.signal,
  );
  await vi.advanceTimersByTimeAsync(1);
  expect(claims.get("team-a")!.lease?.holderIdentity).toBe("a");
  stopping.abort();
  expect(await holding).toEqual({ held: true, value: "cancelled" });
  expect(claims.get("team-a")!.lease).toBeUndefined();
});
