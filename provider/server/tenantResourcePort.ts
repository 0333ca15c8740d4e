/**
 * A `Tenant` custom resource as the server reads and writes it: the team's request as its spec,
 * the status the reconciler writes, and the operations the reconciler needs of the host's API
 * server, as a port (the Kubernetes adapter is kubeTenantResources.ts; unit tests plug in a
 * stand-in). The host's API server is the one store of requests: the server keeps none of its own.
 */
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { TenantResourceStatus } from "../tenantResource/tenantResourceStatus";

export type { TenantResourceStatus };
/** The phase a Tenant resource shows: the service's, and AwaitingApproval while the approval gate holds it. */
export type TenantResourcePhase = TenantResourceStatus["phase"];
/** The steps a change would take, kept in the status while the approval gate holds it. */
export type TenantPlan = NonNullable<TenantResourceStatus["plan"]>;
/** Where the tenant's kubeconfig is kept on the host. */
export type SecretKeyRef = NonNullable<TenantResourceStatus["kubeconfigSecretRef"]>;

/** The metadata the reconciler reads. */
export interface TenantResourceMetadata {
  /** The tenant's name. */
  readonly name: string;
  /** The object's UID, which Events name it by (kubectl describe finds them by it). */
  readonly uid?: string;
  /** Bumped by the API server at each change of the spec. */
  readonly generation: number;
  /** The object's version, for updates that must not overwrite a newer one. */
  readonly resourceVersion?: string;
  /** When it was created. */
  readonly creationTimestamp?: string;
  /** Set once a deletion was asked for; the finalizer holds the object until the teardown ends. */
  readonly deletionTimestamp?: string;
  /** Finalizers, among them the server's. */
  readonly finalizers?: readonly string[];
  /** Annotations, among them the approval of a generation. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A Tenant resource. */
export interface TenantResource {
  /** Its metadata. */
  readonly metadata: TenantResourceMetadata;
  /** The team's request. */
  readonly spec: TenantRequestInput;
  /** What the server last wrote. */
  readonly status?: TenantResourceStatus;
}

/** What writing a tenant's kubeconfig did: made the Secret, found it holding the same bytes (nothing written), or changed them. */
export type KubeconfigWrite = "created" | "unchanged" | "changed";

/** What the reconciler needs of the host's API server. */
export interface TenantResources {
  /** Tenant `name`, if it exists. */
  get(name: string): Promise<TenantResource | undefined>;
  /** Every Tenant. */
  list(): Promise<TenantResource[]>;
  /** Creates a Tenant with `spec`; resolves to undefined when one of that name exists already. */
  create(name: string, spec: TenantRequestInput): Promise<TenantResource | undefined>;
  /**
   * Replaces Tenant `name`'s spec with `spec` (a new generation), only while the Tenant is still at
   * `resourceVersion`; resolves to undefined when it changed since, or is gone.
   */
  replaceSpec(name: string, spec: TenantRequestInput, resourceVersion: string): Promise<TenantResource | undefined>;
  /**
   * Sets `annotations` on Tenant `name` (the others kept), only while it is still at
   * `resourceVersion`; resolves to undefined when it changed since, or is gone.
   */
  annotate(
    name: string,
    annotations: Readonly<Record<string, string>>,
    resourceVersion: string,
  ): Promise<TenantResource | undefined>;
  /** Asks the API server to delete Tenant `name` (its finalizer holds it until the teardown ends). */
  delete(name: string): Promise<void>;
  /** Adds `finalizer` to Tenant `name` unless it is there. */
  addFinalizer(name: string, finalizer: string): Promise<void>;
  /** Removes `finalizer` from Tenant `name`; nothing when it is gone already. */
  removeFinalizer(name: string, finalizer: string): Promise<void>;
  /** Replaces Tenant `name`'s status (through the status subresource). */
  writeStatus(name: string, status: TenantResourceStatus): Promise<void>;
  /**
   * Writes the tenant's kubeconfig into a Secret `ref` that the server made (labelled as its own),
   * unless it holds those bytes already; a Secret of that name that the server did not make is
   * left alone, and this throws.
   */
  writeKubeconfig(tenant: string, ref: SecretKeyRef, kubeconfig: string): Promise<KubeconfigWrite>;
}
