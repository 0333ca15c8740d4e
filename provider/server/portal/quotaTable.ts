/**
 * The host quota of a tenant on its page: what its pods use of each ceiling of its ResourceQuota,
 * the operator's first thing to check when pods stay Pending. The page's script keeps the table up
 * to date from the quota's own route (`PORTAL_PATHS.quota`), which answers with the same rows.
 */
import { isQuantity, quantityValue } from "../../model/quantity";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";
import { html, type Html } from "./html";
import { PORTAL_PATHS } from "./portalPaths";

/** The quota's resources the page shows, in this order: what the tenant's request sets. */
const QUOTA_RESOURCES = ["requests.cpu", "limits.cpu", "requests.memory", "limits.memory", "requests.storage"] as const;

/** How much of `hard` `used` is, as a whole percentage; nothing when either is not a quantity or there is no ceiling. */
export function shareUsed(used: string | undefined, hard: string | undefined): string | undefined {
  if (used === undefined || hard === undefined || !isQuantity(used) || !isQuantity(hard)) return undefined;
  const ceiling = quantityValue(hard);
  if (!(ceiling > 0) || !Number.isFinite(ceiling)) return undefined;
  return `${Math.round((quantityValue(used) / ceiling) * 100)}%`;
}

/** One resource of the quota as the page shows it. */
export interface QuotaRow {
  /** The resource, e.g. `limits.cpu`. */
  readonly resource: string;
  /** What is used of it (`0` when the quota says nothing yet). */
  readonly used: string;
  /** Its ceiling, or `no ceiling`. */
  readonly hard: string;
  /** How much of the ceiling is used, e.g. `75%`, or `not applicable`. */
  readonly share: string;
}

/** What the quota's route answers: the rows, or null while the tenant's namespace has no quota. */
export interface QuotaRowsBody {
  /** The rows, in the page's order; null before the quota exists. */
  readonly rows: readonly QuotaRow[] | null;
}

/** The quota's rows, in the page's order. */
export function quotaRows(quota: QuotaUsage): QuotaRow[] {
  return QUOTA_RESOURCES.map((resource) => {
    const used = quota.used[resource] ?? "0";
    const hard = quota.hard[resource];
    return { resource, used, hard: hard ?? "no ceiling", share: shareUsed(used, hard) ?? "not applicable" };
  });
}

/** A row whose cells the script fills: `data-quota-<column>` names the resource. */
function row(row: QuotaRow): Html {
  return html`<tr>
    <th scope="row"><code>${row.resource}</code></th>
    <td data-quota-used="${row.resource}">${row.used}</td>
    <td data-quota-hard="${row.resource}">${row.hard}</td>
    <td data-quota-share="${row.resource}">${row.share}</td>
  </tr>`;
}

/** The rows before the quota exists: the resources, with nothing known of them yet. */
const UNKNOWN_ROWS = QUOTA_RESOURCES.map((resource) => ({ resource, used: "", hard: "", share: "" }));

/**
 * The quota section of tenant `name`'s page: the triage text beside the table of used against
 * ceiling. Before the namespace has a quota, the table is rendered hidden, for the script to fill.
 */
export function quotaSection(name: string, quota: QuotaUsage | undefined): Html {
  return html`<section aria-labelledby="quota-title" data-quota="${PORTAL_PATHS.quota(name)}">
    <h2 id="quota-title">Host quota</h2>
    <p>
      When pods in the tenant stay Pending, check this first: the host refuses a pod that would take the tenant above a
      ceiling, and the virtual cluster then shows it Pending. Compare what is used with the ceiling: a resource at or
      near its ceiling is why. Free some (scale down or delete workloads in the tenant), or ask for a larger quota.
    </p>
    <p data-quota-none${quota && html` hidden`}>
      The tenant's namespace has no quota yet: it gets one while the tenant is provisioned, and it shows here then.
    </p>
    <table data-quota-table${!quota && html` hidden`}>
      <caption>
        Used against the ceiling of each resource in the tenant's namespace, kept up to date while this page is open
      </caption>
      <thead>
        <tr>
          <th scope="col">Resource</th>
          <th scope="col">Used</th>
          <th scope="col">Ceiling</th>
          <th scope="col">Share used</th>
        </tr>
      </thead>
      <tbody>
        ${(quota ? quotaRows(quota) : UNKNOWN_ROWS).map(row)}
      </tbody>
    </table>
  </section>`;
}
