/** The subset of the Pulumi package schema (pulumi.json) this package emits. */

/** A property of a resource or type. */
export interface PulumiProperty {
  /** Primitive type, `array` or `object`; absent when `$ref` names a type. */
  readonly type?: "string" | "integer" | "number" | "boolean" | "array" | "object";
  /** Reference to a type (`#/types/...`) or `pulumi.json#/Any`. */
  readonly $ref?: string;
  /** Element type of an array. */
  readonly items?: PulumiProperty;
  /** Value type of a map. */
  readonly additionalProperties?: PulumiProperty;
  /** Documentation. */
  readonly description?: string;
  /** Default of an input. */
  readonly default?: string | number | boolean;
  /** Must be a plain value, never an Output. */
  readonly plain?: boolean;
  /** Kept secret. */
  readonly secret?: boolean;
}

/** An object type. */
export interface PulumiObjectType {
  /** Object type. */
  readonly type: "object";
  /** Documentation. */
  readonly description?: string;
  /** Fields. */
  readonly properties: Record<string, PulumiProperty>;
  /** Fields that must be set. */
  readonly required?: string[];
}

/** A string enum type. */
export interface PulumiEnumType {
  /** Enums here are strings. */
  readonly type: "string";
  /** Documentation. */
  readonly description?: string;
  /** The allowed values. */
  readonly enum: { readonly value: string }[];
}

/** A named type of the package. */
export type PulumiType = PulumiObjectType | PulumiEnumType;

/** A resource or component. */
export interface PulumiResource {
  /** Documentation. */
  readonly description?: string;
  /** True for a component (constructed by the plugin's `construct`). */
  readonly isComponent?: boolean;
  /** Inputs. */
  readonly inputProperties: Record<string, PulumiProperty>;
  /** Inputs that must be set. */
  readonly requiredInputs?: string[];
  /** Outputs. */
  readonly properties: Record<string, PulumiProperty>;
  /** Outputs always present. */
  readonly required?: string[];
}

/** A package schema. */
export interface PulumiPackageSchema {
  readonly name: string;
  readonly displayName: string;
  readonly version: string;
  readonly description: string;
  readonly homepage: string;
  readonly repository: string;
  readonly license: string;
  readonly keywords: string[];
  readonly resources: Record<string, PulumiResource>;
  readonly types: Record<string, PulumiType>;
  readonly language: Record<string, unknown>;
}
