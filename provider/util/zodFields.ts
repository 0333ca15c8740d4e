/** Field lists read from zod object schemas, so that lists of names are never kept by hand. */
import { z } from "zod";

/** The field names of an object schema, in declaration order. */
export function fieldNames<S extends z.ZodObject>(schema: S): (keyof z.output<S> & string)[] {
  return Object.keys(schema.shape) as (keyof z.output<S> & string)[];
}

/** The fields marked `.meta({ secret: true })`. */
export function secretFieldNames<S extends z.ZodObject>(schema: S): (keyof z.output<S> & string)[] {
  return fieldNames(schema).filter((name) => (schema.shape[name] as z.ZodType).meta()?.secret === true);
}

/** The schema a default, prefault or optional wraps. */
function unwrapped(schema: z.ZodType): z.ZodType {
  const wrapper = schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional;
  return wrapper ? unwrapped(schema.unwrap() as z.ZodType) : schema;
}

/**
 * The fields of an object schema as a person names them: each by its name, except an object of
 * one field, named by the path to that field (`isolation.podSecurity`).
 */
export function readableFieldPaths(schema: z.ZodObject): string[] {
  return fieldNames(schema).map((name) => {
    const inner = unwrapped(schema.shape[name] as z.ZodType);
    if (!(inner instanceof z.ZodObject)) return name;
    const paths = readableFieldPaths(inner);
    return paths.length === 1 ? `${name}.${paths[0]}` : name;
  });
}
