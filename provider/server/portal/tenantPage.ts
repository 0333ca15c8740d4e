/**
 * The tenant page: its status (a live region the portal's script keeps up to date from the API's
 * event stream), what to do when it failed, its conditions and endpoints, the host quota, the
 * kubeconfig download for its owner, and the delete form, confirmed by typing the name.
 *
 * Every text the script updates carries `data-field`; every element that shows only in some
 * phases or for some reasons carries `data-show-phases` / `data-show-reasons`, and is rendered
 * `hidden` here by the same rule the script applies (see static/portal.js).
 */
import { API_PATHS } from "../../contracts/tenantsApi";
import { AWAITING_APPROVAL_PHASE } from "../../contracts/tenantResourceNames";
import { TENANT_PHASES } from "../../tenants/tenantObject";
import type { QuotaUsage, TenantView } from "../api/tenantView";
import { csrfField, errorSummary, textField } from "./formParts";
import { html, type Html } from "./html";
import { page, type PageFrame } from "./layout";
import { PORTAL_PATHS } from "./portalPaths";
import { quotaSection } from "./quotaTable";
import { STATUS_HINTS } from "./statusHints";
import { NOT_YET, ownerOf, timeText } from "./viewParts";

/** The phase the script shows once the event stream says the tenant is gone. */
const GONE_PHASE = "Deleted";

/** The phases in which a tenant can still be deleted from the page. */
const DELETABLE_PHASES = [...TENANT_PHASES.filter((phase) => phase !== "Deleting"), AWAITING_APPROVAL_PHASE];

/** The id of the delete form's confirmation field. */
const CONFIRM_FIELD_ID = "delete-confirm";

/** What the tenant page shows. */
export interface TenantPageView {
  /** The tenant. */
  readonly tenant: TenantView;
  /** Its host quota, once its namespace exists. */
  readonly quota?: QuotaUsage;
  /** Whether the signed-in person owns it: only the owner downloads the kubeconfig. */
  readonly isOwner: boolean;
  /** When a delete was refused: what was typed as confirmation, and why it was refused. */
  readonly refusedDelete?: { readonly typed: string; readonly problem: string };
}

/** When an element shows: in these phases, for these reasons (an empty list: always). */
interface ShownWhen {
  readonly phases: readonly string[];
  readonly reasons?: readonly string[];
}

/** The element's `data-show-*` attributes, and `hidden` unless the tenant's phase and reason call for it. */
function shownWhen(when: ShownWhen, phase: string, reason: string | undefined): Html {
  const reasons = when.reasons ?? [];
  const shown =
    (when.phases.length === 0 || when.phases.includes(phase)) &&
    (reasons.length === 0 || (reason !== undefined && reasons.includes(reason)));
  return html`${when.phases.length > 0 && html` data-show-phases="${when.phases.join(" ")}"`}${reasons.length > 0 && html` data-show-reasons="${reasons.join(" ")}"`}${!shown && html` hidden`}`;
}

const readyOf = (tenant: TenantView) => tenant.status.conditions.find((condition) => condition.type === "Ready");

function statusSection(tenant: TenantView): Html {
  const { phase, message } = tenant.status;
  const reason = readyOf(tenant)?.reason;
  const deletionAsked = tenant.metadata.deletionTimestamp;
  return html`<section aria-labelledby="status-title">
    <h2 id="status-title">Status</h2>
    <div
      class="status"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-events="${API_PATHS.tenantEvents(tenant.metadata.name)}"
    >
      <dl>
        <dt>Phase</dt>
        <dd><strong data-field="phase">${phase}</strong></dd>
        <dt>Reason</dt>
        <dd data-field="reason" data-empty="none yet">${reason ?? "none yet"}</dd>
        <dt>Message</dt>
        <dd data-field="message">${message}</dd>
      </dl>
      ${STATUS_HINTS.map((hint) => html`<p class="hint-box" ${shownWhen(hint, phase, reason)}><strong>What to do:</strong> ${hint.text}</p>`)}
      <p class="hint-box" ${shownWhen({ phases: [GONE_PHASE] }, phase, reason)}>
        This tenant is gone: its teardown finished. <a href="${PORTAL_PATHS.list}">Back to the tenants</a>
      </p>
    </div>
    ${deletionAsked && html`<p>Its deletion was asked for at ${timeText(deletionAsked)}; the page follows the teardown.</p>`}
  </section>`;
}

