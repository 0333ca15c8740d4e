/**
 * Whether a CRD version's schema only adds to an earlier one: what a `v1alpha1` that has no
 * conversion webhook and one stored version may change without breaking an object already stored
 * or a manifest already applied. The comparer walks both schemas together (properties, items,
 * additionalProperties) and names every change that is not additive:
 *
 * - a property removed, a type changed, `x-kubernetes-preserve-unknown-fields` or
 *   `x-kubernetes-int-or-string` or `nullable` taken away, `items` or `additionalProperties` gone;
 * - a value refused that was taken: an enum value removed (or an enum put on a free field), a new
 *   entry in `required`, a lower `maxLength`/`maximum`/`maxItems`/`maxProperties` or a higher
 *   minimum (or one put where there was none), a `pattern` or `format` added or changed (whether a
 *   new expression is looser is not judged: a changed one is refused), typed fields put under a
 *   node that kept unknown fields;
 * - a CEL rule (`x-kubernetes-validations`) added on an existing node, unless it is in the
 *   reviewed list given, with its reason;
 * - a list's merge type or keys changed.
 *
 * New optional properties, new enum values, relaxed or removed limits, removed rules and changed
 * descriptions and defaults pass. A property new in the current schema is not walked: all of it
 * is new.
 */

/** The part of a structural schema the comparer reads. */
export interface SchemaNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly enum?: readonly unknown[];
  readonly pattern?: string;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly nullable?: boolean;
  readonly "x-kubernetes-preserve-unknown-fields"?: boolean;
  readonly "x-kubernetes-int-or-string"?: boolean;
  readonly "x-kubernetes-list-type"?: string;
  readonly "x-kubernetes-list-map-keys"?: readonly string[];
  readonly "x-kubernetes-validations"?: readonly { readonly rule: string; readonly message?: string }[];
}

/** A CEL rule added on an existing node that was reviewed: where, which rule, and why it may be. */
export interface ReviewedValidation {
  /** The node's path as the comparer writes it (`""` is the root, `spec.owner`, `status.conditions[]`, `spec.labels.*`). */
  readonly path: string;
  /** The rule's text, or an expression its text matches. */
  readonly rule: string | RegExp;
  /** Why refusing what it refuses breaks no stored object or applied manifest. */
  readonly reason: string;
}

/** A change that is not additive: where, and what. */
export interface SchemaBreak {
  readonly path: string;
  readonly change: string;
}

const UPPER_LIMITS = ["maxLength", "maximum", "maxItems", "maxProperties"] as const;
const LOWER_LIMITS = ["minLength", "minimum", "minItems", "minProperties"] as const;
/** Marks that, once true, let a value through that would be refused without them. */
const WIDENING_MARKS = ["x-kubernetes-preserve-unknown-fields", "x-kubernetes-int-or-string", "nullable"] as const;
/** Marks that, once true, refuse a value that was taken. */
const NARROWING_MARKS = ["exclusiveMinimum", "exclusiveMaximum"] as const;

const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);
const shown = (value: unknown): string => JSON.stringify(value);

/** Every change from `baseline` to `current` that is not additive; none when `current` only adds. */
export function nonAdditiveChanges(
  baseline: SchemaNode,
  current: SchemaNode,
  reviewed: readonly ReviewedValidation[] = [],
): SchemaBreak[] {
  const breaks: SchemaBreak[] = [];
  compare(baseline, current, "", reviewed, (path, change) => breaks.push({ path, change }));
  return breaks;
}

