/**
 * Caps per owner: what one person may hold across their tenants, asked of a new tenant, a change
 * and a wake; at the people's doors (OwnedTenants, over the stand-in host) before anything is made.
 */
import { describe, expect, it } from "vitest";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { OwnedTenants } from "../../provider/server/people/ownedTenants";
import {
  capsUseText,
  ownerCapsSchema,
  ownerUse,
  refuseOverCaps,
  type OwnerCaps,
} from "../../provider/tenants/ownerCaps";
import type { Actor } from "../../provider/tenants/ports";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";
import { thrownBy } from "./support/thrown";
import { StandInPeopleHost } from "./support/standInPeopleHost";
import { StandInStackHistories } from "./support/standInStackHistories";
import { StandInStackPreviews } from "./support/standInStackPreviews";

const ALICE = "alice@example.com";
const BOB = "bob@example.com";
const request = (owner: string, fields: Partial<TenantRequestInput> = {}): TenantRequestInput =>
  ({ owner, resources: { cpu: "4", memory: "8Gi" }, ...fields }) as TenantRequestInput;
const stored = (name: string, spec: TenantRequestInput) => ({ name, spec });

/** The problems `refuseOverCaps` names, or none when it lets the request through. */
function problems(
  name: string,
  wanted: TenantRequestInput,
  others: { name: string; spec: TenantRequestInput }[],
  caps: OwnerCaps,
  isNew = true,
): readonly string[] {
  try {
    refuseOverCaps(name, wanted, others, { caps, policy: {}, isNew });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(RequestInvalidError);
    return (error as RequestInvalidError).problems;
  }
}

describe("the caps per owner", () => {
  const aliceHas = [stored("team-a", request(ALICE)), stored("team-b", request(ALICE, { sleep: true }))];

  it("counts only the owner's own tenants, and names the cap, what is held and where", () => {
    const others = [...aliceHas, stored("bobs", request(BOB))];
    expect(problems("team-c", request(ALICE), others, { tenants: 2 })).toEqual([
      "caps.perOwner.tenants: alice@example.com may own 2 tenant(s) and owns 2 (team-a, team-b)",
    ]);
    expect(problems("team-c", request(ALICE), others, { tenants: 3 })).toEqual([]);
    expect(problems("bob-2", request(BOB), others, { tenants: 2 })).toEqual([]);
  });

  it("counts a tenant against `tenants` only when it is new, and leaves the tenant itself out", () => {
    expect(
      problems("team-a", request(ALICE, { resources: { cpu: "5", memory: "8Gi" } }), aliceHas, { tenants: 2 }, false),
    ).toEqual([]);
  });

  it("counts the awake ones against `awake`; a sleeping one is not awake, and a request to sleep always passes", () => {
    expect(problems("team-c", request(ALICE), aliceHas, { awake: 1 })).toEqual([
      "caps.perOwner.awake: alice@example.com may have 1 tenant(s) awake and has 1 (team-a); put one to sleep first",
    ]);
    expect(problems("team-c", request(ALICE), aliceHas, { awake: 2 })).toEqual([]);
    expect(problems("team-c", request(ALICE, { sleep: true }), aliceHas, { awake: 0, tenants: 1, cpu: "1" })).toEqual(
      [],
    );
  });

  it("sums the quotas of every tenant of the owner, asleep or not, with the policy's defaults for what a request leaves out", () => {
    // team-a and team-b ask for 4 CPU each; team-c asks for nothing, and gets the default 4.
    expect(problems("team-c", request(ALICE, { resources: undefined }), aliceHas, { cpu: "11" })).toEqual([
      "caps.perOwner.cpu: alice@example.com's tenants may ask for 11 together; the others (team-a, team-b) ask for 8, this one for 4",
    ]);
    expect(problems("team-c", request(ALICE, { resources: undefined }), aliceHas, { cpu: "12" })).toEqual([]);
    expect(problems("team-c", request(ALICE), aliceHas, { memory: "20Gi" })).toEqual([
      "caps.perOwner.memory: alice@example.com's tenants may ask for 20Gi together; the others (team-a, team-b) ask for 16Gi, this one for 8Gi",
    ]);
  });

  it("names every cap a request breaks at once, in its message too", () => {
    const error = thrownBy(() =>
      refuseOverCaps("team-c", request(ALICE), aliceHas, { caps: { tenants: 2, cpu: "8" }, policy: {}, isNew: true }),
    ) as RequestInvalidError;
    expect(error.problems.map((p) => p.split(":")[0])).toEqual(["caps.perOwner.tenants", "caps.perOwner.cpu"]);
    expect(error.message).toContain(
      "tenant team-c would take alice@example.com above the platform's caps per owner: caps.perOwner.tenants:",
    );
  });

  it("has no cap unless one is set, and refuses a cap that is not one", () => {
    expect(problems("team-c", request(ALICE), aliceHas, {})).toEqual([]);
    expect(ownerCapsSchema.safeParse({ tenants: 0 }).success).toBe(false);
    expect(ownerCapsSchema.safeParse({ cpu: "lots" }).success).toBe(false);
    expect(ownerCapsSchema.safeParse({ teams: 2 }).success).toBe(false);
  });
});

