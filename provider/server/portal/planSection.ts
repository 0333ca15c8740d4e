/**
 * A preview's plan on a portal page, the one way the portal shows one (New tenant's preview, the
 * delete page, a tenant whose change is held): the counts by kind in the command's words
 * (tenants/tenantPlan.ts's planSummary), then a table of each step that changes something with
 * its changed fields. Every text is the engine's or the server's, escaped as all text is.
 */
import { planSummary, type ChangePlan } from "../../tenants/tenantPlan";
import { html, type Html } from "./html";
import { tableOf } from "./viewParts";

/** What a step does, in words a person reads in a table. */
const STEP_WORDS: Readonly<Record<string, string>> = {
  create: "create",
  update: "update",
  delete: "delete",
  replace: "replace",
  "create-replacement": "create a replacement",
  "delete-replaced": "delete the replaced",
};

/** The resource kind of a Pulumi type token, as people know it (`kubernetes:core/v1:Namespace`: Namespace). */
const kindOf = (type: string): string => type.split(":").pop() ?? type;

/** How the section is headed, and what `extra` it shows (attributes of the section, a lead paragraph). */
export interface PlanFrame {
  /** The section's heading. */
  readonly title: string;
  /** The heading's id (each page may show one plan). */
  readonly id: string;
  /** A sentence before the counts. */
  readonly lead: string;
  /** Attributes the section carries (the tenant page's `data-show-phases`). */
  readonly attributes?: Html;
}

/** `plan` as a section of a page. */
export function planSection(frame: PlanFrame, plan: ChangePlan): Html {
  const rows = plan.steps.map(
    (step) =>
      html`<tr>
        <td>${STEP_WORDS[step.op] ?? step.op}</td>
        <td>${kindOf(step.type)}</td>
        <td><code>${step.name}</code></td>
        <td>${step.diffs.length > 0 ? step.diffs.join(", ") : "—"}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="${frame.id}" data-plan ${frame.attributes ?? html``}>
    <h2 id="${frame.id}">${frame.title}</h2>
    <p>${frame.lead} <strong data-plan-summary>${planSummary(plan)}</strong>.</p>
    ${
      rows.length === 0
        ? html`<p>Nothing would change.</p>`
        : tableOf(`${frame.title}: each resource it changes`, ["Step", "Kind", "Name", "Changed fields"], rows)
    }
  </section>`;
}