function compare(
  was: SchemaNode,
  now: SchemaNode,
  path: string,
  reviewed: readonly ReviewedValidation[],
  report: (path: string, change: string) => void,
): void {
  if (was.type !== now.type) {
    report(path, `type changed from ${shown(was.type)} to ${shown(now.type)}`);
    return;
  }
  for (const mark of WIDENING_MARKS) if (was[mark] === true && now[mark] !== true) report(path, `${mark} removed`);
  for (const mark of NARROWING_MARKS) if (was[mark] !== true && now[mark] === true) report(path, `${mark} added`);

  if (now.enum) {
    if (!was.enum) report(path, `enum added (${now.enum.map(shown).join(", ")}): the field took any value`);
    else {
      const removed = was.enum.filter((value) => !now.enum!.some((kept) => shown(kept) === shown(value)));
      if (removed.length > 0) report(path, `enum value(s) removed: ${removed.map(shown).join(", ")}`);
    }
  }
  for (const key of ["pattern", "format"] as const) {
    if (now[key] !== undefined && now[key] !== was[key])
      report(path, `${key} ${was[key] === undefined ? "added" : "changed"}: ${shown(was[key])} -> ${shown(now[key])}`);
  }
  for (const key of UPPER_LIMITS) {
    const before = was[key];
    const after = now[key];
    if (after !== undefined && (before === undefined || after < before))
      report(path, `${key} ${before === undefined ? "added" : "lowered"}: ${shown(before)} -> ${after}`);
  }
  for (const key of LOWER_LIMITS) {
    const before = was[key];
    const after = now[key];
    // A count or a length of 0 at least refuses nothing; a minimum of 0 refuses the negatives.
    const floor = before ?? (key === "minimum" ? Number.NEGATIVE_INFINITY : 0);
    if (after !== undefined && after > floor)
      report(path, `${key} ${before === undefined ? "added" : "raised"}: ${shown(before)} -> ${after}`);
  }

  const newlyRequired = (now.required ?? []).filter((name) => !(was.required ?? []).includes(name));
  if (newlyRequired.length > 0) report(path, `newly required: ${newlyRequired.join(", ")}`);

  for (const key of ["x-kubernetes-list-type", "x-kubernetes-list-map-keys"] as const) {
    if (shown(now[key]) !== shown(was[key])) report(path, `${key} changed: ${shown(was[key])} -> ${shown(now[key])}`);
  }

  const rulesBefore = new Set((was["x-kubernetes-validations"] ?? []).map(({ rule }) => rule));
  for (const { rule } of now["x-kubernetes-validations"] ?? []) {
    if (rulesBefore.has(rule)) continue;
    const isReviewed = reviewed.some(
      (entry) => entry.path === path && (typeof entry.rule === "string" ? entry.rule === rule : entry.rule.test(rule)),
    );
    if (!isReviewed) report(path, `CEL rule added (not in the reviewed list): ${rule}`);
  }

  const propertiesBefore = was.properties ?? {};
  for (const [name, schema] of Object.entries(propertiesBefore)) {
    const after = now.properties?.[name];
    if (after) compare(schema, after, child(path, name), reviewed, report);
    else report(child(path, name), "property removed");
  }
  if (was["x-kubernetes-preserve-unknown-fields"] === true) {
    // A node that kept unknown fields may already hold any value under a name now typed.
    const typed = Object.keys(now.properties ?? {}).filter((name) => !(name in propertiesBefore));
    if (typed.length > 0) report(path, `typed fields put under a node that kept unknown fields: ${typed.join(", ")}`);
  }

  if (was.items) {
    if (now.items) compare(was.items, now.items, `${path}[]`, reviewed, report);
    else report(path, "items removed");
  }

  const valuesBefore = typeof was.additionalProperties === "object" ? was.additionalProperties : undefined;
  const valuesNow = typeof now.additionalProperties === "object" ? now.additionalProperties : undefined;
  if (valuesBefore) {
    if (valuesNow) compare(valuesBefore, valuesNow, child(path, "*"), reviewed, report);
    else report(path, "additionalProperties removed: a map's values would be pruned or refused");
  } else if (valuesNow && was["x-kubernetes-preserve-unknown-fields"] === true) {
    report(path, "additionalProperties added: a map's values, which were kept as they came, are now held to a schema");
  }
  if (was.additionalProperties !== false && now.additionalProperties === false)
    report(path, "additionalProperties: false added");
}
