import * as pulumi from "@pulumi/pulumi";

/** One rule a tenant input broke. */
export interface InputProblem {
  /** Dotted path of the field, e.g. `resources.cpu`; empty for the tenant name. */
  readonly path: string;
  /** The rule, phrased to complete "<path> ...". */
  readonly message: string;
}

/**
 * Every problem with a tenant's inputs, reported at once and before anything is registered.
 * A `RunError`, so the Pulumi CLI prints the message without a stack trace.
 */
export class TenantValidationError extends pulumi.RunError {
  /** The individual problems, in input order. */
  readonly problems: readonly InputProblem[];

  constructor(tenant: string, problems: readonly InputProblem[]) {
    const lines = problems.map((p) => `  - ${p.path || "name"}: ${p.message}`);
    const count = problems.length === 1 ? "an invalid input" : `${problems.length} invalid inputs`;
    super(`kubespaces:index:Tenant "${tenant}" has ${count}; nothing was created:\n${lines.join("\n")}`);
    this.name = "TenantValidationError";
    this.problems = problems;
  }
}
