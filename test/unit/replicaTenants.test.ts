/** This replica's share of the tenants its watch knows, worked out again when the tenants or the replicas change. */
import { setImmediate as nextTurn } from "node:timers/promises";
import { expect, it } from "vitest";
import { ReplicaTenants } from "../../provider/server/replicas/replicaTenants";
import { assignTenants } from "../../provider/server/replicas/tenantOwnership";

const names = Array.from({ length: 40 }, (_, i) => `team-${i}`);

it("hands on each tenant it gains once, at the next turn, with whether it has a status; owns only its share", async () => {
  let replicas = ["a"];
  const gained: [string, boolean][] = [];
  const tenants = new ReplicaTenants(
    "a",
    () => replicas,
    (name, hasStatus) => gained.push([name, hasStatus]),
  );
  for (const name of names) expect(tenants.seen(name, name !== "team-0")).toBe(true);
  expect(tenants.seen("team-1", true)).toBe(false);
  expect(gained).toEqual([]);
  await nextTurn();
  expect(gained.map(([name]) => name).sort()).toEqual([...names].sort());
  expect(gained.find(([name]) => name === "team-0")).toEqual(["team-0", false]);
  expect(tenants.size).toBe(names.length);

  // A second replica joins: this one keeps its half, and gains nothing.
  replicas = ["a", "b"];
  gained.length = 0;
  tenants.reassign();
  await nextTurn();
  expect(gained).toEqual([]);
  const owners = assignTenants(names, ["a", "b"]);
  expect(names.filter((name) => tenants.owns(name))).toEqual(names.filter((name) => owners.get(name) === "a"));
  expect(tenants.size).toBe(names.length / 2);

  // b goes: its tenants come back to a.
  replicas = ["a"];
  tenants.reassign();
  await nextTurn();
  expect(gained.map(([name]) => name).sort()).toEqual(names.filter((name) => owners.get(name) === "b").sort());
});

it("forgets a tenant gone from the host", async () => {
  const tenants = new ReplicaTenants(
    "a",
    () => ["a"],
    () => {},
  );
  tenants.seen("team-x", true);
  await nextTurn();
  expect(tenants.owns("team-x")).toBe(true);
  tenants.gone("team-x");
  await nextTurn();
  expect(tenants.owns("team-x")).toBe(false);
  expect(tenants.seen("team-x", true)).toBe(true);
});
