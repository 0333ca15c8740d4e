/**
 * The tenant page's Sleep section: a running tenant's Put to sleep button, a sleeping one's Wake
 * button, and what each does. Either changes only the request's `sleep` (a new generation), which
 * the server brings the tenant to like any change; the page's live status follows it.
 */
import type { TenantView } from "../../tenantResource/tenantReplies";
import { csrfField } from "./formParts";
import { html, type Html } from "./html";
import { PORTAL_PATHS } from "./portalPaths";

/** The section, with its form when the person may change the tenant (a CSRF token is given). */
export function sleepSection(tenant: TenantView, csrfToken: string | undefined): Html | false {
  const { name, deletionTimestamp } = tenant.metadata;
  if (deletionTimestamp || !csrfToken) return false;
  const asleep = tenant.spec.sleep === true;
  const form = html`<form method="post" action="${asleep ? PORTAL_PATHS.wake(name) : PORTAL_PATHS.sleep(name)}">
    ${csrfField(csrfToken)}
    <button type="submit" class="button">${asleep ? "Wake tenant" : "Put tenant to sleep"}</button>
  </form>`;
  return html`<section aria-labelledby="sleep-title">
    <h2 id="sleep-title">Sleep</h2>
    <p>
      ${
        asleep
          ? "The tenant is asked to sleep: its control plane and the pods it runs on the host are scaled to zero. Waking brings it back with the same data and the same kubeconfig."
          : "Putting the tenant to sleep scales its control plane and the pods it runs on the host to zero, freeing their memory and its quota. Its data and its kubeconfig stay; wake it when it is needed again."
      }
    </p>
    ${form}
  </section>`;
}
