/**
 * Each stage of a reconcile (provider/server/reconcile/stages/) on its own, called directly with
 * its context, over the real tenants service (requests as Tenant resources, runs in memory) and
 * stand-ins for the API server and the stacks (support/fakeTenantResources.ts,
 * support/fakeTenantStacks.ts). The whole pipeline's behaviour is in tenantReconciler.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  PREVIEW_ONLY_ANNOTATION,
  TENANT_FINALIZER,
} from "../../provider/contracts/tenantResourceNames";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { MemoryRunJournals } from "../../provider/server/memoryRunJournals";
import { ExpiryStage, expiryInForce } from "../../provider/server/reconcile/stages/expiryStage";
import { holdWithFinalizer } from "../../provider/server/reconcile/stages/finalizerStage";
import { holdingGate } from "../../provider/server/reconcile/stages/gates";
import { ProvisioningStage } from "../../provider/server/reconcile/stages/provisioningStage";
import type { StageContext } from "../../provider/server/reconcile/stages/stageContext";
import { tearDown } from "../../provider/server/reconcile/stages/teardownStage";
import { TenantStatusWrites } from "../../provider/server/reconcile/stages/tenantStatusWrites";
import { specSha256 } from "../../provider/server/reconcile/tenantApproval";
import { ResourceRequestStore } from "../../provider/server/resourceRequestStore";
import type { TenantResource } from "../../provider/server/tenantResourcePort";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { FakeTenantResources } from "./support/fakeTenantResources";
import { FakeHost, FakeTenantStacks } from "./support/fakeTenantStacks";

const atlas = { owner: "alice@example.com", resources: { cpu: "4", memory: "8Gi" } } as unknown as TenantRequestInput;
const serverActor = { owner: "system:kubespaces-server:test", groups: ["kubespaces-admins"], isAdmin: true };
const NOW = Date.parse("2026-12-01T00:00:00Z");
const hoursFromNow = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

let resources: FakeTenantResources;
let stacks: FakeTenantStacks;
let service: TenantsService;
let events: string[];

/** A stage context over the stand-ins, with the approval gate as `requireApproval` says. */
const contextWith = (requireApproval = false, now = () => new Date(NOW)): StageContext => ({
  service,
  resources,
  config: {
    actor: serverActor,
    requireApproval,
    events: { record: async (_t, reason, note) => void events.push(`${reason}: ${note ?? ""}`) },
  },
  now,
});

/** The provisioning stage over `context`. */
const provisioningOf = (context: StageContext) =>
  new ProvisioningStage(context, new TenantStatusWrites(context), service);

/** Tenant `name` as the API server holds it now. */
const read = (name: string): TenantResource => resources.peek(name)!;

