/** Small pieces the portal's tenant pages share: times, the owner, tables, and what a missing value reads as. */
import type { TenantView } from "../../tenantResource/tenantReplies";
import { html, type Html } from "./html";

/** What a value the tenant does not have yet (an endpoint before provisioning) reads as. */
export const NOT_YET = "not yet known";

/** The owner the tenant's request names. */
export const ownerOf = (tenant: TenantView): string | undefined => tenant.spec.owner;

/** A time (RFC 3339) as a `<time>` element, to the minute in UTC; `unknown` when there is none. */
export function timeText(time: string | undefined): Html {
  if (!time) return html`unknown`;
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return html`${time}`;
  const minute = date.toISOString().slice(0, 16).replace("T", " ");
  return html`<time datetime="${date.toISOString()}">${minute} UTC</time>`;
}

/** A table of `rows` under `headings`, its caption read by screen readers only (the section's heading says it for the eye). */
export function tableOf(caption: string, headings: readonly string[], rows: readonly Html[]): Html {
  return html`<table>
    <caption class="visually-hidden">
      ${caption}
    </caption>
    <thead>
      <tr>
        ${headings.map((heading) => html`<th scope="col">${heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
