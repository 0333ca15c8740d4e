/**
 * A zod schema as the OpenAPI v3 schema of a CRD version: a *structural* schema, as the API server
 * requires (every node typed; no `$ref`, `anyOf`, `oneOf`, `allOf` or `not`; no
 * `additionalProperties: false`). The JSON Schema comes from zod's own `z.toJSONSchema`; this
 * keeps what a CRD can say and throws on anything else, so that a new zod construct fails the unit
 * tests instead of producing a schema the API server refuses.
 *
 * What changes on the way:
 * - `additionalProperties: false` (zod's strict objects) is dropped: the API server refuses it, and
 *   it need not say it, because it refuses unknown fields itself under strict field validation.
 * - A map of anything (`z.record(z.string(), z.unknown())`, the chart values overrides) becomes
 *   `x-kubernetes-preserve-unknown-fields: true`: the one place unknown fields are kept.
 * - `default` is dropped: the API server would write defaults into the stored object, and a
 *   request is stored as the team wrote it (its defaults are the validation's, at each run).
 * - `x-kubernetes-*` keys given with zod's `.meta()` pass through.
 * - The CEL rules registered for a zod schema (model/apiServerRules.ts) become its
 *   `x-kubernetes-validations`.
 *
 * The request's quantities are strings (zod refuses `cpu: 2`), so no field needs
 * `x-kubernetes-int-or-string`; a union (`anyOf`) throws here rather than guess one.
 */
import { z } from "zod";
import { apiServerRules, type ApiServerRule } from "../model/apiServerRules";

/** The OpenAPI v3 schema of a CRD (the fields of apiextensions.k8s.io/v1 JSONSchemaProps used here). */
export interface StructuralSchema {
  /** `object`, `array`, `string`, `integer`, `number` or `boolean`. */
  readonly type: string;
  /** For people, and for `kubectl explain`. */
  readonly description?: string;
  /** Fields of an object. */
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  /** Fields an object must have. */
  readonly required?: readonly string[];
  /** Values of a map whose keys are free. */
  readonly additionalProperties?: StructuralSchema;
  /** Items of an array. */
  readonly items?: StructuralSchema;
  /** The values a string may take. */
  readonly enum?: readonly unknown[];
  /** A regular expression a string must match. */
  readonly pattern?: string;
  /** The shortest a string may be. */
  readonly minLength?: number;
  /** The longest a string may be. */
  readonly maxLength?: number;
  /** The smallest a number may be. */
  readonly minimum?: number;
  /** The largest a number may be. */
  readonly maximum?: number;
  /** The fewest items an array may have. */
  readonly minItems?: number;
  /** The most items an array may have. */
  readonly maxItems?: number;
  /** The value the API server fills in when the field is left out. */
  readonly default?: unknown;
  /** A known string format, such as `date-time`. */
  readonly format?: string;
  /** Keep unknown fields below this node (free-form maps only). */
  readonly "x-kubernetes-preserve-unknown-fields"?: true;
  /** `map` for a list keyed by `x-kubernetes-list-map-keys` (conditions), for merges. */
  readonly "x-kubernetes-list-type"?: string;
  /** The keys of a `map` list. */
  readonly "x-kubernetes-list-map-keys"?: readonly string[];
  /** CEL rules the API server holds the value to. */
  readonly "x-kubernetes-validations"?: readonly ApiServerRule[];
}

/** A JSON Schema node as zod writes it. */
type JsonNode = Record<string, unknown>;

/** Keywords a CRD schema takes as they are (besides `x-kubernetes-*`). */
const KEPT = new Set([
  "type",
  "description",
  "enum",
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
]);
/** Keywords read below, or that say nothing a CRD can or should say (see the file comment). */
const HANDLED = new Set([
  "properties",
  "required",
  "items",
  "additionalProperties",
  "$schema",
  "default",
  "propertyNames",
  "title",
]);

const isKept = (key: string): boolean => KEPT.has(key) || key.startsWith("x-kubernetes-");

/** The structural schema of `schema`: what a team writes (`io: "input"`) or what code writes (`"output"`). */
export function structuralSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): StructuralSchema {
  const withRules = z.toJSONSchema(schema, {
    io,
    override({ zodSchema, jsonSchema }) {
      const rules = apiServerRules.get(zodSchema)?.rules;
      if (rules) Object.assign(jsonSchema, { "x-kubernetes-validations": rules });
    },
  });
  return structural(withRules as JsonNode, "");
}

function structural(node: JsonNode, at: string): StructuralSchema {
  const where = at || "the root";
  const unknown = Object.keys(node).filter((key) => !isKept(key) && !HANDLED.has(key));
  if (unknown.length > 0)
    throw new Error(`no structural CRD schema for ${where}: it uses ${unknown.join(", ")} (${JSON.stringify(node)})`);
  if (typeof node.type !== "string") throw new Error(`no structural CRD schema for ${where}: it has no single type`);
  const out = Object.fromEntries(Object.entries(node).filter(([key]) => isKept(key)));
  if (node.type === "array") out.items = structural(node.items as JsonNode, `${at}[]`);
  if (node.type === "object") Object.assign(out, objectParts(node, at));
  return out as unknown as StructuralSchema;
}

/** The fields of an object node, the schema of a typed map's values, or the mark of a free-form map. */
function objectParts(node: JsonNode, at: string): Partial<StructuralSchema> {
  const properties = node.properties as Record<string, JsonNode> | undefined;
  const values = node.additionalProperties;
  if (properties) {
    const required = (node.required as string[] | undefined) ?? [];
    return {
      properties: Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, structural(child, at ? `${at}.${key}` : key)]),
      ),
      ...(required.length > 0 && { required }),
    };
  }
  if (typeof values === "object" && values !== null && Object.keys(values).length > 0)
    return { additionalProperties: structural(values as JsonNode, `${at}.*`) };
  // An object without fields that is not closed (`additionalProperties: false`) holds anything.
  return values === false ? {} : { "x-kubernetes-preserve-unknown-fields": true };
}
