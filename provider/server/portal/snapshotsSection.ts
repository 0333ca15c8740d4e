/**
 * The tenant page's Snapshots section: the snapshots the server took of the tenant (its
 * `status.snapshots`), each with a Restore form, and a Take snapshot form. Either form asks the
 * server (the Tenant's annotation); the page's live status follows what it does.
 */
import type { TenantView } from "../../tenantResource/tenantReplies";
import { csrfField } from "./formParts";
import { html, type Html } from "./html";
import { PORTAL_PATHS } from "./portalPaths";
import { tableOf, timeText } from "./viewParts";

/** The section, with its forms when the person may change the tenant (a CSRF token is given). */
export function snapshotsSection(tenant: TenantView, csrfToken: string | undefined): Html | false {
  const { name, deletionTimestamp } = tenant.metadata;
  if (deletionTimestamp) return false;
  const snapshots = [...(tenant.status.snapshots ?? [])].reverse();
  const restoreForm = (snapshot: string) =>
    csrfToken &&
    html`<form method="post" action="${PORTAL_PATHS.restore(name)}">
      ${csrfField(csrfToken)}
      <input type="hidden" name="snapshot" value="${snapshot}" />
      <button type="submit" class="button">Restore ${snapshot}</button>
    </form>`;
  const rows = snapshots.map(
    (snapshot) =>
      html`<tr>
        <th scope="row">${snapshot.name}</th>
        <td>${timeText(snapshot.takenAt)}</td>
        <td>${restoreForm(snapshot.name) || ""}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="snapshots-title">
    <h2 id="snapshots-title">Snapshots</h2>
    <p>
      A snapshot keeps the virtual cluster's objects (namespaces, workloads, ConfigMaps, Secrets) in the platform's
      store. Restoring one takes the control plane down, writes the snapshot back and brings it up again.
    </p>
    ${
      rows.length === 0
        ? html`<p>None yet.</p>`
        : tableOf("The tenant's snapshots, newest first", ["Snapshot", "Taken", "Restore"], rows)
    }
    ${
      csrfToken &&
      html`<form method="post" action="${PORTAL_PATHS.snapshots(name)}">
        ${csrfField(csrfToken)}
        <button type="submit" class="button">Take snapshot</button>
      </form>`
    }
  </section>`;
}
