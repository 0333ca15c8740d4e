/**
 * Rules of a field that the API server checks too, in CEL, beside zod's check in code: the Tenant
 * CRD carries them as `x-kubernetes-validations` (tenantResource/structuralSchema.ts), so that
 * `kubectl apply` refuses a bad Tenant at once, with the message every other door gives for the
 * same field, instead of storing it for the reconciler to refuse later. A schema part registers
 * its rules next to the zod rule they mirror (schemaParts.ts); each message is one constant that
 * both use. The rules live in a registry of their own, not in zod's metadata, so that the other
 * JSON Schemas made from the same zod schemas (the package schema, the API's OpenAPI document)
 * do not carry Kubernetes extensions.
 */
import { z } from "zod";

/** One CEL rule of a CRD schema node (`x-kubernetes-validations[]`), about the node itself (`self`). */
export interface ApiServerRule {
  /** A CEL expression over `self` that is true when the value is good. */
  readonly rule: string;
  /** What the API server answers when `rule` is false, after the field's path. */
  readonly message: string;
}

/** The CEL rules registered for zod schemas, read when a CRD schema is made. */
export const apiServerRules = z.registry<{ readonly rules: readonly ApiServerRule[] }>();

/** `schema`, with `rules` registered as what the API server checks of it. */
export function checkedByApiServerToo<T extends z.ZodType>(schema: T, rules: readonly ApiServerRule[]): T {
  apiServerRules.add(schema, { rules });
  return schema;
}

/** Text as a CEL string literal (JSON's escapes are CEL's), for the CRD's rules and the admission policies. */
export const celLiteral = (text: string): string => JSON.stringify(text);
