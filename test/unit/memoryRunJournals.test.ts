/** The server's run journals, kept in memory: the newest run per tenant, and following a running one. */
import { describe, expect, it } from "vitest";
import { MemoryRunJournals } from "../../provider/server/memoryRunJournals";
import type { TenantEvent } from "../../provider/tenants/tenantObject";

const event = (phase: TenantEvent["phase"], detail?: string): TenantEvent => ({ name: "a", phase, detail });

describe("MemoryRunJournals", () => {
  it("keeps the newest run, running until it ends, with its events and outcome", async () => {
    const journals = new MemoryRunJournals(() => new Date("2026-12-01T00:00:00Z"));
    expect(await journals.latest("a")).toBeUndefined();
    const run = journals.start("a", "create", 3);
    run.event(event("Pending"));
    expect(await journals.latest("a")).toEqual({
      operation: "create",
      startedAt: "2026-12-01T00:00:00.000Z",
      generation: 3,
      running: true,
      events: [event("Pending")],
    });
    run.end({ ok: true, message: "ready" });
    expect(await journals.latest("a")).toMatchObject({ running: false, outcome: { ok: true, message: "ready" } });
    await journals.forget("a");
    expect(await journals.latest("a")).toBeUndefined();
  });

  it("follows a running run: the events so far, then each new one, ending with the run", async () => {
    const journals = new MemoryRunJournals();
    const run = journals.start("a", "create", 1);
    run.event(event("Pending"));
    const seen: TenantEvent[] = [];
    const following = (async () => {
      for await (const e of journals.follow("a")) {
        seen.push(e);
        if (seen.length === 1) run.event(event("Provisioning", "creating Namespace"));
        if (seen.length === 2) {
          run.event(event("Ready"));
          run.end({ ok: true, message: "ready" });
        }
      }
    })();
    await following;
    expect(seen.map((e) => e.phase)).toEqual(["Pending", "Provisioning", "Ready"]);
  });

  it("ends a follow at once when no run is going, and when its signal aborts", async () => {
    const journals = new MemoryRunJournals();
    const none: TenantEvent[] = [];
    for await (const e of journals.follow("a")) none.push(e);
    expect(none).toEqual([]);

    journals.start("a", "delete", 1);
    const stop = new AbortController();
    const followed: TenantEvent[] = [];
    const following = (async () => {
      for await (const e of journals.follow("a", stop.signal)) followed.push(e);
    })();
    stop.abort();
    await following;
    expect(followed).toEqual([]);
  });
});
