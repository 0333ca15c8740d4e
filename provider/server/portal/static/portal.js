// The tenant page's live status: follows the tenant's event stream (the API's, same origin, so
// the session cookie signs it in) and updates what the server rendered, and keeps its host quota
// up to date from the quota's route. Without this script the page still shows both as of its
// loading. The markup it reads is tenantPage.ts's and quotaTable.ts's: `data-events` (the
// stream), `data-field` (texts), `data-show-phases` / `-reasons` / `-reach`, `data-quota` (the
// quota's route) and `data-quota-*` (its table).
// Loaded as a module: deferred, strict, and nothing of it leaks into the page's globals.

/** How often the quota is asked for while the page is open and shown. */
const QUOTA_REFRESH_MS = 10_000;

/**
 * How the tenant is reached (tenants/tenantReach.ts's rule, `reachKind`): not known before it has
 * an API server URL; exposed when it also has an apps domain; else from inside the host cluster.
 */
const reachOf = (status) => (!status.apiServerUrl ? "unknown" : status.appsDomain ? "exposed" : "inCluster");

/** The texts of the page, by `data-field`, from a tenant as the API sends it (and how it is reached). */
function fieldsOf(tenant) {
  const status = tenant.status || {};
  const ready = (status.conditions || []).find((condition) => condition.type === "Ready") || {};
  const since = ready.lastTransitionTime && new Date(ready.lastTransitionTime);
  return {
    phase: status.phase,
    message: status.message,
    reason: ready.reason,
    readyStatus: ready.status,
    since: since && !Number.isNaN(since.getTime()) ? `${since.toISOString().slice(0, 16).replace("T", " ")} UTC` : "",
    apiServerUrl: status.apiServerUrl,
    appsDomain: status.appsDomain,
    namespace: status.namespace,
    reach: reachOf(status),
  };
}

/** Whether a space-separated `list` attribute allows `value` (no attribute: any value). */
const allows = (list, value) => list === undefined || list.split(" ").includes(value);

/** Shows `tenant` on the page. */
function show(tenant) {
  const fields = fieldsOf(tenant);
  for (const element of document.querySelectorAll("[data-field]"))
    element.textContent = fields[element.dataset.field] || element.dataset.empty || "";
  for (const element of document.querySelectorAll("[data-show-phases], [data-show-reasons], [data-show-reach]"))
    element.hidden = !(
      allows(element.dataset.showPhases, fields.phase) &&
      allows(element.dataset.showReasons, fields.reason) &&
      allows(element.dataset.showReach, fields.reach)
    );
  return fields.phase;
}

/** The quota table's cells, by `data-quota-*` (naming the row's resource), and the column each shows. */
const QUOTA_CELLS = { quotaUsed: "used", quotaHard: "hard", quotaShare: "share" };

/** Shows the quota's route's answer: its rows in the table, or that there is no quota yet. */
function showQuota(body) {
  const rows = Array.isArray(body.rows) ? body.rows : null;
  for (const element of document.querySelectorAll("[data-quota-none]")) element.hidden = rows !== null;
  for (const element of document.querySelectorAll("[data-quota-table]")) element.hidden = rows === null;
  const byResource = new Map((rows || []).map((row) => [row.resource, row]));
  for (const cell of document.querySelectorAll("[data-quota-used], [data-quota-hard], [data-quota-share]"))
    for (const [key, column] of Object.entries(QUOTA_CELLS)) {
      const row = key in cell.dataset && byResource.get(cell.dataset[key]);
      if (row) cell.textContent = row[column];
    }
}

/** Asks the quota's route at `url` now and every QUOTA_REFRESH_MS while the page is shown; returns how to ask now and how to stop. */
function followQuota(url) {
  const refresh = () =>
    fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : undefined))
      .then((body) => body && showQuota(body))
      // A failed ask (a restart, a blip) is simply asked again next time.
      .catch(() => undefined);
  const timer = setInterval(() => document.hidden || refresh(), QUOTA_REFRESH_MS);
  return { refresh, stop: () => clearInterval(timer) };
}

/** Follows the stream named by `live`'s `data-events` until the tenant is gone, and the quota with it. */
function follow(live, quotaUrl) {
  const quota = quotaUrl ? followQuota(quotaUrl) : { refresh() {}, stop() {} };
  let phase;
  const events = new EventSource(live.dataset.events);
  events.addEventListener("tenant", (event) => {
    const now = show(JSON.parse(event.data));
    // A new phase is when the quota appears (Provisioning) and fills (Ready): ask at once, and
    // at the stream's first event, which may already be past the phase the page was loaded in.
    if (now !== phase) quota.refresh();
    phase = now;
  });
  events.addEventListener("deleted", () => {
    events.close();
    quota.stop();
    show({ status: { phase: "Deleted", message: "The tenant is gone: its teardown finished." } });
  });
}

const live = document.querySelector("[data-events]");
const quotaSection = document.querySelector("[data-quota]");
if (live && typeof EventSource === "function") follow(live, quotaSection && quotaSection.dataset.quota);
