/**
 * A `Tenant` custom resource as the server reads and writes it: the team's request as its spec,
 * the status the reconciler writes, and the operations the reconciler needs of the host's API
 * server, as a port (the Kubernetes adapter is kubeTenantResources.ts; unit tests plug in a
 * stand-in). The host's API server is the one store of requests: the server keeps none of its own.
 */
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { ReadyCondition, ResourceStep, TenantStatus } from "../tenants/tenantObject";

/** The phase a Tenant resource shows: the service's, and AwaitingApproval while the approval gate holds it. */
export type TenantResourcePhase = TenantStatus["phase"] | "AwaitingApproval";

/** The Ready condition as a resource shows it: the service's reasons, and the gate's own. */
export type TenantResourceCondition = Omit<ReadyCondition, "reason"> & {
  /** The service's reason, or `AwaitingApproval`. */
  readonly reason: ReadyCondition["reason"] | "AwaitingApproval";
};

/** The steps a change would take, kept in the status while the approval gate holds it. */
export interface TenantPlan {
  /** The request generation the plan was made for. */
  readonly generation: number;
  /** How many resources each kind of step touches. */
  readonly creates: number;
  /** Resources updated in place. */
  readonly updates: number;
  /** Resources replaced (deleted and created again). */
  readonly replaces: number;
  /** Resources deleted. */
  readonly deletes: number;
  /** Every step that changes something, with the changed fields of updates. */
  readonly steps: readonly ResourceStep[];
}

/** Where the tenant's kubeconfig is kept on the host. */
export interface SecretKeyRef {
  /** The Secret's name. */
  readonly name: string;
  /** Its namespace. */
  readonly namespace: string;
  /** The key that holds the kubeconfig. */
  readonly key: string;
}

/** A Tenant resource's status, as the reconciler writes it. */
export interface TenantResourceStatus extends Omit<TenantStatus, "phase" | "conditions"> {
  /** The phase. */
  readonly phase: TenantResourcePhase;
  /** The Ready condition. */
  readonly conditions: readonly TenantResourceCondition[];
  /** The Secret that holds the tenant's kubeconfig, once it is Ready. */
  readonly kubeconfigSecretRef?: SecretKeyRef;
  /** The planned steps the approval gate holds, while it holds them. */
  readonly plan?: TenantPlan;
}

/** The metadata the reconciler reads. */
export interface TenantResourceMetadata {
  /** The tenant's name. */
  readonly name: string;
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

/** What the reconciler needs of the host's API server. */
export interface TenantResources {
  /** Tenant `name`, if it exists. */
  get(name: string): Promise<TenantResource | undefined>;
  /** Every Tenant. */
  list(): Promise<TenantResource[]>;
  /** Creates a Tenant with `spec`; resolves to undefined when one of that name exists already. */
  create(name: string, spec: TenantRequestInput): Promise<TenantResource | undefined>;
  /** Asks the API server to delete Tenant `name` (its finalizer holds it until the teardown ends). */
  delete(name: string): Promise<void>;
  /** Adds `finalizer` to Tenant `name` unless it is there. */
  addFinalizer(name: string, finalizer: string): Promise<void>;
  /** Removes `finalizer` from Tenant `name`; nothing when it is gone already. */
  removeFinalizer(name: string, finalizer: string): Promise<void>;
  /** Replaces Tenant `name`'s status (through the status subresource). */
  writeStatus(name: string, status: TenantResourceStatus): Promise<void>;
  /**
   * Writes the tenant's kubeconfig into a Secret `ref` that the server made (labelled as its own);
   * a Secret of that name that the server did not make is left alone, and this throws.
   */
  writeKubeconfig(tenant: string, ref: SecretKeyRef, kubeconfig: string): Promise<void>;
}
