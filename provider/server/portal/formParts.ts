/**
 * The pieces every portal form is made of: the CSRF field, a labelled field with its hint and its
 * errors (tied to the control with `aria-describedby` and `aria-invalid`), and the error summary
 * at the top of a refused form, which takes the focus and links to each field.
 */
import { html, type Html } from "./html";

/** The hidden field @fastify/csrf-protection reads the token from (`_csrf`). */
export const csrfField = (token: string): Html => html`<input type="hidden" name="_csrf" value="${token}" />`;

/** One problem of a refused form, for the summary. */
export interface SummaryItem {
  /** The problem, as the service words it. */
  readonly text: string;
  /** The id of the field it belongs to, when it belongs to one: the summary links there. */
  readonly fieldId?: string;
}

/**
 * The summary of a refused form's problems: an alert that takes the focus when the page loads
 * (`autofocus` works without script) and links each problem to its field.
 */
export function errorSummary(items: readonly SummaryItem[]): Html | false {
  if (items.length === 0) return false;
  return html`<div class="error-summary" role="alert" tabindex="-1" autofocus aria-labelledby="error-summary-title">
    <h2 id="error-summary-title">There is a problem</h2>
    <ul>
      ${items.map((item) => html`<li>${item.fieldId ? html`<a href="#${item.fieldId}">${item.text}</a>` : item.text}</li>`)}
    </ul>
  </div>`;
}

/** What a field shows besides its control. */
export interface FieldFrame {
  /** The control's id; its hint and error get `<id>-hint` and `<id>-error`. */
  readonly id: string;
  /** The label's text. */
  readonly label: string;
  /** A hint under the label, when the field needs one. */
  readonly hint?: string;
  /** The problems of the field's value, as the service words them; none when it is fine. */
  readonly errors?: readonly string[];
}

const isInvalid = (frame: FieldFrame): boolean => (frame.errors?.length ?? 0) > 0;

/** The control's ARIA attributes: its hint and errors as its description, and whether it is invalid. */
function described(frame: FieldFrame): Html {
  const ids = [...(frame.hint ? [`${frame.id}-hint`] : []), ...(isInvalid(frame) ? [`${frame.id}-error`] : [])];
  return html`${ids.length > 0 && html` aria-describedby="${ids.join(" ")}"`}${isInvalid(frame) && html` aria-invalid="true"`}`;
}

/** A field: label, hint, errors, then the control. */
function field(frame: FieldFrame, control: Html): Html {
  const invalid = isInvalid(frame);
  return html`<div class="${invalid ? "field field-invalid" : "field"}">
    <label for="${frame.id}">${frame.label}</label>
    ${frame.hint && html`<p class="hint" id="${frame.id}-hint">${frame.hint}</p>`}
    ${invalid && html`<div class="field-error" id="${frame.id}-error">${frame.errors!.map((error) => html`<p><span class="visually-hidden">Error: </span>${error}</p>`)}</div>`}
    ${control}
  </div>`;
}

/** A one-line text field named `name`, holding `value`. */
export function textField(frame: FieldFrame, name: string, value: string): Html {
  return field(
    frame,
    html`<input
      type="text"
      id="${frame.id}"
      name="${name}"
      value="${value}"
      autocomplete="off"
      spellcheck="false"
      ${described(frame)}
    />`,
  );
}

/** One choice of a select. */
export interface SelectOption {
  /** The value sent. */
  readonly value: string;
  /** What the person reads. */
  readonly text: string;
}

/** A select named `name` with `options`, `value` selected. */
export function selectField(frame: FieldFrame, name: string, options: readonly SelectOption[], value: string): Html {
  return field(
    frame,
    html`<select id="${frame.id}" name="${name}" ${described(frame)}>
      ${options.map((option) => html`<option value="${option.value}" ${option.value === value && html` selected`}>${option.text}</option>`)}
    </select>`,
  );
}
