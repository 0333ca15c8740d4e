/**
 * The host quota of a tenant on its page: what its pods use of each ceiling of its ResourceQuota,
 * the operator's first thing to check when pods stay Pending.
 */
import { isQuantity, quantityValue } from "../../model/quantity";
import type { QuotaUsage } from "../api/tenantView";
import { html, type Html } from "./html";

/** The quota's resources the page shows, in this order: what the tenant's request sets. */
const QUOTA_RESOURCES = ["requests.cpu", "limits.cpu", "requests.memory", "limits.memory", "requests.storage"] as const;

/** How much of `hard` `used` is, as a whole percentage; nothing when either is not a quantity or there is no ceiling. */
export function shareUsed(used: string | undefined, hard: string | undefined): string | undefined {
  if (used === undefined || hard === undefined || !isQuantity(used) || !isQuantity(hard)) return undefined;
  const ceiling = quantityValue(hard);
  if (!(ceiling > 0) || !Number.isFinite(ceiling)) return undefined;
  return `${Math.round((quantityValue(used) / ceiling) * 100)}%`;
}

function row(resource: string, quota: QuotaUsage): Html {
  const used = quota.used[resource];
  const hard = quota.hard[resource];
  return html`<tr>
    <th scope="row"><code>${resource}</code></th>
    <td>${used ?? "0"}</td>
    <td>${hard ?? "no ceiling"}</td>
    <td>${shareUsed(used ?? "0", hard) ?? "not applicable"}</td>
  </tr>`;
}

/** The quota section of the tenant page. */
export function quotaSection(quota: QuotaUsage | undefined): Html {
  const body = quota
    ? html`<table>
        <caption>
          Used and ceiling of each resource in the tenant's namespace, as of loading this page
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
          ${QUOTA_RESOURCES.map((resource) => row(resource, quota))}
        </tbody>
      </table>`
    : html`<p>
        The tenant's namespace did not exist yet when this page was loaded, so it had no quota to show. Reload the page
        once the tenant is Ready.
      </p>`;
  return html`<section aria-labelledby="quota-title">
    <h2 id="quota-title">Host quota</h2>
    <p>
      When pods in the tenant stay Pending, check this first: the host refuses pods that would take the tenant above a
      ceiling, and the virtual cluster then shows them Pending.
    </p>
    ${body}
  </section>`;
}
