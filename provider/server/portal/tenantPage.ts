/**
 * The tenant page: its status (a live region the portal's script keeps up to date from the API's
 * event stream), what to do when it failed, the plan of a change held for approval or previewed
 * only, its conditions and endpoints, the host quota, the kubeconfig download for its owner, and
 * its history with the rollback forms (historySection.ts), and the way to its delete page
 * (deletePage.ts: what a delete removes, then the typed confirmation).
 *
 * Every text the script updates carries `data-field`; every element that shows only in some
 * phases or for some reasons carries `data-show-phases` / `data-show-reasons`, and is rendered
 * `hidden` here by the same rule the script applies (see static/portal.js).
 */
import { API_PATHS } from "../../contracts/tenantsApi";
import { HELD_PHASES } from "../../contracts/tenantResourceNames";
import { PROVISIONED_PHASES, TENANT_PHASES, type TenantPhase } from "../../tenants/tenantObject";
import { inClusterReach, NOT_EXPOSED, reachKind, type ReachKind } from "../../tenants/tenantReach";
import type { QuotaUsage, TenantView } from "../../tenantResource/tenantReplies";
import { html, type Html } from "./html";
import { page, type PageFrame } from "./layout";
import { planSection } from "./planSection";
import { PORTAL_PATHS } from "./portalPaths";
import { quotaSection } from "./quotaTable";
import { historySection } from "./historySection";
import { awakeSection } from "./awakeSection";
import type { AwakeTime } from "../../tenants/awakeTime";
import { sleepSection } from "./sleepSection";
import { snapshotsSection } from "./snapshotsSection";
import type { StackUpdate } from "../../tenants/ports";
import { STATUS_HINTS } from "./statusHints";
import { NOT_YET, ownerOf, tableOf, timeText } from "./viewParts";

/** The phase the script shows once the event stream says the tenant is gone. */
const GONE_PHASE = "Deleted";

/** The phases in which a tenant can still be deleted from the page. */
const DELETABLE_PHASES = [...TENANT_PHASES.filter((phase) => phase !== "Deleting"), ...HELD_PHASES];

/** What the tenant page shows. */
export interface TenantPageView {
  /** The tenant. */
  readonly tenant: TenantView;
  /** Its host quota, once its namespace exists. */
  readonly quota?: QuotaUsage;
  /** Whether the signed-in person owns it: only the owner downloads the kubeconfig. */
  readonly isOwner: boolean;
  /** Its updates, newest first (historySection.ts). */
  readonly history: readonly StackUpdate[];
  /** Its awake time over the last days, from those updates (awakeSection.ts). */
  readonly awake: AwakeTime;
}

/** When an element shows: in these phases, for these reasons, when the tenant is reached so (an empty list: always). */
interface ShownWhen {
  readonly phases: readonly string[];
  readonly reasons?: readonly string[];
  readonly reach?: readonly ReachKind[];
}

/** The element's `data-show-*` attributes, and `hidden` unless the tenant's phase, reason and reach call for it. */
function shownWhen(when: ShownWhen, phase: string, reason: string | undefined, reach?: ReachKind): Html {
  const reasons = when.reasons ?? [];
  const reaches = when.reach ?? [];
  const shown =
    (when.phases.length === 0 || when.phases.includes(phase)) &&
    (reasons.length === 0 || (reason !== undefined && reasons.includes(reason))) &&
    (reaches.length === 0 || (reach !== undefined && reaches.includes(reach)));
  return html`${when.phases.length > 0 && html` data-show-phases="${when.phases.join(" ")}"`}${reasons.length > 0 && html` data-show-reasons="${reasons.join(" ")}"`}${reaches.length > 0 && html` data-show-reach="${reaches.join(" ")}"`}${!shown && html` hidden`}`;
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
    ? html`<p${shownWhen({ phases: PROVISIONED_PHASES }, phase, undefined)}><a class="button" href="${PORTAL_PATHS.kubeconfig(name)}" download="${name}-kubeconfig.yaml">Download kubeconfig</a>
      It makes you cluster-admin inside the tenant's virtual cluster: keep it to yourself.</p>
    <p${shownWhen({ phases: DELETABLE_PHASES.filter((p) => !PROVISIONED_PHASES.includes(p as TenantPhase)) }, phase, undefined)}>The kubeconfig can be downloaded once the tenant is Ready.</p>`
    : html`<p>Only the tenant's owner can download its kubeconfig.</p>`;
  // A tenant being deleted has no kubeconfig to offer: the section goes with the phase.
  return html`<section aria-labelledby="kubeconfig-title" ${shownWhen({ phases: DELETABLE_PHASES }, phase, undefined)}>
    <h2 id="kubeconfig-title">Kubeconfig</h2>
    ${body}
  </section>`;
}

/** A value the script keeps up to date: `not yet known` until the status has it. */
const liveValue = (field: "apiServerUrl" | "appsDomain" | "namespace", value: string | undefined, shown = html``) =>
  html`<code data-field="${field}" data-empty="${NOT_YET}" ${shown}>${value ?? NOT_YET}</code>`;

/** A marker that stands for the host namespace in a command, where the page puts the live namespace. */
const NAMESPACE_MARK = "\u0000";

