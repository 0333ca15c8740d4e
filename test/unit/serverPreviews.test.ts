/**
 * The server's previews (serverPreviews.ts) over a scripted tenants service: each is run as the
 * server with a bounded wait for the stack, and one that runs past its time is stopped and
 * refused in words that say so.
 */
import { describe, expect, it } from "vitest";
import { PREVIEW_LOCK_WAIT_MS, serverPreviews } from "../../provider/server/people/serverPreviews";
import type { Actor } from "../../provider/tenants/ports";
import { InterruptedError, TenantNotFoundError } from "../../provider/tenants/tenantsErrors";
import type { OperationOptions } from "../../provider/tenants/tenantsService";

const SERVER: Actor = { owner: "system:kubespaces-server:test", groups: ["kubespaces-admins"], isAdmin: true };
const STEP = { op: "create", type: "kubernetes:core/v1:Namespace", name: "atlas", diffs: [] };

describe("the server's previews", () => {
  it("run the service's preview as the server, waiting a bounded time for the stack", async () => {
    const seen: { actor: Actor; options: OperationOptions }[] = [];
    const previews = serverPreviews(
      {
        preview: async (_name, _request, actor, options = {}) => (seen.push({ actor, options }), [STEP]),
      },
      SERVER,
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
      20,
    );
    const refusal = await previews.preview("atlas", undefined).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(InterruptedError);
    expect((refusal as Error).message).toBe(
      "the preview of tenant atlas ran longer than 1 s and was stopped; nothing was changed",
    );
  });

  it("pass the service's own refusals on as they are", async () => {
    const previews = serverPreviews({ preview: async (name) => Promise.reject(new TenantNotFoundError(name)) }, SERVER);
    await expect(previews.preview("atlas", undefined)).rejects.toBeInstanceOf(TenantNotFoundError);
  });
});
