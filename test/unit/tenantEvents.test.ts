/**
 * The Events of `kubectl describe tenant`: the recorder (a repeat joins the first Event's series,
 * as client-go's recorder does; notes hold no credential and fit in 1 kB; a refused write never
 * fails a reconcile), and the Events the reconciler records over a tenant's life, with the real
 * tenants service on the stand-ins of tenantReconciler.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
} from "../../provider/contracts/tenantResourceNames";
import { specSha256 } from "../../provider/server/reconcile/tenantApproval";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { MemoryRunJournals } from "../../provider/server/memoryRunJournals";
import { ResourceRequestStore } from "../../provider/server/resourceRequestStore";
import {
  REDACTED,
  safeNote,
  TENANT_EVENT_REASONS,
  TenantEventRecorder,
  type EventBody,
  type EventsPort,
  type TenantEventReason,
  type TenantEvents,
} from "../../provider/server/reconcile/tenantEvents";
import type { TenantResource } from "../../provider/server/tenantResourcePort";
import { TenantReconciler } from "../../provider/server/reconcile/tenantReconciler";
import { TenantsService } from "../../provider/tenants/tenantsService";
import { FakeTenantResources } from "./support/fakeTenantResources";
import { FakeHost, FakeTenantStacks } from "./support/fakeTenantStacks";

/** An Events API in memory: the Events created, and each series set. */
class MemoryEvents implements EventsPort {
  readonly events: (EventBody & { series?: { count: number; lastObservedTime: string } })[] = [];
  refuse: Error | undefined;

  async create(event: EventBody): Promise<void> {
    if (this.refuse) throw this.refuse;
    if (this.events.some((e) => e.metadata.name === event.metadata.name)) throw new Error("409 AlreadyExists");
    this.events.push({ ...event });
  }

  async setSeries(namespace: string, name: string, series: { count: number; lastObservedTime: string }) {
    const event = this.events.find((e) => e.metadata.namespace === namespace && e.metadata.name === name);
    if (!event) throw new Error(`404: no Event ${name}`);
    event.series = series;
  }
}

const tenant = (name: string, uid = `uid-${name}`): TenantResource =>
  ({ metadata: { name, uid, generation: 1 }, spec: {} }) as unknown as TenantResource;

