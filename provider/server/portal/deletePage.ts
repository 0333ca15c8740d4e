/**
 * The delete page of a tenant: what its teardown would remove (the preview's plan) before anything
 * is typed, then the confirmation form, sent only with the tenant's name typed exactly. A refused
 * confirmation comes back here with the plan previewed again, what was typed kept, and the problem
 * beside the field.
 */
import type { ChangePlan } from "../../tenants/tenantPlan";
import { csrfField, errorSummary, textField } from "./formParts";
import { html } from "./html";
import { page, type PageFrame } from "./layout";
import { planSection } from "./planSection";
import { PORTAL_PATHS } from "./portalPaths";

/** The id of the confirmation field. */
export const CONFIRM_FIELD_ID = "delete-confirm";

/** What the delete page shows. */
export interface DeletePageView {
  /** The tenant's name. */
  readonly name: string;
  /** What deleting it would remove. */
  readonly plan: ChangePlan;
  /** When a delete was refused: what was typed as confirmation, and why it was refused. */
  readonly refused?: { readonly typed: string; readonly problem: string };
}

/** The delete page; its title says "Error" first when a confirmation was refused. */
export function deletePage(frame: Omit<PageFrame, "title" | "script">, view: DeletePageView): string {
  const { name, plan, refused } = view;
  const field = {
    id: CONFIRM_FIELD_ID,
    label: `Type the tenant's name, ${name}, to confirm`,
    errors: refused && [refused.problem],
  };
  const planFrame = {
    id: "plan-title",
    title: "What the delete removes",
    lead: "The preview of the tenant's teardown; nothing was removed yet:",
  };
  return page(
    { ...frame, title: `${refused ? "Error: " : ""}Delete tenant ${name}` },
    html`<h1>Delete tenant ${name}</h1>
      ${refused && errorSummary([{ text: refused.problem, fieldId: CONFIRM_FIELD_ID }])}
      <p>
        Deleting removes the virtual cluster, its namespace on the host and everything in them, including what the team
        made inside it. It cannot be undone.
      </p>
      ${planSection(planFrame, plan)}
      <form method="post" action="${PORTAL_PATHS.delete(name)}" novalidate>
        ${csrfField(frame.csrfToken ?? "")} ${textField(field, "confirm", refused?.typed ?? "")}
        <button type="submit" class="button-danger">Delete tenant</button>
      </form>
      <p><a href="${PORTAL_PATHS.tenant(name)}">Back to tenant ${name}</a></p>`,
  );
}
