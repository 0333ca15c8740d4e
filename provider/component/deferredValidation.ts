/**
 * Validation of a Tenant whose inputs hold Outputs, once they resolve. A broken rule then fails
 * as one error of the Tenant's, naming each field, and no child reaches the engine: every child
 * waits for the verdict before its own inputs, and the Tenant's outputs settle with the same error.
 *
 * Pulumi fails a program only through an error left unhandled, and reports each error object once
 * however many registrations raise it. So the verdict is one error object, raised again by each
 * child and output that waits for it, and nothing else fails: the spec the children are rendered
 * from stays pending instead of rejecting, so none of their inputs raises an error of its own (nor
 * buries the field's name under the path through the Tenant's internals).
 */
import * as pulumi from "@pulumi/pulumi";
import type { TenantSpec } from "../model/tenantSpec";
import { TenantValidationError, type InputProblem } from "../model/validationError";
import { pendingPaths } from "./unresolvedInputs";

/** A Tenant's inputs broke a rule once its Outputs resolved; raised through the Tenant. */
export class ResolvedInputsError extends pulumi.ResourceError {
  /** The individual problems, in input order. */
  readonly problems: readonly InputProblem[];

  /**
   * @param cause the problems, worded as for plain inputs.
   * @param tenant the Tenant, which the CLI shows the error beside.
   */
  constructor(cause: TenantValidationError, tenant: pulumi.Resource) {
    super(cause.message, tenant, /* hideStack */ true);
    this.name = "ResolvedInputsError";
    this.problems = cause.problems;
    // The SDK prefixes `error serializing property "<key>": ` onto this same object each time it
    // passes through an input (runtime/rpc.js); the message keeps naming the field as written.
    Object.defineProperty(this, "message", { get: () => cause.message, set: () => undefined, configurable: true });
  }
}

/** A Tenant's spec, to be validated once its inputs resolve, and the verdict its children wait for. */
export interface DeferredValidation {
  /** The spec; it stays pending when the inputs break a rule, so that nothing rendered from it fails on its own. */
  readonly spec: pulumi.Output<TenantSpec>;
  /** Resolves once the inputs are valid (or unknown, in a preview); rejects with the one ResolvedInputsError otherwise. */
  readonly verdict: pulumi.Output<unknown>;
}

const NEVER = new Promise<never>(() => undefined);

/**
 * Validates `args` of Tenant `name` with `validate` once they resolve; its TenantValidationError
 * becomes the Tenant's ResolvedInputsError, with the text of any Output marked secret left out.
 */
export function validateOnceResolved(
  tenant: pulumi.Resource,
  name: string,
  args: object,
  validate: (plain: unknown) => TenantSpec,
): DeferredValidation {
  const verdict = pulumi.all([pulumi.output(args), secretTexts(args)]).apply(([plain, secrets]) => {
    try {
      return validate(plain);
    } catch (error) {
      if (!(error instanceof TenantValidationError)) throw error;
      throw new ResolvedInputsError(
        new TenantValidationError(
          name,
          error.problems.map((problem) => redacted(problem, secrets)),
        ),
        tenant,
      );
    }
  });
  return { spec: pulumi.recover(verdict, () => NEVER), verdict };
}

/**
 * The texts that the Outputs among `args` marked secret resolve to. Rules quote what they were
 * given, and Pulumi prints errors unmasked; the inputs the schema marks secret are never quoted
 * (inputProblems.ts), but any Output may be made secret.
 */
function secretTexts(args: object): pulumi.Output<string[]> {
  const texts = pendingPaths(args).map((path) => {
    const value = pulumi.output(path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], args));
    return pulumi
      .output(pulumi.isSecret(value))
      .apply((secret) => (secret ? pulumi.unsecret(value).apply(textsIn) : []));
  });
  return pulumi.all(texts).apply((lists) => lists.flat());
}

/** The strings in `value`, at any depth. */
function textsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(textsIn);
}

/** `problem` with every secret text in its message replaced; only whitespace is no secret to keep. */
function redacted(problem: InputProblem, secrets: readonly string[]): InputProblem {
  const message = secrets
    .filter((text) => text.trim() !== "")
    .reduce((text, secret) => text.split(secret).join("[secret]"), problem.message);
  return { ...problem, message };
}

/** `value`, settled by `verdict` first: it rejects with the verdict's error even when `value` would never resolve. */
export function afterVerdict(
  verdict: pulumi.Output<unknown> | undefined,
  value: pulumi.Output<unknown>,
): pulumi.Output<unknown> {
  return verdict ? pulumi.all([verdict, value]).apply(([, settled]) => settled) : value;
}
