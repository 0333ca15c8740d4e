/** A finalizer list changed with a test-guarded JSON patch (server/kube/finalizerPatch.ts), over a stand-in object that refuses a stale test as the API server does (422). */
import { describe, expect, it } from "vitest";
import { changeFinalizers, type FinalizerTarget } from "../../provider/server/kube/finalizerPatch";

/** An object with `finalizers` (null: no list); `interleaved` other writers change it before the next patches land. */
function standInObject(finalizers: string[] | null) {
  const state = { finalizers, gone: false, interleaved: 0, patches: [] as object[][] };
  const apiError = (code: number) => Object.assign(new Error(`stand-in: ${code}`), { code });
  const target: FinalizerTarget = {
    get: async () =>
      state.gone ? undefined : { metadata: state.finalizers ? { finalizers: [...state.finalizers] } : {} },
    patch: async (body) => {
      state.patches.push(body);
      if (state.gone) throw apiError(404);
      if (state.interleaved > 0) {
        state.interleaved--;
        state.finalizers = [...(state.finalizers ?? []), "other.example/writer"];
        throw apiError(422);
      }
      const [first, second] = body as { op: string; value: string[] }[];
      if (first.op === "test" && JSON.stringify(first.value) !== JSON.stringify(state.finalizers)) throw apiError(422);
      state.finalizers = (second ?? first).value;
    },
  };
  return { state, target };
}

const adding = (finalizer: string) => (list: readonly string[]) =>
  list.includes(finalizer) ? undefined : [...list, finalizer];

describe("a finalizer change", () => {
  it("adds a list where there is none, and guards a replacement with a test of the list read", async () => {
    const { state, target } = standInObject(null);
    await changeFinalizers(target, adding("a"));
    expect(state.patches).toEqual([[{ op: "add", path: "/metadata/finalizers", value: ["a"] }]]);
    await changeFinalizers(target, adding("b"));
    expect(state.patches[1]).toEqual([
      { op: "test", path: "/metadata/finalizers", value: ["a"] },
      { op: "replace", path: "/metadata/finalizers", value: ["a", "b"] },
    ]);
    await changeFinalizers(target, adding("b"));
    expect(state.patches).toHaveLength(2);
  });

  it("reads again when another writer came first, keeping what it wrote; gives up after five tries", async () => {
    const { state, target } = standInObject(["a"]);
    state.interleaved = 2;
    await changeFinalizers(target, adding("b"));
    expect(state.finalizers).toEqual(["a", "other.example/writer", "other.example/writer", "b"]);
    state.interleaved = 5;
    await expect(changeFinalizers(target, adding("c"))).rejects.toThrow("stand-in: 422");
  });

  it("does nothing for an object that is gone", async () => {
    const { state, target } = standInObject(["a"]);
    state.gone = true;
    await changeFinalizers(target, adding("b"));
    expect(state.patches).toEqual([]);
  });
});
