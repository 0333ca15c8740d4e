/**
 * The New tenant page: a name and a quota (and the Pod Security level), posted as an ordinary
 * form to be previewed first. A previewed form comes back with the plan of what a create would
 * make and a Create button that sends exactly the previewed values (a changed field is previewed
 * again before it can be created). A refused form comes back with the values kept, the service's
 * problems in a summary at the top and each beside its field.
 */
import { DEFAULT_MINIMUM_QUOTA } from "../../generated/defaultMinimumQuota";
import { csrfField, errorSummary, selectField, textField, type FieldFrame } from "./formParts";
import { html } from "./html";
import { page, type PageFrame } from "./layout";
import { planSection } from "./planSection";
import { PORTAL_PATHS } from "./portalPaths";
import type { ChangePlan } from "../../tenants/tenantPlan";
import {
  fieldId,
  TENANT_FORM_FIELDS,
  type FormProblems,
  type TenantFormField,
  type TenantFormValues,
} from "./tenantForm";

/** The labels and hints of the form's fields. */
const FIELDS: Readonly<Record<TenantFormField, Omit<FieldFrame, "id" | "errors">>> = {
  name: {
    label: "Name",
    hint: "A DNS label: lower-case letters, digits and '-', starting with a letter. It names the virtual cluster and its namespace.",
  },
  cpu: {
    label: "CPU",
    hint: "Cores for the whole tenant, as a Kubernetes quantity (2, 500m). Leave empty for the platform's default.",
  },
  memory: {
    label: "Memory",
    hint: "Memory for the whole tenant, as a Kubernetes quantity (4Gi, 512Mi). Leave empty for the platform's default.",
  },
  storage: {
    label: "Storage",
    hint: "Persistent storage for the whole tenant, as a Kubernetes quantity (10Gi). Leave empty for the platform's default.",
  },
  podSecurity: {
    label: "Pod Security level",
    hint: "The Pod Security Admission level enforced on the tenant's namespace on the host; one the platform allows.",
  },
};

const POD_SECURITY_OPTIONS = [
  { value: "", text: "The platform's default" },
  { value: "baseline", text: "baseline" },
  { value: "restricted", text: "restricted" },
];

/** What the New tenant page shows. */
export interface NewTenantView {
  /** The values to show (empty for a new form, as typed for a refused one). */
  readonly values: TenantFormValues;
  /** Why the form was refused, when it was. */
  readonly problems?: FormProblems;
  /** What creating the tenant with `values` would make, once previewed. */
  readonly plan?: ChangePlan;
}

function fieldOf(field: TenantFormField, view: NewTenantView) {
  const frame = { ...FIELDS[field], id: fieldId(field), errors: view.problems?.byField[field] };
  return field === "podSecurity"
    ? selectField(frame, field, POD_SECURITY_OPTIONS, view.values[field])
    : textField(frame, field, view.values[field]);
}

/** The New tenant page; its title says "Error" first when the form was refused. */
export function newTenantPage(frame: Omit<PageFrame, "title" | "current">, view: NewTenantView): string {
  const problems = view.problems?.all ?? [];
  const { cpu, memory, storage } = DEFAULT_MINIMUM_QUOTA;
  return page(
    { ...frame, title: problems.length > 0 ? "Error: New tenant" : "New tenant", current: "newTenant" },
    html`<h1>New tenant</h1>
      ${errorSummary(problems.map(({ text, field }) => ({ text, fieldId: field && fieldId(field) })))}
      <p>
        The quota holds everything in the tenant, its own virtual cluster included: under the default policy it needs at
        least ${cpu} CPU, ${memory} of memory and ${storage} of storage.
      </p>
      <form method="post" action="${PORTAL_PATHS.previewCreate}" novalidate>
        ${csrfField(frame.csrfToken ?? "")} ${TENANT_FORM_FIELDS.map((field) => fieldOf(field, view))}
        ${
          view.plan
            ? html`<button type="submit" class="button-secondary">Preview again</button>`
            : html`<button type="submit">Preview</button>`
        }
      </form>
      ${view.plan && createSection(view.values, view.plan, frame.csrfToken ?? "")}`,
  );
}

/** The previewed plan, and the Create form that sends the previewed values as they are. */
function createSection(values: TenantFormValues, plan: ChangePlan, csrfToken: string) {
  const frame = {
    id: "plan-title",
    title: `What creating ${values.name} makes`,
    lead: "The preview of the tenant's stack, on the host as it is now; nothing was made yet:",
  };
  return html`${planSection(frame, plan)}
    <form method="post" action="${PORTAL_PATHS.create}">
      ${csrfField(csrfToken)}
      ${TENANT_FORM_FIELDS.map((field) => html`<input type="hidden" name="${field}" value="${values[field]}" />`)}
      <button type="submit">Create tenant</button>
    </form>`;
}
