/** zod issues as the InputProblems users read: the field's dotted path and the rule it broke. */
import { z } from "zod";
import { tenantArgsSchema } from "./tenantArgsSchema";
import type { InputProblem } from "./validationError";

type JsonNode = { properties?: Record<string, JsonNode>; secret?: boolean };

/** Dotted paths of the inputs marked secret (read from the schema's `secret` meta), never quoted. */
const SECRET_PATHS = new Set<string>(
  secretPaths(z.toJSONSchema(tenantArgsSchema, { io: "input", unrepresentable: "any" }) as JsonNode, ""),
);

function secretPaths(node: JsonNode, prefix: string): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return child.secret ? [path] : secretPaths(child, path);
  });
}

/** A zod issue as an InputProblem, its path prefixed with `prefix`. */
export function toProblem(issue: z.core.$ZodIssue, prefix: readonly string[] = []): InputProblem {
  const path = [...prefix, ...issue.path.map(String)].join(".");
  if (issue.code === "unrecognized_keys") {
    return { path, message: `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}` };
  }
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return { path, message: "is required" };
    // A number of the wrong kind (1.5 for a count, Infinity or NaN from YAML's .inf and .nan) is quoted.
    if (typeof issue.input === "number" && (issue.expected === "int" || issue.expected === "number"))
      return {
        path,
        message: `must be ${issue.expected === "int" ? "a whole" : "a finite"} number, got ${issue.input}`,
      };
    const received = issue.input === null ? "null" : Array.isArray(issue.input) ? "array" : typeof issue.input;
    return { path, message: `must be ${article(issue.expected)} ${issue.expected}, got ${received}` };
  }
  // Secret fields (the host kubeconfig) are never quoted: Pulumi prints errors unmasked.
  const quotable = typeof issue.input === "string" && !SECRET_PATHS.has(path);
  return { path, message: `${issue.message}${quotable ? ` (got "${issue.input}")` : ""}` };
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? "an" : "a";
}
