/**
 * The server's previews (serverPreviews.ts) over a scripted tenants service: each is run as the
 * server with a bounded wait for the stack, and one that runs past its time is stopped and
 * refused in words that say so. A replica runs only so many at once: past them a preview waits a
 * bounded time in a queue of bounded length, then is answered busy, and nothing of it runs.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PreviewsBusyError, PREVIEW_QUEUE_WAIT_MS } from "../../provider/server/people/previewPool";
import { PREVIEW_LOCK_WAIT_MS, serverPreviews } from "../../provider/server/people/serverPreviews";
import type { Actor } from "../../provider/tenants/ports";
import type { ResourceStep } from "../../provider/tenants/tenantObject";
import { InterruptedError, TenantNotFoundError } from "../../provider/tenants/tenantsErrors";
import type { OperationOptions, TenantsService } from "../../provider/tenants/tenantsService";

const SERVER: Actor = { owner: "system:kubespaces-server:test", groups: ["kubespaces-admins"], isAdmin: true };
const STEP = { op: "create", type: "kubernetes:core/v1:Namespace", name: "atlas", diffs: [] };

/**
 * A service whose previews run until the test ends them: it records each one that started, and
 * says when as many as a test waits for have.
 */
function heldService() {
  const started: string[] = [];
  const ends = new Map<string, (steps: ResourceStep[]) => void>();
  const watchers: { count: number; resolve: () => void }[] = [];
  const service: Pick<TenantsService, "preview"> = {
    preview: (name) =>
      new Promise((resolve) => {
        started.push(name);
        ends.set(name, resolve);
        for (const watcher of watchers.filter((w) => started.length >= w.count)) watcher.resolve();
      }),
  };
  return {
    service,
    started,
    /** Ends tenant `name`'s preview, with one step. */
    end: (name: string) => ends.get(name)!([{ ...STEP, name }]),
    /** Resolves once `count` previews have started. */
    whenStarted: (count: number) =>
      new Promise<void>((resolve) => (started.length >= count ? resolve() : watchers.push({ count, resolve }))),
  };
}

/** What `promise` settles with, an error among them. */
const settled = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);

describe("the server's previews", () => {
  afterEach(() => void vi.useRealTimers());

  it("run the service's preview as the server, waiting a bounded time for the stack", async () => {
    const seen: { actor: Actor; options: OperationOptions }[] = [];
    const previews = serverPreviews(
      {
        preview: async (_name, _request, actor, options = {}) => (seen.push({ actor, options }), [STEP]),
      },
      SERVER,
      { concurrency: 2 },
    );
    expect(await previews.preview("atlas", { owner: "alice@example.com" })).toEqual([STEP]);
    expect(seen[0]!.actor).toBe(SERVER);
    expect(seen[0]!.options.lockTimeoutMs).toBe(PREVIEW_LOCK_WAIT_MS);
    expect(seen[0]!.options.signal?.aborted).toBe(false);
  });

  it("stop one that runs past its time, and say so", async () => {
    const previews = serverPreviews(
      {
        preview: (name, _request, _actor, options = {}) =>
          new Promise((_resolve, reject) =>
            options.signal!.addEventListener("abort", () => reject(new InterruptedError(name, "interrupted"))),
          ),
      },
      SERVER,
      { concurrency: 2, timeLimitMs: 20 },
    );
    const refusal = await settled(previews.preview("atlas", undefined));
    expect(refusal).toBeInstanceOf(InterruptedError);
    expect((refusal as Error).message).toBe(
      "the preview of tenant atlas ran longer than 1 s and was stopped; nothing was changed",
    );
  });

  it("pass the service's own refusals on as they are, and free their place", async () => {
    const previews = serverPreviews(
      { preview: async (name) => Promise.reject(new TenantNotFoundError(name)) },
      SERVER,
      { concurrency: 1 },
    );
    await expect(previews.preview("atlas", undefined)).rejects.toBeInstanceOf(TenantNotFoundError);
    await expect(previews.preview("atlas", undefined)).rejects.toBeInstanceOf(TenantNotFoundError);
  });

  it("run at most their bound at once: the next waits, and starts when one ends", async () => {
    const held = heldService();
    const previews = serverPreviews(held.service, SERVER, { concurrency: 2 });
    const first = previews.preview("a", undefined);
    previews.preview("b", undefined);
    const third = previews.preview("c", undefined);
    await held.whenStarted(2);
    expect(held.started).toEqual(["a", "b"]);
    held.end("a");
    expect(await first).toEqual([{ ...STEP, name: "a" }]);
    await held.whenStarted(3);
    expect(held.started).toEqual(["a", "b", "c"]);
    held.end("c");
    expect(await third).toEqual([{ ...STEP, name: "c" }]);
  });

  it("answer busy, saying so, once as many wait as run, and run nothing of it", async () => {
    const held = heldService();
    const previews = serverPreviews(held.service, SERVER, { concurrency: 2 });
    for (const name of ["a", "b", "c", "d"]) void settled(previews.preview(name, undefined));
    const refusal = await settled(previews.preview("e", undefined));
    expect(refusal).toBeInstanceOf(PreviewsBusyError);
    expect(refusal).toMatchObject({ kind: "overloaded", retryAfterSeconds: PREVIEW_QUEUE_WAIT_MS / 1000 });
    expect((refusal as Error).message).toBe(
      "this replica is running 2 previews already, as many as it runs at once, and 2 more wait; nothing was run: try again in 15 s",
    );
    expect(held.started).toEqual(["a", "b"]);
  });

  it("answer busy one that waited its time for a place, which it then leaves to the next", async () => {
    vi.useFakeTimers();
    const held = heldService();
    const previews = serverPreviews(held.service, SERVER, { concurrency: 1 });
    const first = previews.preview("a", undefined);
    const waiting = settled(previews.preview("b", undefined));
    await vi.advanceTimersByTimeAsync(PREVIEW_QUEUE_WAIT_MS);
    const refusal = await waiting;
    expect(refusal).toBeInstanceOf(PreviewsBusyError);
    expect((refusal as Error).message).toBe(
      "this replica is running 1 preview already, as many as it runs at once, and none ended in the 15 s this one waited; nothing was run: try again in 15 s",
    );
    held.end("a");
    await first;
    const next = previews.preview("c", undefined);
    await held.whenStarted(2);
    expect(held.started).toEqual(["a", "c"]);
    held.end("c");
    await next;
  });
});
