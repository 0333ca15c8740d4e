/**
 * The drift watch: the host objects a tenant's stack makes directly (its Namespace, ResourceQuota,
 * LimitRange, NetworkPolicies and the namespace's access RoleBinding, each labelled
 * `kubespaces.io/tenant` and managed by kubespaces) are watched, one watch per kind across every
 * namespace. A change of what the stack set (the labels and the spec, never a status) or a removal
 * names the tenant whose objects drifted, and only that tenant is resynced: previewed after a
 * refresh, and brought up when that plans a change. The periodic resync stays as a slow safety net.
 *
 * A label names the tenant to resync, nothing else: a resync of a tenant only ever brings its own
 * stack back to its own Tenant's spec, so a label someone else wrote can cost a preview, no more.
 *
 * The same watch of ResourceQuotas also hands each tenant's quota, status included, to the cost
 * metrics (`onQuota`): the informer already holds them, and a second watch would be the same
 * objects twice.
 */
import {
  CoreV1Api,
  makeInformer,
  type Informer,
  NetworkingV1Api,
  RbacAuthorizationV1Api,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
} from "@kubernetes/client-node";
import { MANAGED_BY_LABEL, TENANT_LABEL } from "../../model/names";
import { RESOURCE_QUOTA_NAME } from "../../render/resourceQuota";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";
import { runInformer, type InformerRunOptions } from "./informerRun";

/** The kinds the drift watch watches. */
export const DRIFT_KINDS = ["Namespace", "ResourceQuota", "LimitRange", "NetworkPolicy", "RoleBinding"] as const;
/** One of them. */
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** The label selector of the objects a tenant's stack makes. */
export const DRIFT_SELECTOR = `${TENANT_LABEL},${MANAGED_BY_LABEL.key}=${MANAGED_BY_LABEL.value}`;

/** An object as the watch sees it: what the stack set of it besides its metadata. */
type Watched = KubernetesObject & {
  readonly spec?: unknown;
  readonly roleRef?: unknown;
  readonly subjects?: unknown;
};

/** A ResourceQuota's parts the cost metrics read. */
type WatchedQuota = KubernetesObject & {
  readonly spec?: { readonly hard?: Record<string, string> };
  readonly status?: { readonly hard?: Record<string, string>; readonly used?: Record<string, string> };
};

/**
 * The tenant a ResourceQuota is the quota of, and its ceilings and use, as the portal reads them
 * (the status's ceilings, the spec's before the quota controller wrote one); undefined for any
 * other quota (another name, no tenant label).
 */
export function tenantQuotaOf(object: WatchedQuota): { tenant: string; quota: QuotaUsage } | undefined {
  const tenant = object.metadata?.labels?.[TENANT_LABEL];
  if (!tenant || object.metadata?.name !== RESOURCE_QUOTA_NAME) return undefined;
  return { tenant, quota: { hard: object.status?.hard ?? object.spec?.hard ?? {}, used: object.status?.used ?? {} } };
}

/** What the stack set of an object: its labels, and its spec (a RoleBinding's role and subjects). */
export function desiredStateOf(object: Watched): string {
  const { spec, roleRef, subjects } = object;
  return JSON.stringify([object.metadata?.labels ?? {}, spec ?? null, roleRef ?? null, subjects ?? null]);
}

/**
 * Tells drift from the watch's events: the first sight of an object (the initial list, an object
 * the stack made) is recorded; a change of its desired state, or its removal, is drift of the
 * tenant its label names.
 */
export class DriftTracker {
  private readonly states = new Map<string, string>();

  constructor(private readonly onDrift: (tenant: string, kind: DriftKind, object: string) => void) {}

  /** An object added (listed, or made). */
  added(kind: DriftKind, object: Watched): void {
    this.states.set(keyOf(kind, object), desiredStateOf(object));
  }

  /** An object changed: drift when what the stack set of it changed. */
  changed(kind: DriftKind, object: Watched): void {
    const key = keyOf(kind, object);
    const state = desiredStateOf(object);
    const before = this.states.get(key);
    this.states.set(key, state);
    if (before !== undefined && before !== state) this.drifted(kind, object);
  }

