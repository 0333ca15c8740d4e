/** Zod schemas that name their own type in schema.json and the SDKs generated from it. */
import type { z } from "zod";

/**
 * `schema` titled `title`, which the generators make the name of its type
 * (`kubespaces:index:<title>`) in place of one made from the parent's name and the field's, and
 * described by `description`.
 */
export function namedType<S extends z.ZodType>(title: string, description: string, schema: S): S {
  return schema.meta({ title }).describe(description);
}
