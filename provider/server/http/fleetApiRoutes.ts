/**
 * The API's routes of the fleet (paths in contracts/tenantsApi.ts): the PlatformRevisions and their
 * fleet preview, for the platform's admins only. A revision speaks of every tenant, so nobody else
 * reads one; the server reads them as itself, which the cluster's RBAC lets read them.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "../../tenants/ports";
import { OperationRefusedError } from "../../tenants/tenantsErrors";
import { API_ROUTES, type PlatformRevisionListBody } from "../../contracts/tenantsApi";
import type { PlatformRevisionStatus, RevisionView } from "../../tenantResource/platformRevisionStatus";
import type { PlatformRevision } from "../revisions/fleetPreview";
import { requireObjectName } from "../nameChecks";
import { ApiError } from "./httpErrors";
import { requireActor } from "./requestActor";

/** The PlatformRevisions as the API reads them (the Kubernetes adapter: kubePlatformRevisions.ts). */
export interface PlatformRevisionReader {
  /** Every revision. */
  list(): Promise<PlatformRevision[]>;
  /** Revision `name`, if it exists. */
  get(name: string): Promise<PlatformRevision | undefined>;
}

/** Refuses anyone but the platform's admins: the API's and the portal's revision routes both ask this. */
export function requireRevisionReader(actor: Actor): void {
  if (!actor.isAdmin) throw new OperationRefusedError("only the platform's admins may read platform revisions");
}

/** The routes. */
export async function fleetApiRoutes(app: FastifyInstance, revisions: PlatformRevisionReader): Promise<void> {
  const adminOnly = { preHandler: async (request: FastifyRequest) => requireRevisionReader(requireActor(request)) };
  app.get(
    API_ROUTES.platformRevisions,
    adminOnly,
    async (): Promise<PlatformRevisionListBody<PlatformRevisionStatus>> => ({
      items: (await revisions.list()).map(revisionViewOf).sort(newestFirst),
    }),
  );
  app.get<{ Params: { name: string } }>(API_ROUTES.platformRevision, adminOnly, async (request) => {
    const { name } = request.params;
    requireObjectName(name, "name");
    const revision = await revisions.get(name);
    if (!revision) throw new ApiError("notFound", `platform revision ${name} not found`);
    return revisionViewOf(revision);
  });
}

/** `revision` as the API (and the portal) shows it. */
export function revisionViewOf(revision: PlatformRevision): RevisionView {
  const { name, creationTimestamp } = revision.metadata;
  const platform = revision.spec.platform;
  return {
    name,
    ...(creationTimestamp && { createdAt: creationTimestamp }),
    platform: platform !== null && typeof platform === "object" ? (platform as Record<string, unknown>) : {},
    ...(revision.status && { status: revision.status }),
  };
}

/** The order of revisions shown: newest first, then by name. */
export const newestFirst = (a: RevisionView, b: RevisionView): number =>
  (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || a.name.localeCompare(b.name);
