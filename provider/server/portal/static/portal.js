// The tenant page's live status: follows the tenant's event stream (the API's, same origin, so
// the session cookie signs it in) and updates what the server rendered. Without this script the
// page still shows the status as of its loading. The markup it reads is tenantPage.ts's:
// `data-events` (the stream), `data-field` (texts), `data-show-phases` / `data-show-reasons`.
// Loaded as a module: deferred, strict, and nothing of it leaks into the page's globals.

/** The texts of the page, by `data-field`, from a tenant as the API sends it. */
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
  };
}

/** Whether a space-separated `list` attribute allows `value` (no attribute: any value). */
const allows = (list, value) => list === undefined || list.split(" ").includes(value);

/** Shows `tenant` on the page. */
function show(tenant) {
  const fields = fieldsOf(tenant);
  for (const element of document.querySelectorAll("[data-field]"))
    element.textContent = fields[element.dataset.field] || element.dataset.empty || "";
  for (const element of document.querySelectorAll("[data-show-phases], [data-show-reasons]"))
    element.hidden = !(
      allows(element.dataset.showPhases, fields.phase) && allows(element.dataset.showReasons, fields.reason)
    );
}

/** Follows the stream named by `live`'s `data-events` until the tenant is gone. */
function follow(live) {
  const events = new EventSource(live.dataset.events);
  events.addEventListener("tenant", (event) => show(JSON.parse(event.data)));
  events.addEventListener("deleted", () => {
    events.close();
    show({ status: { phase: "Deleted", message: "The tenant is gone: its teardown finished." } });
  });
}

const live = document.querySelector("[data-events]");
if (live && typeof EventSource === "function") follow(live);
