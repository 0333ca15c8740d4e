/**
 * The New tenant form as data: its fields, the request a submitted form asks for (fields left
 * empty are left out, so the platform's defaults apply), and which field each of the service's
 * problems belongs to. The problems are the component's (`resources.cpu: ...`): the form shows
 * them as they are, beside the field they name.
 */
import type { TenantRequestInput } from "../../model/tenantRequestSchema";

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

/** The form field a problem (`<request path>: <rule>`) names, if any. */
function fieldOf(problem: string): TenantFormField | undefined {
  const path = problem.split(": ", 1)[0];
  return TENANT_FORM_FIELDS.find((field) => REQUEST_PATHS[field] === path);
}

/** `problems` sorted to the fields they name. */
export function formProblems(problems: readonly string[]): FormProblems {
  const all = problems.map((text) => ({ text, field: fieldOf(text) }));
  const byField: Partial<Record<TenantFormField, string[]>> = {};
  for (const { text, field } of all) if (field) (byField[field] ??= []).push(text);
  return { byField, all };
}
