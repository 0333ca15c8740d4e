/**
 * OwnedTenants on its own, over the stand-in host: what it refuses before the
 * host is asked anything, whichever front calls it.
 */
import { describe, expect, it } from "vitest";
import { OwnedTenants } from "../../provider/server/people/ownedTenants";
import type { Actor } from "../../provider/tenants/ports";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";
import { StandInPeopleHost } from "./support/standInPeopleHost";
import { StandInStackHistories } from "./support/standInStackHistories";
import { StandInStackPreviews } from "./support/standInStackPreviews";

const BOB: Actor = { owner: "bob@example.com", groups: [], isAdmin: false };
const ADMIN: Actor = { owner: "admin@example.com", groups: ["kubespaces-admins"], isAdmin: true };
/** The model's rule for a DNS label, as its refusal says it. */
const NOT_A_LABEL =
  "name: must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit";

describe("OwnedTenants", () => {
  const operations = [
    ["get", (door: OwnedTenants, name: string) => door.get(name, ADMIN)],
    ["delete", (door: OwnedTenants, name: string) => door.delete(name, ADMIN)],
    ["kubeconfig", (door: OwnedTenants, name: string) => door.kubeconfig(name, ADMIN)],
    ["quota", (door: OwnedTenants, name: string) => door.quota(name, ADMIN)],
    ["previewDelete", (door: OwnedTenants, name: string) => door.previewDelete(name, ADMIN)],
    [
      "follow",
      async (door: OwnedTenants, name: string) => {
        for await (const _ of door.follow(name, ADMIN, { signal: AbortSignal.timeout(5_000) })) return;
      },
    ],
  ] as const;

  it.each(operations)("refuses in %s a name no tenant can have, before the host is asked", async (_op, operation) => {
    const host = new StandInPeopleHost();
    const door = new OwnedTenants(host, {}, new StandInStackPreviews(), new StandInStackHistories());
    const names = ["", ".", "..", "Atlas", "a".repeat(64), "a,b"];
    const outcomes = await Promise.all(
      names.map((name) =>
        operation(door, name).then(
          () => "answered",
          (error: unknown) => (error instanceof RequestInvalidError ? error.problems[0]!.split(" (got")[0] : "failed"),
        ),
      ),
    );
    expect(outcomes).toEqual([
      NOT_A_LABEL,
      NOT_A_LABEL,
      NOT_A_LABEL,
      NOT_A_LABEL,
      "name: must be at most 63 characters",
      NOT_A_LABEL,
    ]);
    expect(host.asked).toEqual([]);
  });
});

describe("following a tenant", () => {
  it("ends for its old owner when an admin gives it to someone else, with nothing of it after", async () => {
    const host = new StandInPeopleHost();
    const door = new OwnedTenants(host, {}, new StandInStackPreviews(), new StandInStackHistories());
    await door.create("atlas", { resources: { cpu: "4", memory: "8Gi" } }, BOB);
    const stream = door.follow("atlas", BOB, { signal: AbortSignal.timeout(10_000) })[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toMatchObject({ tenant: { spec: { owner: BOB.owner } } });
    const second = stream.next();
    await expect.poll(() => host.watchers()).toBe(1);
    host.editSpec("atlas", { owner: "carol@example.com", resources: { cpu: "4", memory: "8Gi" } });
    host.writeStatus("atlas", { phase: "Ready", conditions: [], message: "carol's now" });
    const after: unknown[] = [];
    for (let next = await second; !next.done; next = await stream.next()) after.push(next.value);
    expect(after).toEqual([{ id: expect.any(String), deleted: true }]);
    expect(host.watchers()).toBe(0);
  });

  it("goes on for an admin, who may see every tenant", async () => {
    const host = new StandInPeopleHost();
    const door = new OwnedTenants(host, {}, new StandInStackPreviews(), new StandInStackHistories());
    await door.create("atlas", {}, BOB);
    const stream = door.follow("atlas", ADMIN, { signal: AbortSignal.timeout(10_000) })[Symbol.asyncIterator]();
    await stream.next();
    const second = stream.next();
    await expect.poll(() => host.watchers()).toBe(1);
    host.editSpec("atlas", { owner: "carol@example.com" });
    expect((await second).value).toMatchObject({ tenant: { spec: { owner: "carol@example.com" } } });
    await stream.return?.(undefined);
  });
});
