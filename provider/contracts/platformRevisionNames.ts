/**
 * The facts of the `PlatformRevision` custom resource, written once: a version of the platform's
 * policy that the server previews on every tenant before anything of it reaches one. The CRD, the
 * server's RBAC and its watch read them from here.
 */
import { TENANT_GROUP, TENANT_VERSION } from "./tenantResourceNames";

/** Its kind. */
export const PLATFORM_REVISION_KIND = "PlatformRevision";
/** Its plural: the resource name in URLs, RBAC rules and `kubectl get platformrevisions`. */
export const PLATFORM_REVISION_PLURAL = "platformrevisions";
/** Its singular, for `kubectl get platformrevision`. */
export const PLATFORM_REVISION_SINGULAR = "platformrevision";
/** The CRD's name: `<plural>.<group>` (the Tenant's group and version). */
export const PLATFORM_REVISION_CRD_NAME = `${PLATFORM_REVISION_PLURAL}.${TENANT_GROUP}`;
/** `apiVersion` of a PlatformRevision object. */
export const PLATFORM_REVISION_API_VERSION = `${TENANT_GROUP}/${TENANT_VERSION}` as const;

/**
 * The annotation an admin sets on a revision to roll it out (`approved`) or to stop rolling it out
 * (`aborted`). Only whoever may update PlatformRevisions (the cluster's admins) can set it: the
 * server, which patches them for its finalizer, is refused by its fence (tenantResource/serverFence.ts).
 */
export const ROLLOUT_ANNOTATION = "kubespaces.io/rollout";
/** ROLLOUT_ANNOTATION's values. */
export const ROLLOUT_DECISIONS = { approve: "approved", abort: "aborted" } as const;
/**
 * The annotation an admin sets on a halted revision to resume its rollout: its value is the halt's
 * time (`status.rollout.halt.at`), so that it resumes the halt the admin saw and no later one.
 */
export const RESUME_ANNOTATION = "kubespaces.io/resume";
/**
 * The finalizer the server puts on every revision: a revision that tenants run is not removed
 * (their stacks run with its policy) until none does.
 */
export const REVISION_FINALIZER = "kubespaces.io/revision-in-use";
/** The waves a revision is rolled out in when its spec names none: one tenant, then a tenth, then the rest. */
export const DEFAULT_WAVES: readonly string[] = ["1", "10%", "100%"];