function kubeconfigSection(tenant: TenantView, isOwner: boolean): Html {
  const { name } = tenant.metadata;
  const { phase } = tenant.status;
  const body = isOwner
    ? html`<p${shownWhen({ phases: ["Ready"] }, phase, undefined)}><a class="button" href="${PORTAL_PATHS.kubeconfig(name)}" download="${name}-kubeconfig.yaml">Download kubeconfig</a>
      It makes you cluster-admin inside the tenant's virtual cluster: keep it to yourself.</p>
    <p${shownWhen({ phases: DELETABLE_PHASES.filter((p) => p !== "Ready") }, phase, undefined)}>The kubeconfig can be downloaded once the tenant is Ready.</p>`
    : html`<p>Only the tenant's owner can download its kubeconfig.</p>`;
  // A tenant being deleted has no kubeconfig to offer: the section goes with the phase.
  return html`<section aria-labelledby="kubeconfig-title" ${shownWhen({ phases: DELETABLE_PHASES }, phase, undefined)}>
    <h2 id="kubeconfig-title">Kubeconfig</h2>
    ${body}
  </section>`;
}

function endpoint(label: string, field: "apiServerUrl" | "appsDomain" | "namespace", value: string | undefined): Html {
  return html`<dt>${label}</dt>
    <dd><code data-field="${field}" data-empty="${NOT_YET}">${value ?? NOT_YET}</code></dd>`;
}

function endpointsSection(tenant: TenantView): Html {
  const { apiServerUrl, appsDomain, namespace } = tenant.status;
  return html`<section aria-labelledby="endpoints-title">
    <h2 id="endpoints-title">Endpoints</h2>
    <dl>
      ${endpoint("API server URL", "apiServerUrl", apiServerUrl)} ${endpoint("Apps domain", "appsDomain", appsDomain)}
      ${endpoint("Host namespace", "namespace", namespace)}
    </dl>
  </section>`;
}

function conditionsSection(tenant: TenantView): Html {
  // The Ready condition's cells follow the event stream; the script knows no other condition.
  const live = (type: string, field: string) => type === "Ready" && html` data-field="${field}"`;
  const rows = tenant.status.conditions.map(
    (c) => html`<tr>
        <th scope="row">${c.type}</th>
        <td${live(c.type, "readyStatus")}>${c.status}</td>
        <td${live(c.type, "reason")}>${c.reason}</td>
        <td${live(c.type, "message")}>${c.message}</td>
        <td${live(c.type, "since")}>${timeText(c.lastTransitionTime)}</td>
      </tr>`,
  );
  return html`<section aria-labelledby="conditions-title">
    <h2 id="conditions-title">Conditions</h2>
    ${
      rows.length === 0
        ? html`<p>None yet: the server has not reconciled the tenant.</p>`
        : html`<table>
            <caption class="visually-hidden">
              The tenant's conditions
            </caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Message</th>
                <th scope="col">Last change</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }
  </section>`;
}

function deleteSection(view: TenantPageView, csrfToken: string): Html | false {
  const { name } = view.tenant.metadata;
  if (view.tenant.metadata.deletionTimestamp) return false;
  const frame = {
    id: CONFIRM_FIELD_ID,
    label: `Type the tenant's name, ${name}, to confirm`,
    errors: view.refusedDelete && [view.refusedDelete.problem],
  };
  return html`<section
    aria-labelledby="delete-title"
    ${shownWhen({ phases: DELETABLE_PHASES }, view.tenant.status.phase, undefined)}
  >
    <h2 id="delete-title">Delete this tenant</h2>
    <p>Deleting removes the virtual cluster, its namespace on the host and everything in them. It cannot be undone.</p>
    <form method="post" action="${PORTAL_PATHS.delete(name)}" novalidate>
      ${csrfField(csrfToken)} ${textField(frame, "confirm", view.refusedDelete?.typed ?? "")}
      <button type="submit" class="button-danger">Delete tenant</button>
    </form>
  </section>`;
}

/** The tenant page; its title says "Error" first when a delete was refused. */
export function tenantPage(frame: Omit<PageFrame, "title" | "script">, view: TenantPageView): string {
  const { tenant, refusedDelete } = view;
  const { name, creationTimestamp } = tenant.metadata;
  return page(
    { ...frame, title: `${refusedDelete ? "Error: " : ""}Tenant ${name}`, script: true },
    html`<h1>Tenant ${name}</h1>
      ${refusedDelete && errorSummary([{ text: refusedDelete.problem, fieldId: CONFIRM_FIELD_ID }])}
      <p>Owner: ${ownerOf(tenant) ?? "unknown"}. Created: ${timeText(creationTimestamp)}.</p>
      ${statusSection(tenant)} ${kubeconfigSection(tenant, view.isOwner)} ${endpointsSection(tenant)}
      ${conditionsSection(tenant)} ${quotaSection(view.quota)} ${deleteSection(view, frame.csrfToken ?? "")}`,
  );
}
