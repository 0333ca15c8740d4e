/**
 * The HTTP API of `kubespaces server`, written once: its paths, the shape of its errors and of its
 * event stream. The server's routes (provider/server/http/) and the command's client
 * (provider/cli/serverMode/serverDoor.ts) both read them from here, so they cannot drift apart.
 *
 * Every tenant route answers for the caller only: a tenant the caller may not see is "not found",
 * the same answer as a tenant that does not exist, so the API never tells who owns what. A `:name`
 * that no tenant can have (not a DNS-1123 label of at most 63 characters) is "invalid" (400) on
 * every tenant route, naming `name` and the rule, before anything is looked up.
 */

/** The API's root; every JSON route is below it. */
export const API_ROOT = "/api/v1";

/** The API's routes as patterns (`:name` is a tenant's name), for the server's router. */
export const API_ROUTES = {
  /** GET: the caller's tenants (`?all=true`: every tenant, for admins). POST: create one. */
  tenants: `${API_ROOT}/tenants`,
  /** GET: one tenant. DELETE: tear it down. */
  tenant: `${API_ROOT}/tenants/:name`,
  /** GET: the tenant's changes as server-sent events (see TENANT_EVENTS). */
  tenantEvents: `${API_ROOT}/tenants/:name/events`,
  /** GET: the tenant's kubeconfig (YAML), for its owner only. */
  tenantKubeconfig: `${API_ROOT}/tenants/:name/kubeconfig`,
  /** POST: what creating or deleting the tenant would change (PreviewTenantBody); nothing is changed. */
  tenantPreview: `${API_ROOT}/tenants/:name/preview`,
  /** GET: the tenant's updates, newest first (TenantHistoryBody). */
  tenantHistory: `${API_ROOT}/tenants/:name/history`,
  /** GET: the tenant's host quota, used against each ceiling (TenantQuotaBody). */
  tenantQuota: `${API_ROOT}/tenants/:name/quota`,
  /** POST: puts the request of an earlier update back as the tenant's request (RollbackTenantBody). */
  tenantRollback: `${API_ROOT}/tenants/:name/rollback`,
  /** POST: puts the tenant to sleep (its request's `sleep` becomes true). */
  tenantSleep: `${API_ROOT}/tenants/:name/sleep`,
  /** POST: wakes the tenant (its request's `sleep` becomes false). */
  tenantWake: `${API_ROOT}/tenants/:name/wake`,
  /** POST: asks for a snapshot of the tenant (listed in its status's `snapshots` once taken). */
  tenantSnapshots: `${API_ROOT}/tenants/:name/snapshots`,
  /** POST: asks for the tenant to be restored from one of its owner's snapshots (RestoreTenantBody). */
  tenantRestore: `${API_ROOT}/tenants/:name/restore`,
  /** GET, admins only: every PlatformRevision with its fleet preview (PlatformRevisionListBody). */
  platformRevisions: `${API_ROOT}/platformrevisions`,
  /** GET, admins only: one PlatformRevision with its fleet preview. */
  platformRevision: `${API_ROOT}/platformrevisions/:name`,
  /** GET, unauthenticated: how the command signs in (SignInInfo). */
  signIn: `${API_ROOT}/sign-in`,
  /** GET: what the caller holds across their tenants, against the platform's caps per owner (OwnerCapsBody). */
  caps: `${API_ROOT}/caps`,
  /** GET: who the caller is (WhoAmI). */
  whoAmI: `${API_ROOT}/whoami`,
  /** GET, unauthenticated: 200 once the server serves (liveness). */
  health: "/healthz",
  /** GET, unauthenticated: 200 once the replica is ready for traffic, else 503 naming what it waits for (readiness). */
  ready: "/readyz",
  /** GET, unauthenticated: the API's OpenAPI 3.1 document (JSON). */
  openApi: `${API_ROOT}/openapi.json`,
} as const;

/** A route's path for the tenant (or revision) named `name`. */
const forName = (route: string) => (name: string) => route.replace(":name", encodeURIComponent(name));

/** The API's paths, as a client requests them. */
export const API_PATHS = {
  ...API_ROUTES,
  tenant: forName(API_ROUTES.tenant),
  tenantEvents: forName(API_ROUTES.tenantEvents),
  tenantKubeconfig: forName(API_ROUTES.tenantKubeconfig),
  tenantPreview: forName(API_ROUTES.tenantPreview),
  tenantHistory: forName(API_ROUTES.tenantHistory),
  tenantQuota: forName(API_ROUTES.tenantQuota),
  tenantRollback: forName(API_ROUTES.tenantRollback),
  tenantSleep: forName(API_ROUTES.tenantSleep),
  tenantWake: forName(API_ROUTES.tenantWake),
  tenantSnapshots: forName(API_ROUTES.tenantSnapshots),
  tenantRestore: forName(API_ROUTES.tenantRestore),
  platformRevision: forName(API_ROUTES.platformRevision),
} as const;

/** The body of `POST tenants`: the name and the team's request. The owner is never read from it. */
export interface CreateTenantBody {
  /** The tenant's name (a DNS label). */
  readonly name: string;
  /** The request, as in a Tenant manifest's spec, without `owner` (the caller is the owner). */
  readonly spec?: Readonly<Record<string, unknown>>;
}

/** The operations a preview can be asked of. */
export const PREVIEW_OPERATIONS = ["create", "delete"] as const;

