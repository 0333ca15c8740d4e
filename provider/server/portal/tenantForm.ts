/**
 * The New tenant form as data: its fields, the request a submitted form asks for (fields left
 * empty are left out, so the platform's defaults apply), and which field each of the service's
 * problems belongs to. The problems are the component's (`resources.cpu: ...`): the form shows
 * them as they are, beside the field they name. A problem of a field the form does not show (the
 * platform's defaults fill it) that follows from a field it does show (the control plane's CPU
 * limit above the CPU typed) is worded from that field's side and shown beside it; any other is
 * the platform's to fix, and says so.
 */
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { labelOf, type InputProblem } from "../../model/validationError";

/** The form's fields, by the name the browser sends. */
export const TENANT_FORM_FIELDS = ["name", "cpu", "memory", "storage", "podSecurity"] as const;
/** One of them. */
export type TenantFormField = (typeof TENANT_FORM_FIELDS)[number];

/** The values of a form, as typed (trimmed); empty when left out. */
export type TenantFormValues = Readonly<Record<TenantFormField, string>>;

/** The request's field each form field fills, as the service's problems name it. */
const REQUEST_PATHS: Readonly<Record<TenantFormField, string>> = {
  name: "name",
  cpu: "resources.cpu",
  memory: "resources.memory",
  storage: "resources.storage",
  podSecurity: "isolation.podSecurity",
};

/** The id of a form field's control (for labels and the error summary's links). */
export const fieldId = (field: TenantFormField): string => `tenant-${field}`;

/** A form's values from a parsed form body: each field's text, trimmed; anything else is empty. */
export function tenantFormValues(body: unknown): TenantFormValues {
  const fields = (body ?? {}) as Readonly<Record<string, unknown>>;
  const text = (field: TenantFormField): string => {
    const value = fields[field];
    return typeof value === "string" ? value.trim() : "";
  };
  return Object.fromEntries(TENANT_FORM_FIELDS.map((field) => [field, text(field)])) as TenantFormValues;
}

/** The team's request the form asks for; the service checks it, and the owner is the caller. */
export function requestOfForm(values: TenantFormValues): Omit<TenantRequestInput, "owner"> {
  const resources = Object.fromEntries(
    (["cpu", "memory", "storage"] as const).filter((field) => values[field] !== "").map((f) => [f, values[f]]),
  );
  return {
    ...(Object.keys(resources).length > 0 && { resources }),
    // Typed as the request's level, but as typed: the service checks it with the component's message.
    ...(values.podSecurity !== "" && {
      isolation: { podSecurity: values.podSecurity as "baseline" | "restricted" },
    }),
  };
}

/** The service's problems, each beside its field when it names one of the form's. */
export interface FormProblems {
  /** Each field's problems. */
  readonly byField: Readonly<Partial<Record<TenantFormField, readonly string[]>>>;
  /** Every problem in the service's order, with the field it belongs to, if any. */
  readonly all: readonly { readonly text: string; readonly field?: TenantFormField }[];
}

/** The form field whose request path is `path`, if any. */
const fieldAt = (path: string): TenantFormField | undefined =>
  TENANT_FORM_FIELDS.find((field) => REQUEST_PATHS[field] === path);

/**
 * The fields the form does not show whose limit a typed quantity bounds, by path without the
 * resource (`.cpu`, `.memory`): what each one is, for a person who never set it.
 */
const UNSHOWN_BOUNDED: Readonly<Record<string, string>> = {
  "vcluster.controlPlaneResources.limits": "the tenant's own control plane needs",
  "limitRange.defaultLimit": "each container that sets no limit of its own is given",
};

/** An amount of a resource the form asks for, for people: `500m CPU`, `512Mi of memory`. */
function amount(resource: string, quantity: string): string {
  return resource === "cpu" ? `${quantity} CPU` : `${quantity} of ${resource}`;
}

/** What the person reads of `problem`, and the field it goes beside. */
function placed(problem: InputProblem): { text: string; field?: TenantFormField } {
  const label = labelOf(problem);
  const field = fieldAt(label);
  if (field) return { text: `${label}: ${problem.message}`, field };
  const bound = problem.exceeds && fieldAt(problem.exceeds.boundPath);
  if (problem.exceeds && bound) {
    const resource = label.slice(label.lastIndexOf(".") + 1);
    const what = UNSHOWN_BOUNDED[label.slice(0, label.lastIndexOf("."))] ?? `${label} (the platform's default) is`;
    const { value, bound: typed } = problem.exceeds;
    return {
      text: `with ${amount(resource, typed)}, ${what} ${amount(resource, value)}, more than the whole tenant has`,
      field: bound,
    };
  }
  return { text: `${label}: ${problem.message} (the platform sets this, not this form: ask the platform team)` };
}

/** The form field a problem the service worded (`<request path>: <rule>`) names, if any. */
const fieldOfText = (problem: string): TenantFormField | undefined => fieldAt(problem.split(": ", 1)[0]!);

/**
 * `problems` sorted to the fields they belong to: the component's problems (InputProblem) placed
 * and worded for the form, and the service's own (text) beside the field they name.
 */
export function formProblems(problems: readonly (InputProblem | string)[]): FormProblems {
  const all = problems.map((problem) =>
    typeof problem === "string" ? { text: problem, field: fieldOfText(problem) } : placed(problem),
  );
  const byField: Partial<Record<TenantFormField, string[]>> = {};
  for (const { text, field } of all) if (field) (byField[field] ??= []).push(text);
  return { byField, all };
}
