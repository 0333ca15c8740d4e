/**
 * HTML built from template literals in which every interpolated value is escaped, unless it is
 * HTML made the same way. Hand-written because no HTML-escaping package is among the package's
 * dependencies, and the rule fits in a few lines: text in an element or a quoted attribute is safe
 * once `&`, `<`, `>`, `"` and `'` are entities. Markup is never built by string concatenation.
 */

/** HTML made by `html`: not exported as a class, so no caller can wrap unescaped text as HTML. */
class SafeHtml {
  constructor(readonly markup: string) {}

  /** The markup, for the answer's body. */
  toString(): string {
    return this.markup;
  }
}

/** A piece of HTML that is safe to put in a page as it is: made by `html`, never from raw text. */
export type Html = SafeHtml;

/**
 * What a template may interpolate: HTML (as it is), text and numbers (escaped), lists of these
 * (joined), and nothing (`undefined`, `null`, `false`: left out, for `condition && html\`...\``).
 */
export type HtmlValue = Html | string | number | false | null | undefined | readonly HtmlValue[];

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` with every character that could end an element's text or a quoted attribute as an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

function markupOf(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(markupOf).join("");
  if (value === undefined || value === null || value === false) return "";
  return escapeHtml(String(value));
}

/** HTML from a template: the template's own text as written, every interpolated value escaped (see HtmlValue). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  const parts = strings.map((text, index) => (index < values.length ? text + markupOf(values[index]) : text));
  return new SafeHtml(parts.join(""));
}
