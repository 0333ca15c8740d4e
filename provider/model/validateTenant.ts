/**
 * Turns a tenant's raw inputs into a TenantSpec, or reports every problem at once: the zod rules of
 * the request and the platform's policy first, then the rules of policyRules.ts.
 */
import type { z } from "zod";
import { chartValuesProblems } from "./chartValuesRule";
import { policyProblems, type ValidationContext } from "./policyRules";
import { DNS_LABEL, tenantArgsSchema } from "./tenantArgsSchema";
import type { TenantPlatformInput } from "./tenantPlatformSchema";
import { tenantRequestSchema } from "./tenantRequestSchema";
import type { TenantSpec } from "./tenantSpec";
import { tenantSpecOf } from "./tenantSpecOf";
import {
  RELEASE_NAME_MAX_LENGTH,
  RELEASE_NAME_TOO_LONG,
  TENANT_NAME_START,
  TENANT_NAME_START_MESSAGE,
} from "./tenantName";
import { toProblem } from "./inputProblems";
import { isUnknownField, TenantValidationError, type InputProblem } from "./validationError";
import { readableFieldPaths } from "../util/zodFields";

export type { ValidationContext };

/** Validates `input` (a request and `platform`) for tenant `name`; throws TenantValidationError listing every problem. */
export function validateTenant(name: string, input: unknown, context: ValidationContext = {}): TenantSpec {
  const problems = nameProblems(name);
  const parsed = tenantArgsSchema.safeParse(input, { reportInput: true });
  if (!parsed.success)
    throw new TenantValidationError(name, [...problems, ...parsed.error.issues.map((issue) => toProblem(issue))]);
  const spec = tenantSpecOf(name, parsed.data);
  problems.push(...policyProblems(spec, parsed.data, context));
  // The chart's schema speaks of the merged values, which mean something only once the rest holds.
  if (problems.length === 0) problems.push(...chartValuesProblems(spec));
  if (problems.length > 0) throw new TenantValidationError(name, problems);
  return spec;
}

/**
 * The problems of a tenant's inputs that have resolved already (plain values), while others (at
 * `pending`, the key paths left out of `resolved`) are still Outputs or Promises: the name's, and
 * each resolved field's own rules. The rules between fields wait for validateTenant, once
 * everything has resolved.
 */
export function resolvedInputProblems(
  name: string,
  resolved: unknown,
  pending: readonly (readonly string[])[],
): InputProblem[] {
  const parsed = tenantArgsSchema.safeParse(resolved, { reportInput: true });
  // A pending field is missing from `resolved`: "is required" there, or anything below it, is no news.
  const about = (issue: z.core.$ZodIssue) =>
    pending.some((path) => path.every((key, i) => String(issue.path[i]) === key));
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => !about(issue));
  return [...nameProblems(name), ...issues.map((issue) => toProblem(issue))];
}

/**
 * Validates a team's request as a self-service door receives it, under the platform's policy: the
 * request may hold only request fields (`platform` among them is refused), then it is validated
 * with the policy like any Tenant's inputs.
 */
export function validateRequest(
  name: string,
  request: unknown,
  platform: TenantPlatformInput = {},
  context: ValidationContext = {},
): TenantSpec {
  const parsed = tenantRequestSchema.safeParse(request, { reportInput: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => toProblem(issue));
    throw new TenantValidationError(name, [...nameProblems(name), ...problems.map(platformOwned)]);
  }
  return validateTenant(name, { ...(request as object), platform }, context);
}

// What a request may hold, for the message that refuses anything else.
const REQUEST_PATHS = readableFieldPaths(tenantRequestSchema);
const REQUEST_FIELDS = `${REQUEST_PATHS.slice(0, -1).join(", ")} and ${REQUEST_PATHS.at(-1)}`;

/** An unknown request field that belongs to the platform says so. */
function platformOwned(problem: InputProblem): InputProblem {
  if (!isUnknownField(problem)) return problem;
  return {
    ...problem,
    message: `${problem.message}: a request holds ${REQUEST_FIELDS} only; the rest is the platform's policy`,
  };
}

function nameProblems(name: string): InputProblem[] {
  if (name.length > RELEASE_NAME_MAX_LENGTH)
    return [{ path: "", message: `${RELEASE_NAME_TOO_LONG}, got ${name.length}` }];
  if (!DNS_LABEL.test(name))
    return [{ path: "", message: `must be a DNS-1123 label (lower-case letters, digits and '-'), got "${name}"` }];
  if (!TENANT_NAME_START.test(name)) return [{ path: "", message: `${TENANT_NAME_START_MESSAGE}, got "${name}"` }];
  return [];
}
