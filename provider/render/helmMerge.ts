/** Merging chart values the way Helm merges user values over a chart's defaults. */
import deepmerge from "deepmerge";
import { isPlainObject } from "../util/plainObject";

/** Helm values: a YAML map. */
export type Values = Record<string, unknown>;

/**
 * `overrides` merged over `base` with Helm semantics: maps merge key by key, lists and scalars
 * replace, `null` removes the key. Neither argument is modified.
 */
export function mergeHelmValues(base: Values, overrides: Values): Values {
  const merged = deepmerge(base, overrides, {
    arrayMerge: (_target, source) => source,
    isMergeableObject: isPlainObject,
  });
  return withoutNulls(merged);
}

function withoutNulls(values: Values): Values {
  const entries = Object.entries(values)
    .filter(([, value]) => value !== null)
    .map(([key, value]) => [key, isPlainObject(value) ? withoutNulls(value) : value]);
  return Object.fromEntries(entries);
}