/** `command` built for the namespace mark, each place of the namespace a live `namespace` field holding `namespace`. */
function withLiveNamespace(command: string, namespace: string | undefined): Html {
  return html`${command
    .split(NAMESPACE_MARK)
    .map((part, i) => (i === 0 ? part : html`<span data-field="namespace">${namespace ?? ""}</span>${part}`))}`;
}

/**
 * How to connect to an unexposed tenant, shown once its status says so: the port-forward and the
 * kubeconfig through it (tenants/tenantReach.ts's words), its namespace filled in live.
 */
function connectHint(tenant: TenantView, reach: ReachKind): Html {
  const { name } = tenant.metadata;
  const commands = inClusterReach(name, NAMESPACE_MARK);
  const when = (kinds: ReachKind[]) => shownWhen({ phases: [], reach: kinds }, tenant.status.phase, undefined, reach);
  return html`<div class="hint-box" ${when(["inCluster"])}>
      <p>
        <strong>How to connect:</strong> This tenant ${NOT_EXPOSED}. To reach it from your machine, someone with access
        to its host namespace forwards a port to its Service:
      </p>
      <pre><code>${withLiveNamespace(commands.portForward, tenant.status.namespace)}</code></pre>
      <p>Then, while that runs, use the kubeconfig through the port; TLS still checks the Service's name:</p>
      <pre><code>${withLiveNamespace(commands.kubectl(`${name}-kubeconfig.yaml`), tenant.status.namespace)}</code></pre>
      <p>or merge it with the command: <code>${commands.merge}</code></p>
    </div>
    <p ${when(["exposed"])}>
      This tenant is published through the platform's gateway: its kubeconfig reaches the API server URL above wherever
      the gateway is reachable, and its apps are served under the apps domain.
    </p>`;
}

function endpointsSection(tenant: TenantView): Html {
  const { apiServerUrl, appsDomain, namespace } = tenant.status;
  const reach = reachKind(tenant.status);
  const whenReach = (kinds: ReachKind[]) =>
    shownWhen({ phases: [], reach: kinds }, tenant.status.phase, undefined, reach);
  return html`<section aria-labelledby="endpoints-title">
    <h2 id="endpoints-title">Endpoints</h2>
    <dl>
      <dt>API server URL</dt>
      <dd>${liveValue("apiServerUrl", apiServerUrl)}</dd>
      <dt>Apps domain</dt>
      <dd>
        ${liveValue("appsDomain", appsDomain, whenReach(["unknown", "exposed"]))}
        <span ${whenReach(["inCluster"])}>none: not exposed outside the host cluster</span>
      </dd>
      <dt>Host namespace</dt>
      <dd>${liveValue("namespace", namespace)}</dd>
    </dl>
    ${connectHint(tenant, reach)}
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
        : tableOf("The tenant's conditions", ["Type", "Status", "Reason", "Message", "Last change"], rows)
    }
  </section>`;
}

function deleteSection(tenant: TenantView): Html | false {
  const { name } = tenant.metadata;
  if (tenant.metadata.deletionTimestamp) return false;
  return html`<section
    aria-labelledby="delete-title"
    ${shownWhen({ phases: DELETABLE_PHASES }, tenant.status.phase, undefined)}
  >
    <h2 id="delete-title">Delete this tenant</h2>
    <p>
      Deleting removes the virtual cluster, its namespace on the host and everything in them. It cannot be undone. The
      delete page shows what it would remove before you confirm.
    </p>
    <p><a class="button button-danger" href="${PORTAL_PATHS.delete(name)}">Delete tenant…</a></p>
  </section>`;
}

/** The plan of a change held for approval or previewed only, while it is held (the script hides it once the phase moves on). */
function heldPlanSection(tenant: TenantView): Html | false {
  const { plan, phase } = tenant.status;
  if (!plan) return false;
  const frame = {
    id: "plan-title",
    title: `The plan of generation ${plan.generation}`,
    lead: "What the held change would do once it may go on:",
    attributes: shownWhen({ phases: HELD_PHASES }, phase, undefined),
  };
  return planSection(frame, plan);
}

/** The tenant page. */
export function tenantPage(frame: Omit<PageFrame, "title" | "script">, view: TenantPageView): string {
  const { tenant } = view;
  const { name, creationTimestamp } = tenant.metadata;
  return page(
    { ...frame, title: `Tenant ${name}`, script: true },
    html`<h1>Tenant ${name}</h1>
      <p>
        Owner: ${ownerOf(tenant) ?? "unknown"}. Created:
        ${timeText(creationTimestamp)}.${
          tenant.spec.expiresAt ? html` Expires: ${timeText(tenant.spec.expiresAt)}, and is then deleted.` : ""
        }
      </p>
      ${statusSection(tenant)} ${heldPlanSection(tenant)} ${kubeconfigSection(tenant, view.isOwner)}
      ${endpointsSection(tenant)} ${conditionsSection(tenant)} ${quotaSection(view.tenant.metadata.name, view.quota)}
      ${awakeSection(view.awake)}
      ${historySection({
        name,
        updates: view.history,
        // Whoever sees the tenant (its owner, an admin) may roll it back, until its deletion is asked for.
        csrfToken: tenant.metadata.deletionTimestamp ? undefined : frame.csrfToken,
      })}
      ${sleepSection(tenant, frame.csrfToken)} ${snapshotsSection(tenant, frame.csrfToken)} ${deleteSection(tenant)}`,
  );
}
