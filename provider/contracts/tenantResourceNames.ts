/**
 * The facts of the `Tenant` custom resource, written once: the CRD, the admission policy, the RBAC,
 * Tenant files and the reconciler of `kubespaces server` all read them from here.
 */

/** API group of the Tenant resource. */
export const TENANT_GROUP = "kubespaces.io";
/** Its only version so far. */
export const TENANT_VERSION = "v1alpha1";
/** `apiVersion` of a Tenant object. */
export const TENANT_API_VERSION = `${TENANT_GROUP}/${TENANT_VERSION}` as const;
/** Its kind. */
export const TENANT_KIND = "Tenant";
/** Its plural: the resource name in URLs, RBAC rules and `kubectl get tenants`. */
export const TENANT_PLURAL = "tenants";
/** Its singular, for `kubectl get tenant`. */
export const TENANT_SINGULAR = "tenant";
/** The CRD's name: `<plural>.<group>`. */
export const TENANT_CRD_NAME = `${TENANT_PLURAL}.${TENANT_GROUP}`;

/** The finalizer the server puts on each Tenant, and removes once the tenant's teardown has left nothing. */
export const TENANT_FINALIZER = "kubespaces.io/finalizer";

/**
 * The annotations by which an admin approves a previewed change, both needed: the generation
 * (`metadata.generation`, in decimal) and the SHA-256 of the spec (`specSha256`, shown in the
 * status's plan) that may be provisioned. Only the admins may set them (the admission policy
 * refuses them from anyone else). Before the digest, the generation alone approved a change.
 */
export const APPROVED_GENERATION_ANNOTATION = "kubespaces.io/approved-generation";
/** See APPROVED_GENERATION_ANNOTATION: the approved spec's SHA-256, in lowercase hex. */
export const APPROVED_SPEC_SHA256_ANNOTATION = "kubespaces.io/approved-spec-sha256";

/** The phase of a Tenant whose change waits for an admin's approval (the approval gate). */
export const AWAITING_APPROVAL_PHASE = "AwaitingApproval";

/**
 * The annotation by which whoever writes a Tenant (its owner, a GitOps repository) asks for a
 * preview only: with the value `"true"`, the server writes the change's plan into the status and
 * provisions nothing until the annotation goes (or is set to anything else). A pull request can so
 * show what a change would do before it is merged without it.
 */
export const PREVIEW_ONLY_ANNOTATION = "kubespaces.io/preview-only";

/** The phase of a Tenant whose change was previewed only (PREVIEW_ONLY_ANNOTATION). */
export const PREVIEWED_PHASE = "Previewed";

/**
 * The annotation that asks the server for a snapshot of the tenant: each new value (any text, the
 * doors write the time) asks for one more; the status's `snapshotRequest` names the last one served.
 */
export const SNAPSHOT_ANNOTATION = "kubespaces.io/snapshot";

/**
 * The annotation that asks the server to restore the tenant from snapshot `<name>` (one of its
 * owner's); the status's `restoredFrom` names the last one served, so that each is restored once.
 */
export const RESTORE_ANNOTATION = "kubespaces.io/restore-from";

/** The phases a Tenant shows while a change is held with its plan in the status, none of them the service's own. */
export const HELD_PHASES = [AWAITING_APPROVAL_PHASE, PREVIEWED_PHASE] as const;

/** One of them. */
export type HeldPhase = (typeof HELD_PHASES)[number];

/** Whether `phase` is one of a held change's. */
export const isHeldPhase = (phase: string): phase is HeldPhase => (HELD_PHASES as readonly string[]).includes(phase);

/** Names of the cluster objects that come with the Tenant resource (one installation per host cluster). */
export const TENANT_RESOURCE_OBJECTS = {
  /** The ValidatingAdmissionPolicy on Tenant owners, and its binding. */
  ownerPolicy: "kubespaces-tenant-owner",
  /** The server's ClusterRole and ClusterRoleBinding. */
  serverClusterRole: "kubespaces-server",
  /**
   * The server's rights on what lives in a tenant namespace: a ClusterRole bound in each tenant
   * namespace alone, by the RoleBinding each tenant's stack makes (`platform.namespaceAccess`).
   */
  serverTenantClusterRole: "kubespaces-server-tenant",
  /** The server's Role and RoleBinding in the gateway namespace (a tenant's route, listener and certificate). */
  serverGatewayRole: "kubespaces-server-gateway",
  /** The ValidatingAdmissionPolicy that fences the server's own writes, and its binding. */
  serverFencePolicy: "kubespaces-server-fence",
  /** The server's Role and RoleBinding in its own namespace (the replicas' Leases and the tenants' claims). */
  serverLeasesRole: "kubespaces-server-leases",
  /** The ValidatingAdmissionPolicy that holds a Tenant to the ceilings the server publishes, and its binding. */
  ceilingPolicy: "kubespaces-tenant-ceilings",
  /** The ClusterRole of people who request tenants; the platform binds it. */
  requesterClusterRole: "kubespaces-tenant-requester",
} as const;
