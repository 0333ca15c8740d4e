/** Which replica owns a tenant: rendezvous hashing over the live replicas. */
import { expect, it } from "vitest";
import { ownerOf } from "../../provider/server/tenantOwnership";

const tenants = Array.from({ length: 300 }, (_, i) => `team-${i}`);

it("gives every replica the same owner for a tenant, whatever the order it lists the replicas in; none without replicas", () => {
  for (const tenant of tenants.slice(0, 20)) {
    const owner = ownerOf(tenant, ["a", "b", "c"]);
    expect(ownerOf(tenant, ["c", "a", "b"])).toBe(owner);
    expect(ownerOf(tenant, ["b", "c", "a"])).toBe(owner);
  }
  expect(ownerOf("team-a", [])).toBeUndefined();
});

it("shares the tenants out over the replicas", () => {
  const counts = new Map<string, number>();
  for (const tenant of tenants)
    counts.set(ownerOf(tenant, ["a", "b", "c"])!, (counts.get(ownerOf(tenant, ["a", "b", "c"])!) ?? 0) + 1);
  expect([...counts.keys()].sort()).toEqual(["a", "b", "c"]);
  for (const count of counts.values()) expect(count).toBeGreaterThan(70);
});

it("moves only the tenants a joining replica gains, and only a going replica's tenants", () => {
  const before = new Map(tenants.map((t) => [t, ownerOf(t, ["a", "b", "c"])]));
  const joined = new Map(tenants.map((t) => [t, ownerOf(t, ["a", "b", "c", "d"])]));
  const moved = tenants.filter((t) => before.get(t) !== joined.get(t));
  expect(moved.length).toBeGreaterThan(0);
  expect(moved.every((t) => joined.get(t) === "d")).toBe(true);
  const left = new Map(tenants.map((t) => [t, ownerOf(t, ["a", "c"])]));
  expect(tenants.filter((t) => before.get(t) !== left.get(t)).every((t) => before.get(t) === "b")).toBe(true);
});