beforeEach(() => {
  resources = new FakeTenantResources();
  stacks = new FakeTenantStacks();
  service = new TenantsService(
    { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
    { policy: {} },
  );
  events = [];
});

describe("the finalizer stage", () => {
  it("adds the server's finalizer once", async () => {
    resources.apply("atlas", atlas);
    await holdWithFinalizer(contextWith(), read("atlas"));
    await holdWithFinalizer(contextWith(), read("atlas"));
    expect(read("atlas").metadata.finalizers).toEqual([TENANT_FINALIZER]);
  });
});

describe("the gates", () => {
  it("hold a generation that does not run yet: preview-only first, then approval; the running generation passes", async () => {
    resources.apply("previewed", atlas, { [PREVIEW_ONLY_ANNOTATION]: "true" });
    expect(holdingGate(read("previewed"), true)?.phase).toBe("Previewed");
    resources.apply("atlas", atlas);
    expect(holdingGate(read("atlas"), true)?.phase).toBe("AwaitingApproval");
    expect(holdingGate(read("atlas"), false)).toBeUndefined();
    resources.apply("atlas", atlas, {
      [APPROVED_GENERATION_ANNOTATION]: String(read("atlas").metadata.generation),
      [APPROVED_SPEC_SHA256_ANNOTATION]: specSha256(atlas),
    });
    expect(holdingGate(read("atlas"), true)).toBeUndefined();
    // The generation that runs passes, whatever its annotations ask now.
    const running = {
      ...read("previewed"),
      status: { phase: "Ready" as const, message: "", conditions: [], observedGeneration: 1 },
    };
    expect(holdingGate(running, true)).toBeUndefined();
  });
});

describe("the provisioning stage", () => {
  it("holds a generation at its gate with the plan and brings nothing up; brings it up once the gate lets it go", async () => {
    const context = contextWith(true);
    resources.apply("atlas", atlas);
    await holdWithFinalizer(context, read("atlas"));
    expect(await provisioningOf(context).bringToSpec(read("atlas"), {})).toEqual({ retry: false });
    expect(read("atlas").status).toMatchObject({ phase: "AwaitingApproval", plan: { generation: 1 } });
    expect(stacks.callsOf("up")).toHaveLength(0);

    const approved = { ...contextWith(false) };
    expect(await provisioningOf(approved).bringToSpec(read("atlas"), {})).toEqual({ retry: false });
    expect(read("atlas").status).toMatchObject({ phase: "Ready", observedGeneration: 1, expiry: { generation: 1 } });
    expect(stacks.callsOf("up")).toHaveLength(1);
  });

  it("brings no revision up on a generation a gate holds", async () => {
    const context = contextWith(true);
    resources.apply("atlas", atlas);
    const revision = { revision: "r2", policy: {} };
    await provisioningOf(context).bringUpOnRevision(read("atlas"), {}, revision);
    expect(stacks.callsOf("up")).toHaveLength(0);
  });

  it("answers `expired` for a generation the gates let through whose own expiry has passed, and brings nothing up", async () => {
    resources.apply("atlas", { ...atlas, expiresAt: hoursFromNow(-1) });
    expect(await provisioningOf(contextWith()).bringToSpec(read("atlas"), {})).toBe("expired");
    expect(stacks.callsOf("up")).toHaveLength(0);
  });

  it("puts back the request the stack last ran, asleep when asked, whatever the spec says now", async () => {
    const context = contextWith();
    resources.apply("atlas", atlas);
    await holdWithFinalizer(context, read("atlas"));
    await provisioningOf(context).bringToSpec(read("atlas"), {});
    const running = await service.runningRequest("atlas", serverActor);
    expect(running).toEqual({ request: atlas, generation: 1 });
    resources.apply("atlas", { ...atlas, resources: { cpu: "16", memory: "8Gi" } } as TenantRequestInput);
    await provisioningOf(context).putBack(read("atlas"), running!, {}, true);
    await provisioningOf(context).putBack(read("atlas"), running!, {});
    const ups = stacks.callsOf("up").map((c) => [c.program?.request.resources?.cpu, c.program?.request.sleep]);
    expect(ups).toEqual([
      ["4", undefined],
      ["4", true],
      ["4", undefined],
    ]);
    expect(read("atlas").status).toMatchObject({ phase: "Ready", observedGeneration: 1 });
  });
});

describe("the expiry stage", () => {
  it("reads the running generation's expiry from the status, and the spec's before any ran", () => {
    resources.apply("atlas", { ...atlas, expiresAt: hoursFromNow(1) });
    expect(expiryInForce(read("atlas"))).toBe(hoursFromNow(1));
    const status = { phase: "Ready" as const, message: "", conditions: [], expiry: { generation: 1 } };
    expect(expiryInForce({ ...read("atlas"), status })).toBeUndefined();
  });

  it("deletes a Tenant whose expiry in force has come, and leaves one that is not due", async () => {
    resources.apply("atlas", { ...atlas, expiresAt: hoursFromNow(1) });
    const stage = new ExpiryStage(contextWith(false, () => new Date(NOW)));
    expect(await stage.expireIfDue(read("atlas"))).toBe(false);
    expect(
      await new ExpiryStage(contextWith(false, () => new Date(NOW + 2 * 3_600_000))).expireIfDue(read("atlas")),
    ).toBe(true);
    expect(events).toEqual([`Expired: it expired at ${hoursFromNow(1)}; deleting it`]);
  });
});

describe("the teardown stage", () => {
  it("tears a deleted Tenant's stack down, and then its finalizer goes and the Tenant with it", async () => {
    const context = contextWith();
    resources.apply("atlas", atlas);
    await holdWithFinalizer(context, read("atlas"));
    await provisioningOf(context).bringToSpec(read("atlas"), {});
    await resources.delete("atlas");
    expect(await tearDown(context, new TenantStatusWrites(context), read("atlas"), {})).toEqual({ retry: false });
    expect(stacks.callsOf("destroy")).toHaveLength(1);
    expect(resources.peek("atlas")).toBeUndefined();
  });
});
