/** Nested values from a dotted path, as a request's `vcluster.valuesOverrides` sets one chart value. */

/**
 * The object that holds `value` at `path` (keys separated by dots, so no key may hold one):
 * `valuesAt("a.b", 1)` is `{ a: { b: 1 } }`.
 */
export function valuesAt(path: string, value: unknown): Record<string, unknown> {
  return path
    .split(".")
    .reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as Record<string, unknown>);
}
