/**
 * Turns the JSON Schema zod produces for an object into Pulumi package schema properties, hoisting
 * nested objects into named types (`kubespaces:index:<Name>`): the title zod was given, else the
 * parent type's name followed by the field's name.
 */
import { indexToken } from "../../provider/model/tokens";
import type { PulumiProperty, PulumiType } from "./pulumiSchemaTypes";

/** The parts of JSON Schema that zod emits for the shapes used here. */
export interface JsonSchemaNode {
  readonly type?: string;
  readonly title?: string;
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly string[];
  readonly properties?: Record<string, JsonSchemaNode>;
  readonly required?: readonly string[];
  readonly items?: JsonSchemaNode;
  readonly additionalProperties?: JsonSchemaNode | boolean;
  readonly plain?: boolean;
  readonly secret?: boolean;
}

/** Properties and required names of one object, with the types it introduced added to `types`. */
export interface ConvertedObject {
  readonly properties: Record<string, PulumiProperty>;
  readonly required: string[];
}

/** The schema token of a type named `name` in the package's index module. */
export const typeToken = indexToken;

const pascal = (word: string): string => word[0].toUpperCase() + word.slice(1);

/**
 * Converts object `node`, whose nested types are named after `typeName`. A field is required when
 * JSON Schema requires it and it has no default (in inputs, a default makes it optional).
 */
export function convertObject(
  node: JsonSchemaNode,
  typeName: string,
  types: Record<string, PulumiType>,
): ConvertedObject {
  const properties: Record<string, PulumiProperty> = {};
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    properties[key] = convertProperty(child, `${typeName}${pascal(key)}`, types);
  }
  const required = (node.required ?? []).filter((key) => node.properties?.[key]?.default === undefined);
  return { properties, required };
}

function convertProperty(node: JsonSchemaNode, defaultName: string, types: Record<string, PulumiType>): PulumiProperty {
  const common: PulumiProperty = {
    ...(node.description && { description: node.description }),
    ...(isPrimitiveDefault(node.default) && { default: node.default }),
    ...(node.plain && { plain: true }),
    ...(node.secret && { secret: true }),
  };
  if (node.properties) {
    const name = node.title ?? defaultName;
    const { properties, required } = convertObject(node, name, types);
    types[typeToken(name)] = {
      type: "object",
      ...(node.description && { description: node.description }),
      properties,
      ...(required.length > 0 && { required }),
    };
    return { ...common, $ref: `#/types/${typeToken(name)}` };
  }
  if (node.type === "array" && node.items) {
    const { description: _description, default: _default, ...items } = convertProperty(node.items, defaultName, types);
    return { ...common, type: "array", items };
  }
  if (node.type === "object") return { ...common, type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } };
  if (node.enum) {
    types[typeToken(defaultName)] = {
      type: "string",
      ...(node.description && { description: node.description }),
      enum: node.enum.map((value) => ({ value })),
    };
    return { ...common, $ref: `#/types/${typeToken(defaultName)}` };
  }
  return { ...common, type: node.type === "integer" ? "integer" : ((node.type as PulumiProperty["type"]) ?? "string") };
}

function isPrimitiveDefault(value: unknown): value is string | number | boolean {
  return ["string", "number", "boolean"].includes(typeof value);
}
