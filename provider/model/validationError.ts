/**
 * The error for invalid tenant inputs. It does not import `@pulumi/pulumi`, so that validation runs
 * where Pulumi is not loaded (a CLI, a server, a CI check of Tenant files).
 */
import { TENANT_TOKEN } from "./tokens";

/** The values of a broken rule that one field must not exceed another. */
export interface ExceededBound {
  /** The field's value, e.g. `2`. */
  readonly value: string;
  /** The dotted path of the field it must not exceed, e.g. `resources.cpu`. */
  readonly boundPath: string;
  /** That field's value, e.g. `500m`. */
  readonly bound: string;
}

/** One rule a tenant input broke. */
export interface InputProblem {
  /** Dotted path of the field, e.g. `resources.cpu`; empty for the tenant name. */
  readonly path: string;
  /** The rule, phrased to complete "<path> ...". */
  readonly message: string;
  /**
   * When the rule is that this field must not exceed another: both values, so that a door that
   * shows only the other field (the portal's form shows `resources.cpu`, not the control plane's
   * limit the platform's default set) can word the problem as a consequence of that field.
   */
  readonly exceeds?: ExceededBound;
}

/**
 * Every problem with a tenant's inputs, reported at once and before anything is registered. It is
 * marked as a Pulumi `RunError` (the SDK recognises the marker, not the class), so the Pulumi CLI
 * prints the message without a stack trace.
 */
export class TenantValidationError extends Error {
  /** The individual problems, in input order. */
  readonly problems: readonly InputProblem[];
  /** The marker `pulumi.RunError.isInstance` checks. */
  readonly __pulumiRunError = true;

  constructor(tenant: string, problems: readonly InputProblem[]) {
    const lines = problems.map((p) => `  - ${labelOf(p)}: ${p.message}`);
    const count = problems.length === 1 ? "an invalid input" : `${problems.length} invalid inputs`;
    super(`${TENANT_TOKEN} "${tenant}" has ${count}; nothing was created:\n${lines.join("\n")}`);
    this.name = "TenantValidationError";
    this.problems = problems;
  }
}

/** Whether `problem` is a field the inputs may not have (zod's unrecognized keys, as toProblem words them). */
export function isUnknownField(problem: InputProblem): boolean {
  return problem.message.startsWith("unknown field");
}

/** Where a problem is, for people: its field; the empty path is the name, or the inputs as a whole for an unknown field. */
export function labelOf(problem: InputProblem): string {
  if (problem.path !== "") return problem.path;
  return isUnknownField(problem) ? "inputs" : "name";
}
