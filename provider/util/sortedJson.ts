/**
 * JSON with the keys of every object sorted, so that equal values give equal text whatever order
 * their keys were written in (for a digest of a value). For values of plain text and numbers it is
 * what `jq -cjS .` prints, so people can check a digest with jq.
 */
import { isPlainObject } from "./plainObject";

/** `value` as compact JSON, the keys of every object in sorted order. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}