/** The body of `POST tenants/:name/preview`. */
export interface PreviewTenantBody {
  /** What to preview: creating the tenant (a name no tenant has yet) or deleting it (one of yours). */
  readonly operation: (typeof PREVIEW_OPERATIONS)[number];
  /** For a create: the request, as `CreateTenantBody`'s spec (without `owner`). */
  readonly spec?: Readonly<Record<string, unknown>>;
}

/** The preview answer: what the operation would change, as the tenants service plans it. */
export interface TenantPreviewReply<Plan> {
  /** The tenant's name. */
  readonly name: string;
  /** The operation previewed. */
  readonly operation: PreviewTenantBody["operation"];
  /** What it would change. */
  readonly plan: Plan;
}

/** The body of `POST tenants/:name/rollback`. */
/** The body of `POST tenants/:name/restore`. */
export interface RestoreTenantBody {
  /** The snapshot's name, as a tenant's `status.snapshots` lists it (one of the tenant's owner's). */
  readonly snapshot: string;
}

export interface RollbackTenantBody {
  /** The stack version (from the tenant's history) whose request becomes the tenant's request again. */
  readonly version: number;
}

/** A tenant namespace's ResourceQuota: each resource's ceiling and what is used of it. */
export interface QuotaUsage {
  /** Each resource's ceiling (`requests.cpu`, `limits.memory`, `requests.storage`, ...). */
  readonly hard: Readonly<Record<string, string>>;
  /** What is used of each. */
  readonly used: Readonly<Record<string, string>>;
}

/** The answer of `GET caps`: what the caller holds across their tenants, and the caps on it. */
export interface OwnerCapsBody {
  /** Whose tenants: the caller. */
  readonly owner: string;
  /** The caps per owner the server is configured with; absent: none. */
  readonly caps?: {
    readonly tenants?: number;
    readonly awake?: number;
    readonly cpu?: string;
    readonly memory?: string;
    readonly storage?: string;
  };
  /** What the caller holds: tenants, awake ones, and their quotas' sums (CPU in cores, memory and storage in bytes). */
  readonly use: {
    readonly tenants: number;
    readonly awake: number;
    readonly cpu: number;
    readonly memory: number;
    readonly storage: number;
  };
}

/** The answer of `GET tenants/:name/quota`. */
export interface TenantQuotaBody {
  /** The ResourceQuota of the tenant's namespace; absent while it has none. */
  readonly quota?: QuotaUsage;
}

/** The answer of `GET tenants/:name/history`. */
export interface TenantHistoryBody<Update> {
  /** The tenant's updates, newest first. */
  readonly items: readonly Update[];
}

/**
 * The kinds of error the API answers with: the tenants service's kinds (so that the command maps
 * them to the same exit codes as in local mode), and the HTTP door's own.
 */
export const API_ERROR_KINDS = [
  "invalid",
  "conflict",
  "refused",
  "notFound",
  "notReady",
  "failed",
  "busy",
  "hostUnavailable",
  "interrupted",
  "unauthenticated",
  "csrf",
  "rateLimited",
  "overloaded",
  "internal",
] as const;

/** One kind of API error. */
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/** The body of every error answer. */
export interface ApiErrorBody {
  /** The error. */
  readonly error: {
    /** Its kind, for machines. */
    readonly kind: ApiErrorKind;
    /** For people: what was refused and why, naming the field and the rule. */
    readonly message: string;
    /** Each problem of an invalid request, `field: rule`. */
    readonly problems?: readonly string[];
  };
}

/** A PlatformRevision as the API answers with it: its policy and its fleet preview. */
export interface PlatformRevisionBody<Status> {
  /** The revision's name. */
  readonly name: string;
  /** When it was made (RFC 3339). */
  readonly createdAt?: string;
  /** Its policy, as written. */
  readonly platform: Readonly<Record<string, unknown>>;
  /** Its fleet preview, once the server wrote one. */
  readonly status?: Status;
}

/** The answer of `GET platformrevisions`. */
export interface PlatformRevisionListBody<Status> {
  /** The revisions, newest first. */
  readonly items: readonly PlatformRevisionBody<Status>[];
}

/** The list answer. */
export interface TenantListBody<Tenant> {
  /** The tenants, by name. */
  readonly items: readonly Tenant[];
}

/** How the command signs in: the identity provider and the client the server trusts for it. */
export interface SignInInfo {
  /** The OpenID Connect issuer URL. */
  readonly issuer: string;
  /** The public client the command uses (device flow), whose ID tokens the server accepts. */
  readonly clientId: string;
  /** The scopes to ask for. */
  readonly scopes: readonly string[];
}

/** Who the caller is, as the server sees it. */
export interface WhoAmI {
  /** The owner identity (the configured claim, email by default). */
  readonly owner: string;
  /** The caller's groups. */
  readonly groups: readonly string[];
  /** Whether the caller is one of the platform's admins. */
  readonly isAdmin: boolean;
}

/**
 * The event stream of one tenant (`text/event-stream`). Each event's `id` is the Tenant
 * resource's resourceVersion, so a client that reconnects with `Last-Event-ID` resumes after it.
 */
export const TENANT_EVENTS = {
  /** The tenant as it now stands (a TenantObject, JSON), sent first and at each change. */
  tenant: "tenant",
  /** The tenant is gone (its teardown finished); the stream ends. */
  deleted: "deleted",
} as const;

/** The header a browser form or script sends the CSRF token in (forms send the `_csrf` field). */
export const CSRF_HEADER = "x-csrf-token";
