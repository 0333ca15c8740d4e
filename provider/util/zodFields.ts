/** Field lists read from zod object schemas, so that lists of names are never kept by hand. */
import type { z } from "zod";

/** The field names of an object schema, in declaration order. */
export function fieldNames<S extends z.ZodObject>(schema: S): (keyof z.output<S> & string)[] {
  return Object.keys(schema.shape) as (keyof z.output<S> & string)[];
}

/** The fields marked `.meta({ secret: true })`. */
export function secretFieldNames<S extends z.ZodObject>(schema: S): (keyof z.output<S> & string)[] {
  return fieldNames(schema).filter((name) => (schema.shape[name] as z.ZodType).meta()?.secret === true);
}
