/**
 * A change of a cluster-scoped custom object's finalizers, as every writer of them in the server
 * makes it: read the list, work out the new one, and send it as a JSON patch whose `test` makes the
 * API server refuse it (422) if another writer changed the list since; then read again, a few times.
 */
import { statusCodeOf } from "../../util/kubeClientErrors";

/** How the object is read and patched. */
export interface FinalizerTarget {
  /** The object now; undefined when it is gone. */
  readonly get: () => Promise<{ readonly metadata: { readonly finalizers?: readonly string[] } } | undefined>;
  /** Sends `body`, a JSON patch of the object. */
  readonly patch: (body: object[]) => Promise<unknown>;
}

/** How often the change is tried again after another writer changed the list first. */
const ATTEMPTS = 5;

/** Applies `change` to the finalizers as read (undefined from it: nothing to change); nothing when the object is gone. */
export async function changeFinalizers(
  target: FinalizerTarget,
  change: (list: readonly string[]) => readonly string[] | undefined,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const object = await target.get();
    if (!object) return;
    const read = object.metadata.finalizers;
    const list = read ?? [];
    const next = change(list);
    if (!next) return;
    // An object with no list at all takes one added; a list is replaced only as it was read.
    const body =
      read === undefined
        ? [{ op: "add", path: "/metadata/finalizers", value: next }]
        : [
            { op: "test", path: "/metadata/finalizers", value: list },
            { op: "replace", path: "/metadata/finalizers", value: next },
          ];
    try {
      await target.patch(body);
      return;
    } catch (error) {
      // 422: the test failed (another writer changed the list); 404: the object is gone.
      const code = statusCodeOf(error);
      if (code === 404) return;
      if (code !== 422 || attempt >= ATTEMPTS) throw error;
    }
  }
}
