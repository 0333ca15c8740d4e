/**
 * A platform policy read from a file (a login's `--policy`, a server's configuration), checked
 * against the policy's schema, and the way both name a value's problems on one line.
 */
import type { z } from "zod";
import { ProblemError } from "../util/problemError";
import { toProblem } from "./inputProblems";
import { tenantPlatformSchema, type TenantPlatformInput } from "./tenantPlatformSchema";

/**
 * The platform's policy `value` read from `file`, checked against the policy's schema; a
 * ProblemError ("invalid") naming each field and rule otherwise.
 */
export function parsePlatformPolicy(file: string, value: unknown): TenantPlatformInput {
  const parsed = tenantPlatformSchema.safeParse(value ?? {}, { reportInput: true });
  if (!parsed.success)
    throw new ProblemError(`${file} is not a valid platform policy: ${problemLines(parsed.error.issues)}`, "invalid");
  if ((value as { hostKubeconfig?: unknown } | null)?.hostKubeconfig !== undefined) {
    throw new ProblemError(
      `${file}: hostKubeconfig does not belong in a policy file; \`kubespaces login --context\` names the host cluster`,
      "invalid",
    );
  }
  // An empty policy file (YAML null) is the default policy.
  return (value ?? {}) as TenantPlatformInput;
}

/** The issues as "field: rule"; `flags` names a field by the flag that sets it. */
export function problemLines(issues: readonly z.core.$ZodIssue[], flags: Record<string, string> = {}): string {
  return issues
    .map((issue) => toProblem(issue))
    .map((p) => `${flags[p.path] ?? (p.path || "(top)")}: ${p.message}`)
    .join("; ");
}
