/**
 * The portal's pages of the platform's revisions, for its admins: the list, as `kubectl get
 * platformrevisions` shows it, and one revision's fleet preview: its phase and sum, how its
 * rollout stands, then each tenant's outcome with its plan (the plan as every portal page shows
 * one) or why it failed, and whether it runs the revision.
 */
import type { RevisionRollout, RevisionTenant, RevisionView } from "../../tenantResource/platformRevisionStatus";
import { html, type Html } from "./html";
import { page, type PageFrame } from "./layout";
import { planSection } from "./planSection";
import { PORTAL_PATHS } from "./portalPaths";
import { NOT_YET, tableOf, timeText } from "./viewParts";

/** A number of the revision's sum, or what a revision not previewed yet shows. */
const sumOf = (revision: RevisionView, key: "tenants" | "changing" | "failed"): string =>
  revision.status?.summary ? String(revision.status.summary[key]) : NOT_YET;

/** The list page. */
export function revisionListPage(
  frame: Omit<PageFrame, "title" | "current">,
  revisions: readonly RevisionView[],
): string {
  const rows = revisions.map(
    (revision) =>
      html`<tr>
        <th scope="row"><a href="${PORTAL_PATHS.revision(revision.name)}">${revision.name}</a></th>
        <td>${revision.status?.phase ?? NOT_YET}</td>
        <td>${sumOf(revision, "tenants")}</td>
        <td>${sumOf(revision, "changing")}</td>
        <td>${sumOf(revision, "failed")}</td>
        <td>${revision.status?.rollout?.phase ?? NOT_YET}</td>
        <td>${timeText(revision.createdAt)}</td>
      </tr>`,
  );
  return page(
    { ...frame, title: "Platform revisions", current: "revisions" },
    html`<h1>Platform revisions</h1>
      <p>
        Each is a version of the platform's policy, previewed on every tenant; it reaches tenants only once an admin
        approves its rollout, wave by wave.
      </p>
      ${
        rows.length === 0
          ? html`<p>
              There are no platform revisions. Make one with <code>kubectl apply</code> (docs/self-service.md).
            </p>`
          : tableOf(
              "Platform revisions, newest first",
              ["Name", "Phase", "Tenants", "Changing", "Failed", "Rollout", "Created"],
              rows,
            )
      }`,
  );
}

/** One tenant's outcome: its plan, the failure's reason, or nothing to change. */
function tenantSection(tenant: RevisionTenant): Html {
  const id = `tenant-${tenant.name}`;
  const lead = `Generation ${tenant.generation} of its request would see${appliedText(tenant)}:`;
  if (tenant.plan) return planSection({ title: tenant.name, id, lead }, tenant.plan);
  return html`<section aria-labelledby="${id}">
    <h2 id="${id}">${tenant.name}</h2>
    <p>
      ${
        tenant.outcome === "Failed"
          ? html`Its preview failed: <span data-reason>${tenant.reason ?? "no reason given"}</span>`
          : html`Nothing would change for generation ${String(tenant.generation)} of its request${appliedText(tenant)}.`
      }
    </p>
  </section>`;
}

/** Whether the tenant runs the revision, as a clause. */
const appliedText = (tenant: RevisionTenant): string =>
  tenant.appliedGeneration === undefined ? "" : ` (it runs the revision since generation ${tenant.appliedGeneration})`;

/** How the rollout stands: its phase and wave, and what an admin may do next. */
function rolloutPart(rollout: RevisionRollout | undefined): Html | false {
  if (!rollout) return false;
  const wave = rollout.wave === undefined ? "" : ` (wave ${rollout.wave} of ${rollout.waves})`;
  return html`<p data-rollout>Rollout: <strong>${rollout.phase}</strong>${wave}: ${rollout.message}</p>`;
}

/** One revision's page. */
export function revisionPage(frame: Omit<PageFrame, "title" | "current">, revision: RevisionView): string {
  const status = revision.status;
  const fields = status?.summary?.fields ?? [];
  return page(
    { ...frame, title: `Platform revision ${revision.name}`, current: "revisions" },
    html`<h1>Platform revision ${revision.name}</h1>
      <p data-phase>${status ? html`<strong>${status.phase}</strong>: ${status.message}` : "Not previewed yet."}</p>
      ${rolloutPart(status?.rollout)}
      ${fields.length > 0 && html`<p>Changed fields: ${fields.map((field) => html`<code>${field}</code> `)}</p>`}
      ${(status?.tenants ?? []).map(tenantSection)}`,
  );
}
