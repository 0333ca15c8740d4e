/**
 * The portal's paths, written once: the routes (portalRoutes.ts) and the links and forms of the
 * pages read them from here. The sign-in and sign-out routes are the server's auth layer's; the
 * pages only link and post to them.
 */

const tenant = (name: string): string => `/tenants/${encodeURIComponent(name)}`;

/** Where each page and form of the portal is. */
export const PORTAL_PATHS = {
  /** GET: the tenant list (`?all=1`: every tenant, for admins). */
  list: "/",
  /** GET: the New tenant form. It wins over the tenant page's path: a tenant named `new` has no page (the API still serves it). */
  newTenant: "/tenants/new",
  /** POST: preview the New tenant form: its page again, with what a create would make and a Create button. */
  previewCreate: "/tenants/new",
  /** POST: create a tenant from the previewed New tenant form. */
  create: "/tenants",
  /** GET: the tenant page. */
  tenant,
  /** GET: the tenant's kubeconfig, as a download. */
  kubeconfig: (name: string) => `${tenant(name)}/kubeconfig`,
  /** GET: the delete page (what a delete would remove, and the confirmation); POST: delete, the name typed as confirmation. */
  delete: (name: string) => `${tenant(name)}/delete`,
  /** POST: roll the tenant back to an earlier update's request (the `version` field, with `_csrf`). */
  rollback: (name: string) => `${tenant(name)}/rollback`,
  /** POST: put the tenant to sleep (the `_csrf` field). */
  sleep: (name: string) => `${tenant(name)}/sleep`,
  /** POST: wake the tenant (the `_csrf` field). */
  wake: (name: string) => `${tenant(name)}/wake`,
  /** POST: ask for a snapshot of the tenant (the `_csrf` field). */
  snapshots: (name: string) => `${tenant(name)}/snapshots`,
  /** POST: restore the tenant from a snapshot (the `snapshot` field, with `_csrf`). */
  restore: (name: string) => `${tenant(name)}/restore`,
  /** GET: the tenant's host quota as the page's rows (JSON, quotaTable.ts's QuotaRowsBody), for its script. */
  quota: (name: string) => `${tenant(name)}/quota`,
  /** GET: the platform's revisions (admins only). */
  revisions: "/platformrevisions",
  /** GET: one revision's fleet preview (admins only). */
  revision: (name: string) => `/platformrevisions/${encodeURIComponent(name)}`,
  /** GET: the portal's stylesheet. */
  stylesheet: "/portal/static/portal.css",
  /** GET: the portal's one script (live status on the tenant page). */
  script: "/portal/static/portal.js",
  /** GET: the auth layer's sign-in (`?returnTo=<path>`: where to go after). */
  signIn: "/sign-in",
  /** POST: the auth layer's sign-out (with the `_csrf` field). */
  signOut: "/sign-out",
} as const;

/** The route patterns of the tenant's own pages (`:name`, the tenant's name), matching PORTAL_PATHS' builders. */
export const PORTAL_ROUTES = {
  /** GET: the tenant page. */
  tenant: "/tenants/:name",
  /** GET: the kubeconfig download. */
  kubeconfig: "/tenants/:name/kubeconfig",
  /** GET: the delete page; POST: its form. */
  delete: "/tenants/:name/delete",
  /** GET: the quota's rows, for the page's script. */
  quota: "/tenants/:name/quota",
  /** POST: the rollback form. */
  rollback: "/tenants/:name/rollback",
  /** POST: the Put to sleep form. */
  sleep: "/tenants/:name/sleep",
  /** POST: the Wake form. */
  wake: "/tenants/:name/wake",
  /** POST: the Take snapshot form. */
  snapshots: "/tenants/:name/snapshots",
  /** POST: a snapshot's Restore form. */
  restore: "/tenants/:name/restore",
  /** GET: one platform revision's page (`:name`, the revision's name). */
  revision: "/platformrevisions/:name",
} as const;

/** The sign-in page's address that comes back to `path` (a path of this server) after signing in. */
export const signInPath = (path: string): string => `${PORTAL_PATHS.signIn}?returnTo=${encodeURIComponent(path)}`;
