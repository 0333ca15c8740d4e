/** Which replica owns a tenant: rendezvous hashing with bounded loads, over the live replicas. */
import { expect, it } from "vitest";
import { assignTenants } from "../../provider/server/replicas/tenantOwnership";

const tenants = Array.from({ length: 300 }, (_, i) => `team-${i}`);
const counts = (owners: Map<string, string>) => {
  const held = new Map<string, number>();
  for (const owner of owners.values()) held.set(owner, (held.get(owner) ?? 0) + 1);
  return held;
};

it("gives every replica the same owners, whatever the order it lists the tenants and replicas in; none without replicas", () => {
  const owners = assignTenants(tenants, ["a", "b", "c"]);
  expect(assignTenants([...tenants].reverse(), ["c", "a", "b"])).toEqual(owners);
  expect(owners.size).toBe(tenants.length);
  expect(assignTenants(tenants, []).size).toBe(0);
});

it("gives each replica its share, to within one tenant", () => {
  for (const replicas of [
    ["a", "b"],
    ["a", "b", "c"],
    ["a", "b", "c", "d"],
  ]) {
    for (const count of [200, 201, 7]) {
      const held = counts(assignTenants(tenants.slice(0, count), replicas));
      const loads = replicas.map((r) => held.get(r) ?? 0);
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
    }
  }
});

it("moves few tenants when a replica joins or goes, and a new tenant moves few others", () => {
  const moved = (before: Map<string, string>, after: Map<string, string>) =>
    tenants.filter((t) => before.get(t) !== undefined && after.get(t) !== undefined && before.get(t) !== after.get(t))
      .length;
  const three = assignTenants(tenants, ["a", "b", "c"]);
  // A fourth replica takes a quarter of the tenants; more than half moving would be a reshuffle.
  expect(moved(three, assignTenants(tenants, ["a", "b", "c", "d"]))).toBeLessThan(tenants.length / 2);
  expect(moved(three, assignTenants(tenants, ["a", "c"]))).toBeLessThan(tenants.length / 2);
  expect(moved(three, assignTenants([...tenants, "team-new"], ["a", "b", "c"]))).toBeLessThan(tenants.length / 10);
});
