/**
 * A change's plan: what a preview of a tenant's stack says would change, counted by kind, with each
 * changing step and its changed fields. Every door shows a preview in this one shape: the approval
 * gate's and a preview-only Tenant's status, the API's preview, the command's `--preview` and the
 * portal's pages.
 */
import type { ResourceStep } from "./tenantObject";

/** What a preview says would change. */
export interface ChangePlan {
  /** How many resources the change creates. */
  readonly creates: number;
  /** How many it updates in place. */
  readonly updates: number;
  /** How many it replaces (each replacement's create and delete counted as one step each). */
  readonly replaces: number;
  /** How many it deletes. */
  readonly deletes: number;
  /** Each step that changes something, in the engine's order, with its changed fields. */
  readonly steps: readonly ResourceStep[];
}

/** The steps that leave a resource as it is: unchanged, read, or read again by a refresh (which a preview with a refresh reports for each). */
const UNCHANGED_OPS: ReadonlySet<string> = new Set(["same", "read", "refresh"]);

/** The plan of a preview's `steps`: what changes, counted by kind; what stays the same is left out. */
export function planOf(steps: readonly ResourceStep[]): ChangePlan {
  const changing = steps.filter((s) => !UNCHANGED_OPS.has(s.op));
  const count = (...ops: string[]) => changing.filter((s) => ops.includes(s.op)).length;
  return {
    creates: count("create"),
    updates: count("update"),
    replaces: count("replace", "create-replacement", "delete-replaced"),
    deletes: count("delete"),
    steps: changing.map((step) => ({ ...step, diffs: [...step.diffs] })),
  };
}

/** The plan in a few words, the same at every door. */
export const planSummary = (plan: ChangePlan): string =>
  `${plan.creates} to create, ${plan.updates} to update, ${plan.replaces} to replace, ${plan.deletes} to delete`;