describe("an owner's use against the caps", () => {
  it("counts the owner's tenants, the awake ones and their quotas' sums, and words each cap set", () => {
    const all = [
      stored("team-a", request(ALICE)),
      stored("team-b", request(ALICE, { sleep: true, resources: { cpu: "3", memory: "4Gi", storage: "10Gi" } })),
      stored("bobs", request(BOB)),
    ];
    const use = ownerUse(ALICE, all, {});
    // team-a's storage is the policy's default, 20Gi.
    expect(use).toEqual({ tenants: 2, awake: 1, cpu: 7, memory: 12 * 2 ** 30, storage: 30 * 2 ** 30 });
    expect(capsUseText({ tenants: 3, awake: 1, cpu: "8", storage: "100Gi" }, use)).toEqual([
      "tenants 2 of 3",
      "awake 1 of 1",
      "cpu 7 of 8",
      "storage 30Gi of 100Gi",
    ]);
    expect(capsUseText(undefined, use)).toEqual([]);
  });
});

describe("the caps at the people's doors", () => {
  const alice: Actor = { owner: ALICE, groups: [], isAdmin: false };
  const door = (host: StandInPeopleHost, caps: OwnerCaps) =>
    new OwnedTenants(host, {}, new StandInStackPreviews(), new StandInStackHistories(), caps);

  it("refuses a create and its preview above a cap before anything is made", async () => {
    const host = new StandInPeopleHost();
    const tenants = door(host, { tenants: 1 });
    await tenants.create("team-a", { resources: { cpu: "4", memory: "8Gi" } }, alice);
    for (const ask of [
      () => tenants.create("team-b", { resources: { cpu: "4", memory: "8Gi" } }, alice),
      () => tenants.previewCreate("team-b", { resources: { cpu: "4", memory: "8Gi" } }, alice),
    ])
      await expect(ask()).rejects.toThrow(
        "caps.perOwner.tenants: alice@example.com may own 1 tenant(s) and owns 1 (team-a)",
      );
    expect((await host.tenants.list()).map((t) => t.metadata.name)).toEqual(["team-a"]);
  });

  it("refuses a create and a wake above the awake cap, and lets a sleep through", async () => {
    const host = new StandInPeopleHost();
    const tenants = door(host, { awake: 1 });
    const small = { resources: { cpu: "4", memory: "8Gi" } };
    await tenants.create("team-a", small, alice);
    await expect(tenants.create("team-b", small, alice)).rejects.toThrow(
      "caps.perOwner.awake: alice@example.com may have 1 tenant(s) awake and has 1 (team-a)",
    );
    await tenants.setSleep("team-a", true, alice);
    await tenants.create("team-b", small, alice);
    await expect(tenants.setSleep("team-a", false, alice)).rejects.toThrow(
      "caps.perOwner.awake: alice@example.com may have 1 tenant(s) awake and has 1 (team-b)",
    );
    await tenants.setSleep("team-b", true, alice);
    expect((await tenants.setSleep("team-a", false, alice)).spec.sleep).toBe(false);
  });
});
