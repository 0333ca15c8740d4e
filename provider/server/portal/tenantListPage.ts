/**
 * The tenant list: the tenants the port returns for the person (their own or, for an admin who
 * asks, every tenant) with the operator's columns and the list's creation time and owner, as the
 * command's `tenant list` shows them.
 */
import type { OwnerCapsBody } from "../../contracts/tenantsApi";
import { capsUseText } from "../../tenants/ownerCaps";
import type { TenantView } from "../../tenantResource/tenantReplies";
import { html, type Html } from "./html";
import { page, type PageFrame } from "./layout";
import { PORTAL_PATHS } from "./portalPaths";
import { NOT_YET, ownerOf, timeText } from "./viewParts";

/** What the list shows. */
export interface TenantListView {
  /** The tenants, as the port returned them. */
  readonly tenants: readonly TenantView[];
  /** Whether they are every tenant (an admin's `?all=1`), not only the person's own. */
  readonly all: boolean;
  /** What the person holds across their tenants, and the caps per owner on it. */
  readonly caps: OwnerCapsBody;
}

/** The person's use against the platform's caps per owner, when it sets any. */
function capsLine(caps: OwnerCapsBody): Html | false {
  const parts = capsUseText(caps.caps, caps.use);
  return parts.length > 0 && html`<p data-caps>Your use against the platform's caps: ${parts.join(", ")}.</p>`;
}

function row(tenant: TenantView): Html {
  const { name, creationTimestamp } = tenant.metadata;
  return html`<tr>
    <th scope="row"><a href="${PORTAL_PATHS.tenant(name)}">${name}</a></th>
    <td>${tenant.status.phase}</td>
    <td>${tenant.status.apiServerUrl ? html`<code>${tenant.status.apiServerUrl}</code>` : NOT_YET}</td>
    <td>${timeText(creationTimestamp)}</td>
    <td>${ownerOf(tenant) ?? "unknown"}</td>
  </tr>`;
}

/** For admins: which tenants are shown, and a link to the other choice. */
function scopeToggle(all: boolean): Html {
  return all
    ? html`<p>Showing every tenant. <a href="${PORTAL_PATHS.list}">Show only yours</a></p>`
    : html`<p>Showing your tenants. <a href="${PORTAL_PATHS.list}?all=1">Show every tenant</a></p>`;
}

function table(tenants: readonly TenantView[], all: boolean): Html {
  if (tenants.length === 0)
    return html`<p>
      ${all ? "There are no tenants yet." : "You have no tenants yet."}
      <a href="${PORTAL_PATHS.newTenant}">Create one</a>.
    </p>`;
  return html`<table>
    <caption class="visually-hidden">
      ${all ? "Every tenant" : "Your tenants"}, by name
    </caption>
    <thead>
      <tr>
        <th scope="col">Name</th>
        <th scope="col">Phase</th>
        <th scope="col">API server URL</th>
        <th scope="col">Created</th>
        <th scope="col">Owner</th>
      </tr>
    </thead>
    <tbody>
      ${tenants.map(row)}
    </tbody>
  </table>`;
}

/** The list page. */
export function tenantListPage(frame: Omit<PageFrame, "title" | "current">, view: TenantListView): string {
  return page(
    { ...frame, title: "Tenants", current: "list" },
    html`<h1>Tenants</h1>
      <p><a class="button" href="${PORTAL_PATHS.newTenant}">New tenant</a></p>
      ${capsLine(view.caps)} ${frame.actor?.isAdmin && scopeToggle(view.all)} ${table(view.tenants, view.all)}`,
  );
}
