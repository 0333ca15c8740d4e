/**
 * The tenant page's history: the tenant's updates, newest first (when, the result, the request's
 * generation, the platform revision, who ran it and what changed), each with a Roll back button
 * for the tenant's owner and the admins when it recorded its request. A rollback is a change like
 * any other: the server previews it, and holds it for approval where the platform requires it.
 */
import type { StackUpdate } from "../../tenants/ports";
import { changesText } from "../../tenants/updateChanges";
import { csrfField } from "./formParts";
import { html, type Html } from "./html";
import { PORTAL_PATHS } from "./portalPaths";
import { tableOf, timeText } from "./viewParts";

/** What the history section shows. */
export interface HistoryView {
  /** The tenant's name. */
  readonly name: string;
  /** Its updates, newest first. */
  readonly updates: readonly StackUpdate[];
  /** The CSRF token of the Roll back forms; none: no forms (the person may not roll it back). */
  readonly csrfToken?: string;
}

/** The Roll back form of `update`, when it recorded its request and the person may roll the tenant back. */
function rollbackForm(view: HistoryView, update: StackUpdate): Html | false {
  if (!view.csrfToken || !update.request) return false;
  return html`<form method="post" action="${PORTAL_PATHS.rollback(view.name)}">
    ${csrfField(view.csrfToken)}
    <input type="hidden" name="version" value="${String(update.version)}" />
    <button type="submit" class="button">Roll back to the request of update ${String(update.version)}</button>
  </form>`;
}

/** The section. */
export function historySection(view: HistoryView): Html {
  const rows = view.updates.map(
    (update) =>
      html`<tr>
        <th scope="row">${String(update.version)}</th>
        <td>${timeText(update.startedAt)}</td>
        <td>${update.kind}, ${update.result}</td>
        <td>${update.record ? String(update.record.generation) : "unknown"}</td>
        <td>${update.record?.platformRevision ?? "the server's policy"}</td>
        <td>${update.record?.actor ?? "unknown"}</td>
        <td>${changesText(update) ?? "nothing"}</td>
        <td>${rollbackForm(view, update)}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="history-title">
    <h2 id="history-title">History</h2>
    ${
      rows.length === 0
        ? html`<p>No update of this tenant yet.</p>`
        : html`<p>
              Rolling back asks again for the request an update ran: a new generation, previewed (and held for approval
              where the platform requires it) like any change.
            </p>
            ${tableOf(
              "The tenant's updates, newest first",
              ["Version", "Started", "Update", "Generation", "Platform revision", "By", "Changed", "Roll back"],
              rows,
            )}`
    }
  </section>`;
}