describe("the recorder", () => {
  let clock: Date;
  let api: MemoryEvents;
  let errors: unknown[];
  let recorder: TenantEventRecorder;
  beforeEach(() => {
    clock = new Date("2026-12-03T10:00:00.000Z");
    api = new MemoryEvents();
    errors = [];
    recorder = new TenantEventRecorder(
      api,
      { controller: "kubespaces.io/server", instance: "replica-a" },
      (error) => errors.push(error),
      () => clock,
    );
  });
  const minutesLater = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60_000));

  it("writes an events.k8s.io/v1 Event about the Tenant, by its UID, in the default namespace", async () => {
    await recorder.record(tenant("atlas"), "ProvisioningFailed", "the stack is locked");
    expect(api.events).toEqual([
      {
        metadata: { name: expect.stringMatching(/^atlas\.[0-9a-f]+$/), namespace: "default" },
        eventTime: "2026-12-03T10:00:00.000000Z",
        reportingController: "kubespaces.io/server",
        reportingInstance: "replica-a",
        action: "Provision",
        reason: "ProvisioningFailed",
        type: "Warning",
        note: "the stack is locked",
        regarding: { apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", name: "atlas", uid: "uid-atlas" },
      },
    ]);
  });

  it("aggregates repeats within six minutes of the last into the first Event's series; later, or with other words, a new Event", async () => {
    const failed = () => recorder.record(tenant("atlas"), "ProvisioningFailed", "the stack is locked");
    await failed();
    minutesLater(5);
    await failed();
    minutesLater(5);
    await failed();
    expect(api.events).toHaveLength(1);
    expect(api.events[0].series).toEqual({ count: 3, lastObservedTime: "2026-12-03T10:10:00.000000Z" });

    await recorder.record(tenant("atlas"), "ProvisioningFailed", "exceeded quota");
    await recorder.record(tenant("borealis"), "ProvisioningFailed", "the stack is locked");
    minutesLater(7);
    await failed();
    expect(api.events.map((e) => [e.regarding.name, e.note, e.series?.count])).toEqual([
      ["atlas", "the stack is locked", 3],
      ["atlas", "exceeded quota", undefined],
      ["borealis", "the stack is locked", undefined],
      ["atlas", "the stack is locked", undefined],
    ]);
  });

  it("names two Events of one millisecond apart, and series them in order when recorded at once", async () => {
    await Promise.all([recorder.record(tenant("atlas"), "Approved"), recorder.record(tenant("atlas"), "Provisioning")]);
    await Promise.all([1, 2, 3].map(() => recorder.record(tenant("atlas"), "Deleting")));
    expect(api.events.map((e) => [e.reason, e.series?.count])).toEqual([
      ["Approved", undefined],
      ["Provisioning", undefined],
      ["Deleting", 3],
    ]);
    expect(errors).toEqual([]);
  });

  it("reports a refused write and never rejects: a reconcile goes on without its Event", async () => {
    api.refuse = new Error("events.k8s.io is forbidden");
    await expect(recorder.record(tenant("atlas"), "Ready")).resolves.toBeUndefined();
    expect(errors).toEqual([api.refuse]);
  });

  it("keeps credentials out of a note, and cuts it to 1 kB", async () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJlbWFpbCI6ImFsaWNlQGV4YW1wbGUuY29tIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
    const base64 = Buffer.from("client-key: ".repeat(10)).toString("base64");
    const note = [
      `Authorization: Bearer ${jwt}`,
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
      "password=hunter2-secret",
      'token: "s3cr3t-t0ken"',
      `client-key-data: ${base64}`,
      "helm said: failed",
    ].join("; ");
    await recorder.record(tenant("atlas"), "ProvisioningFailed", note);
    const written = api.events[0].note;
    for (const secret of [jwt, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "hunter2", "s3cr3t-t0ken", base64.slice(0, 40)])
      expect(written).not.toContain(secret);
    expect(written).toContain(REDACTED);
    expect(written).toContain("helm said: failed");

    const long = safeNote("é".repeat(2000));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(1024);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("the reconciler's Events", () => {
  const atlas = { owner: "alice@example.com", resources: { cpu: "4", memory: "8Gi" } } as TenantRequestInput;
  let resources: FakeTenantResources;
  let stacks: FakeTenantStacks;
  let recorded: [string, TenantEventReason, string | undefined][];
  const events: TenantEvents = {
    record: async (t, reason, note) => void recorded.push([t.metadata.name, reason, note]),
  };
  const reconcilerWith = (requireApproval: boolean) =>
    new TenantReconciler(
      new TenantsService(
        { requests: new ResourceRequestStore(resources), runs: new MemoryRunJournals(), stacks, host: new FakeHost() },
        { policy: {} },
      ),
      resources,
      { actor: { owner: "system:kubespaces-server:test", groups: [], isAdmin: true }, requireApproval, events },
    );
  const reasons = () => recorded.map(([, reason]) => reason);
  beforeEach(() => {
    resources = new FakeTenantResources();
    stacks = new FakeTenantStacks();
    recorded = [];
  });

  it("accepted, provisioning, Ready; a quiet resync records nothing, one that repaired drift says so", async () => {
    const reconciler = reconcilerWith(false);
    resources.apply("atlas", atlas);
    await reconciler.acknowledge("atlas");
    await reconciler.reconcile("atlas");
    expect(reasons()).toEqual(["Accepted", "Provisioning", "Ready"]);

    await reconciler.reconcile("atlas", { resync: true });
    expect(reasons()).toHaveLength(3);
    stacks.drift("atlas");
    await reconciler.reconcile("atlas", { resync: true });
    expect(recorded.at(-1)).toEqual(["atlas", "DriftRepaired", expect.stringMatching(/changed \d+ resource/)]);
  });

  it("each failure with its reason and the status's words, and a refused request as InvalidRequest", async () => {
    const reconciler = reconcilerWith(false);
    resources.apply("atlas", atlas);
    stacks.failNextUp("atlas", { reason: "QuotaFailed", detail: "exceeded quota: atlas-quota" });
    await reconciler.reconcile("atlas");
    expect(recorded.at(-1)).toEqual(["atlas", "QuotaFailed", expect.stringContaining("exceeded quota: atlas-quota")]);

    resources.apply("borealis", { ...atlas, resources: { cpu: "lots" } } as unknown as TenantRequestInput);
    await reconciler.reconcile("borealis");
    // The status, which the owner reads, says what is wrong; the Event, which others may read, quotes none of it.
    expect(resources.peek("borealis")!.status!.message).toMatch(/resources\.cpu: must be a Kubernetes quantity/);
    expect(recorded.at(-1)).toEqual([
      "borealis",
      "InvalidRequest",
      "generation 1 was refused by the platform's policy; the Tenant's status says why",
    ]);
  });

  it("held for approval with the plan, then approved and provisioned", async () => {
    const reconciler = reconcilerWith(true);
    resources.apply("atlas", atlas);
    await reconciler.reconcile("atlas");
    expect(recorded).toEqual([["atlas", "AwaitingApproval", expect.stringMatching(/generation 1 .*4 to create/)]]);
    resources.apply("atlas", atlas, {
      [APPROVED_GENERATION_ANNOTATION]: "1",
      [APPROVED_SPEC_SHA256_ANNOTATION]: specSha256(atlas),
    });
    await reconciler.reconcile("atlas");
    expect(reasons()).toEqual(["AwaitingApproval", "Approved", "Provisioning", "Ready"]);
  });

  it("deleting, then deleted once the teardown is done", async () => {
    const reconciler = reconcilerWith(false);
    resources.apply("atlas", atlas);
    await reconciler.reconcile("atlas");
    await resources.delete("atlas");
    recorded = [];
    await reconciler.reconcile("atlas");
    expect(reasons()).toEqual(["Deleting", "Deleted"]);
    expect(resources.peek("atlas")).toBeUndefined();
  });

  it("never names the owner or quotes the spec", async () => {
    const reconciler = reconcilerWith(true);
    resources.apply("atlas", atlas);
    await reconciler.acknowledge("atlas");
    await reconciler.reconcile("atlas");
    resources.apply("atlas", atlas, {
      [APPROVED_GENERATION_ANNOTATION]: "1",
      [APPROVED_SPEC_SHA256_ANNOTATION]: specSha256(atlas),
    });
    await reconciler.reconcile("atlas");
    await resources.delete("atlas");
    await reconciler.reconcile("atlas");
    expect(JSON.stringify(recorded)).not.toMatch(/alice|8Gi/);
  });
});

it("docs/self-service.md lists every Event reason with its type", () => {
  const doc = readFileSync(path.join(__dirname, "../../docs/self-service.md"), "utf8");
  for (const [reason, { type }] of Object.entries(TENANT_EVENT_REASONS))
    expect(doc, reason).toMatch(new RegExp(`^\\| [^|]*\`${reason}\`[^|]* \\| ${type} \\|`, "m"));
});