  /** An object removed (or its labels no longer match): drift. */
  removed(kind: DriftKind, object: Watched): void {
    this.states.delete(keyOf(kind, object));
    this.drifted(kind, object);
  }

  private drifted(kind: DriftKind, object: Watched): void {
    const tenant = object.metadata?.labels?.[TENANT_LABEL];
    if (tenant) this.onDrift(tenant, kind, nameOf(object));
  }
}

/** How the drift watch reports: the drift it finds, besides how its runs go (informerRun.ts). */
export interface DriftWatchOptions extends InformerRunOptions {
  /** Objects of tenant `tenant` of `kind` drifted: `object` (`namespace/name`) changed or went. */
  readonly onDrift: (tenant: string, kind: DriftKind, object: string) => void;
  /** Tenant `tenant`'s quota was listed or changed (its status too), or is gone (undefined). */
  readonly onQuota?: (tenant: string, quota: QuotaUsage | undefined) => void;
}

/** Watches the tenants' host objects until `signal` aborts. */
export function watchDrift(config: KubeConfig, options: DriftWatchOptions, signal: AbortSignal): void {
  const tracker = new DriftTracker(options.onDrift);
  for (const [kind, path, list] of sources(config)) {
    const informer = makeInformer<Watched>(config, path, list, DRIFT_SELECTOR);
    informer.on("add", (object) => tracker.added(kind, object));
    informer.on("update", (object) => tracker.changed(kind, object));
    informer.on("delete", (object) => tracker.removed(kind, object));
    if (kind === "ResourceQuota" && options.onQuota) followQuotas(informer, options.onQuota);
    runInformer(informer, options, signal);
  }
}

/** Hands each tenant's quota, as the informer sees it change, to `onQuota`. */
function followQuotas(
  informer: Pick<Informer<Watched>, "on">,
  onQuota: (tenant: string, quota: QuotaUsage | undefined) => void,
): void {
  // This informer's objects are ResourceQuotas.
  const quotaOf = (object: Watched) => tenantQuotaOf(object as WatchedQuota);
  const seen = (object: Watched) => {
    const found = quotaOf(object);
    if (found) onQuota(found.tenant, found.quota);
  };
  informer.on("add", seen);
  informer.on("update", seen);
  informer.on("delete", (object) => {
    const found = quotaOf(object);
    if (found) onQuota(found.tenant, undefined);
  });
}

/** Each kind's collection path across every namespace, and its list. */
function sources(config: KubeConfig): [DriftKind, string, () => Promise<KubernetesListObject<Watched>>][] {
  const core = config.makeApiClient(CoreV1Api);
  const networking = config.makeApiClient(NetworkingV1Api);
  const rbac = config.makeApiClient(RbacAuthorizationV1Api);
  const labelSelector = DRIFT_SELECTOR;
  return [
    ["Namespace", "/api/v1/namespaces", () => core.listNamespace({ labelSelector })],
    ["ResourceQuota", "/api/v1/resourcequotas", () => core.listResourceQuotaForAllNamespaces({ labelSelector })],
    ["LimitRange", "/api/v1/limitranges", () => core.listLimitRangeForAllNamespaces({ labelSelector })],
    [
      "NetworkPolicy",
      "/apis/networking.k8s.io/v1/networkpolicies",
      () => networking.listNetworkPolicyForAllNamespaces({ labelSelector }),
    ],
    [
      "RoleBinding",
      "/apis/rbac.authorization.k8s.io/v1/rolebindings",
      () => rbac.listRoleBindingForAllNamespaces({ labelSelector }),
    ],
  ];
}

const nameOf = (object: Watched): string =>
  [object.metadata?.namespace, object.metadata?.name].filter((part) => part !== undefined).join("/");

const keyOf = (kind: DriftKind, object: Watched): string => `${kind}/${nameOf(object)}`;
