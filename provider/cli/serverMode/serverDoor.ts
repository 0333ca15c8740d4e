/**
 * The tenant commands' door in server mode (`kubespaces login --server URL`): every operation is a
 * request to that kubespaces server's API, signed with the kept sign-in (renewed when it has
 * expired), and the command acts as whoever the server says the sign-in is.
 */
import {
  API_PATHS,
  type OwnerCapsBody,
  type PlatformRevisionListBody,
  type TenantQuotaBody,
  type WhoAmI,
} from "../../contracts/tenantsApi";
import type { RevisionView } from "../../tenantResource/platformRevisionStatus";
import type { PlatformRevisionStatus } from "../../tenantResource/platformRevisionStatus";
import type { TenantView } from "../../tenantResource/tenantReplies";
import { ServerApi } from "./serverApi";
import { refreshSignIn } from "./serverSignIn";
import { ServerTenants } from "./serverTenants";
import { bearerTokens, type BearerOptions } from "./signInTokens";
import type { TenantsDoor } from "../tenantsDoor";
import type { FollowOptions } from "./tenantFollow";

/** How the server door is opened (tests shorten the follow's waits, or stop the clock). */
export interface ServerDoorOptions {
  /** How the tokens are renewed and what time it is. */
  readonly bearer?: Partial<BearerOptions>;
  /** How event streams are followed. */
  readonly follow?: Omit<FollowOptions, "signal">;
}

/** What the first Ctrl-C does through a server: the server goes on, the command stops following. */
const SERVER_INTERRUPT =
  "interrupted: the command stops following; the server goes on with the tenant (Ctrl-C again stops at once)";

/** A lock of a tenant's stack on the server: only the server's admin can remove it. */
const serverStuckLock = (tenant: string): string =>
  `if no update of tenant ${tenant} runs on the server any more, its stack's lock stays until the server's admin removes it (\`pulumi cancel\` on the server's state backend)`;

/** The door of the kubespaces server `server`, as the kept sign-in. */
export async function serverDoor(server: string, options: ServerDoorOptions = {}): Promise<TenantsDoor> {
  const api = new ServerApi(server, bearerTokens(server, { refresh: refreshSignIn, ...options.bearer }));
  const you = await api.json<WhoAmI>("GET", API_PATHS.whoAmI);
  const tenants = new ServerTenants(api, options.follow);
  return {
    tenants,
    previews: {
      preview: (name, request, actor, operation) => tenants.preview(name, request, actor, operation),
      storedRequest: async (name) => (await tenants.get(name)).spec,
    },
    actor: { owner: you.owner, groups: [...you.groups], isAdmin: you.isAdmin },
    follow: (name, until, options) => tenants.followUntil(name, until, options),
    asks: {
      create: (name, request, actor) => tenants.ask(name, request, actor),
      delete: (name) => tenants.askDelete(name),
    },
    onInterrupt: SERVER_INTERRUPT,
    onStuckLock: serverStuckLock,
    server,
    fleet: {
      revisions: async () =>
        (await api.json<PlatformRevisionListBody<PlatformRevisionStatus>>("GET", API_PATHS.platformRevisions)).items,
      revision: (name) => api.json<RevisionView>("GET", API_PATHS.platformRevision(name)),
    },
    rollback: (name, version) =>
      api.json<TenantView>("POST", API_PATHS.tenantRollback(name), { tenant: name, body: { version } }),
    snapshots: {
      take: (name) => api.json<TenantView>("POST", API_PATHS.tenantSnapshots(name), { tenant: name }),
      restore: (name, snapshot) =>
        api.json<TenantView>("POST", API_PATHS.tenantRestore(name), { tenant: name, body: { snapshot } }),
    },
    caps: () => api.json<OwnerCapsBody>("GET", API_PATHS.caps),
    quota: async (name) =>
      (await api.json<TenantQuotaBody>("GET", API_PATHS.tenantQuota(name), { tenant: name })).quota,
    setSleep: (name, asleep) =>
      api.json<TenantView>("POST", asleep ? API_PATHS.tenantSleep(name) : API_PATHS.tenantWake(name), {
        tenant: name,
      }),
  };
}
