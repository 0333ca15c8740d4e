/**
 * What `kubespaces server` may do on the host, and why: the inventory of its roles, from the code
 * that runs under it. The server reconciles Tenants, and each reconcile runs the Tenant component's
 * stack, so it needs everything the component (`render/`), its lifecycle resources (`lifecycle/`)
 * and its Helm release of the vCluster chart v0.36.1 (with the values of `render/vclusterValues.ts`)
 * create, read and delete. Its rights come in three parts, so that whoever takes the server over
 * holds a tenant namespace's contents, not the cluster's:
 *
 * - cluster-wide (`SERVER_CLUSTER_RULES`): Tenants, namespaces, RoleBindings to make each tenant
 *   namespace's access binding, and the few cluster-scoped kinds the chart and the cleanup touch,
 *   each write fenced by an admission policy (serverFence.ts); PlatformRevisions' finalizers
 *   (fenced likewise) and status; and the drift watch's reads;
 * - in each tenant namespace (`SERVER_TENANT_RULES`, ClusterRole `kubespaces-server-tenant`),
 *   bound there alone by the RoleBinding the tenant's stack makes first (`platform.namespaceAccess`):
 *   Secrets, pods and everything else the chart makes;
 * - in the gateway namespace (`SERVER_GATEWAY_RULES`): a tenant's route, listener and certificate.
 */
import { PLATFORM_REVISION_PLURAL } from "../contracts/platformRevisionNames";
import { NEW_TENANT_CEILINGS, TENANT_CEILINGS_PLURAL } from "../contracts/tenantCeilingsNames";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_RESOURCE_OBJECTS as NAMES } from "../contracts/tenantResourceNames";
import { granted, MANAGE, type DocumentedRule } from "./rbacRule";

const CORE = "";

/** The Tenant resource itself. */
const tenantRules: readonly DocumentedRule[] = [
  granted(
    "The reconciler watches Tenants and adds and removes its finalizer (a normal update).",
    [TENANT_GROUP],
    [TENANT_PLURAL],
    ["get", "list", "watch", "update", "patch"],
  ),
  granted(
    "The API and portal create Tenants on behalf of signed-in people (the owner is the person's identity, never a request's) and delete their own; the reconciler then provisions or tears them down.",
    [TENANT_GROUP],
    [TENANT_PLURAL],
    ["create", "delete"],
  ),
  granted(
    "The reconciler writes each Tenant's status through the status subresource.",
    [TENANT_GROUP],
    [`${TENANT_PLURAL}/status`],
    ["get", "update", "patch"],
  ),
  granted(
    "Objects the server makes for a Tenant (its kubeconfig Secret) may name it as owner with blockOwnerDeletion, which the OwnerReferencesPermissionEnforcement admission plugin allows only with this.",
    [TENANT_GROUP],
    [`${TENANT_PLURAL}/finalizers`],
    ["update"],
  ),
  granted("The reconciler records Events on Tenants.", [CORE, "events.k8s.io"], ["events"], ["create", "patch"]),
  granted(
    "The fleet (server/revisions/replicaFleet.ts) watches PlatformRevisions, which only the platform's admins make and approve.",
    [TENANT_GROUP],
    [PLATFORM_REVISION_PLURAL],
    ["get", "list", "watch"],
  ),
  granted(
    "The fleet keeps its finalizer on each PlatformRevision while tenants run it (a JSON patch of the finalizers only). The fence lets the server's updates change nothing else: never the spec, labels, annotations or owners, so it cannot approve, resume or abort a rollout.",
    [TENANT_GROUP],
    [PLATFORM_REVISION_PLURAL],
    ["patch"],
  ),
  granted(
    "Each replica writes the previews and updates of its own tenants, and the rollout they lead to, into a PlatformRevision's status.",
    [TENANT_GROUP],
    [`${PLATFORM_REVISION_PLURAL}/status`],
    ["get", "update"],
  ),
  granted(
    "The server publishes the ceilings a new tenant is held to, the ceiling admission policy's parameters (server/admission/ceilingPublisher.ts); a create cannot be narrowed to one name.",
    [TENANT_GROUP],
    [TENANT_CEILINGS_PLURAL],
    ["create"],
  ),
  granted(
    "The published ceilings, read and rewritten when the policy new tenants get changes.",
    [TENANT_GROUP],
    [TENANT_CEILINGS_PLURAL],
    ["get", "update"],
    [NEW_TENANT_CEILINGS],
  ),
];

/** What the component and its lifecycle do cluster-wide (writes fenced: serverFence.ts). */
const clusterComponentRules: readonly DocumentedRule[] = [
  granted(
    "The tenant namespace (render/namespace.ts); the host check reads it, and kube-system's UID as the host's identity (lifecycle/hostCheck/, lifecycle/hostIdentity.ts). The fence keeps writes to tenant namespaces, at a Pod Security level no lower than baseline.",
    [CORE],
    ["namespaces"],
    MANAGE,
  ),
  granted(
    "The tenant namespace's access binding (render/namespaceAccess.ts), made before anything in the namespace, when the server holds no rights there yet. The fence keeps these writes to tenant namespaces.",
    ["rbac.authorization.k8s.io"],
    ["rolebindings"],
    MANAGE,
  ),
  granted(
    "The drift watch (server/kube/driftWatch.ts) lists and watches the tenant's ResourceQuotas, LimitRanges and NetworkPolicies in every namespace at once, selected by label: one watch per kind instead of one per tenant. Read only; writes stay in tenant namespaces.",
    [CORE],
    ["resourcequotas", "limitranges"],
    ["list", "watch"],
  ),
  granted(
    "The drift watch's NetworkPolicies, likewise.",
    ["networking.k8s.io"],
    ["networkpolicies"],
    ["list", "watch"],
  ),
  granted(
    "The access check asks the API server whether the server may now create in a tenant namespace, that is whether the namespace's access binding is in force yet (lifecycle/accessCheck/namespaceAccessWait.ts). Every signed-in identity may usually ask this through system:basic-user; the server's own rule keeps it from depending on that.",
    ["authorization.k8s.io"],
    ["selfsubjectaccessreviews"],
    ["create"],
  ),
  granted(
    "Lets the access binding grant ClusterRole kubespaces-server-tenant, which the server holds only in tenant namespaces; the fence refuses a ClusterRoleBinding of it.",
    ["rbac.authorization.k8s.io"],
    ["clusterroles"],
    ["bind"],
    [NAMES.serverTenantClusterRole],
  ),
  granted(
    "The CRD preflight reads the Gateway API and cert-manager CRDs by name (lifecycle/crdPreflight.ts).",
    ["apiextensions.k8s.io"],
    ["customresourcedefinitions"],
    ["get"],
  ),
  granted(
    "The cleanup removes the PriorityClasses the vCluster synced to the host (lifecycle/cleanup/leftovers.ts); the fence lets it delete only those that carry a vCluster's marker label.",
    ["scheduling.k8s.io"],
    ["priorityclasses"],
    ["list", "delete"],
  ),
  granted(
    "The vCluster chart's ClusterRole and ClusterRoleBinding (chart/templates/clusterrole.yaml of v0.36.1), made when a tenant syncs IngressClasses or StorageClasses from the host (allowlisted overrides). The fence keeps them to the chart's names (vc-…), read-only rules and a binding of the role of the same name.",
    ["rbac.authorization.k8s.io"],
    ["clusterroles", "clusterrolebindings"],
    MANAGE,
  ),
  granted(
    "What that ClusterRole grants (RBAC lets a role grant only what its maker holds): IngressClasses.",
    ["networking.k8s.io"],
    ["ingressclasses"],
    ["get", "watch", "list"],
  ),
  granted(
    "What that ClusterRole grants: StorageClasses.",
    ["storage.k8s.io"],
    ["storageclasses"],
    ["get", "watch", "list"],
  ),
];

/** What the component and its lifecycle do inside a tenant namespace. */
const tenantComponentRules: readonly DocumentedRule[] = [
  granted(
    "The tenant's ResourceQuota and LimitRange (render/resourceQuota.ts, render/limitRange.ts).",
    [CORE],
    ["resourcequotas", "limitranges"],
    MANAGE,
  ),
  granted(
    "The tenant's NetworkPolicies (render/networkPolicy.ts).",
    ["networking.k8s.io"],
    ["networkpolicies"],
    MANAGE,
  ),
  granted(
    "Exposure: the ReferenceGrant that admits the API's TLSRoute (render/apiRoute.ts).",
    ["gateway.networking.k8s.io"],
    ["referencegrants"],
    MANAGE,
  ),
  granted(
    "Helm's release storage (a Secret per revision) and the chart's config Secret; the readiness wait reads the kubeconfig Secret (lifecycle/readiness/); the reconciler keeps each tenant's kubeconfig in a Secret there.",
    [CORE],
    ["secrets"],
    MANAGE,
  ),
  granted(
    "The chart's ServiceAccounts (control plane, workloads) and Services (helm install, upgrade, rollback, uninstall; the chart looks up a Service).",
    [CORE],
    ["serviceaccounts", "services"],
    MANAGE,
  ),
  granted(
    "The chart's control plane: a StatefulSet, or a Deployment without persistence; the readiness wait watches it (lifecycle/readiness/).",
    ["apps"],
    ["statefulsets", "deployments"],
    MANAGE,
  ),
  granted(
    "The chart's Role and RoleBinding vc-<release> for the control plane.",
    ["rbac.authorization.k8s.io"],
    ["roles", "rolebindings"],
    MANAGE,
  ),
];

const CHART_ROLE =
  "The vCluster chart's Role (chart/templates/role.yaml of v0.36.1, with this package's values, on Kubernetes 1.35 or later): the server creates it through Helm, and RBAC lets it grant only what it holds itself, so it holds exactly these rules (narrower than the `escalate` verb, which would let it grant anything).";

/** The vCluster chart's Role, which the server must hold in the tenant namespace to create it. */
const chartRules: readonly DocumentedRule[] = [
  granted(
    `${CHART_ROLE} Also what Helm's wait reads (pods, PVCs) and what the cleanup deletes (data PVCs, lifecycle/cleanup/leftovers.ts), and the synced pods a sleep ends (lifecycle/readiness/syncedPods.ts).`,
    [CORE],
    [
      "configmaps",
      "secrets",
      "services",
      "pods",
      "pods/attach",
      "pods/portforward",
      "pods/exec",
      "persistentvolumeclaims",
    ],
    ["create", "delete", "patch", "update", "get", "list", "watch"],
  ),
  granted(
    `${CHART_ROLE} (pods/resize from Kubernetes 1.35.)`,
    [CORE],
    ["pods/status", "pods/ephemeralcontainers", "pods/resize"],
    ["patch", "update"],
  ),
  granted(
    `${CHART_ROLE} Also what Helm's wait reads (a Deployment's ReplicaSets).`,
    ["apps"],
    ["statefulsets", "replicasets", "deployments"],
    ["get", "list", "watch", "patch", "update"],
  ),
  granted(CHART_ROLE, [CORE], ["endpoints", "pods/log"], ["get", "list", "watch"]),
  granted(CHART_ROLE, [CORE, "events.k8s.io"], ["events"], ["create", "get", "list", "watch"]),
  granted(
    `${CHART_ROLE} (sync.toHost.endpoints, on by default.)`,
    [CORE],
    ["endpoints"],
    ["create", "delete", "patch", "update"],
  ),
  granted(
    `${CHART_ROLE} (sync.toHost.endpointSlices, on by default.)`,
    ["discovery.k8s.io"],
    ["endpointslices"],
    ["create", "list", "get", "delete", "patch", "update", "watch"],
  ),
  granted(
    `${CHART_ROLE} (controlPlane.statefulSet.highAvailability.replicas above 1, an allowlisted override.)`,
    ["coordination.k8s.io"],
    ["leases"],
    ["create", "delete", "patch", "update", "get", "list", "watch"],
  ),
];

/** Every rule of the server's ClusterRole, bound cluster-wide. */
export const SERVER_CLUSTER_RULES: readonly DocumentedRule[] = [...tenantRules, ...clusterComponentRules];

/** Every rule of ClusterRole kubespaces-server-tenant, bound in each tenant namespace alone. */
export const SERVER_TENANT_RULES: readonly DocumentedRule[] = [...tenantComponentRules, ...chartRules];

/** The rules of the server's Role in the gateway namespace. */
export const SERVER_GATEWAY_RULES: readonly DocumentedRule[] = [
  granted(
    "Exposure: the API's TLSRoute (render/apiRoute.ts) and the apps ListenerSet (render/appsListener.ts).",
    ["gateway.networking.k8s.io"],
    ["tlsroutes", "listenersets"],
    MANAGE,
  ),
  granted("Exposure: the apps Certificate (render/appsListener.ts).", ["cert-manager.io"], ["certificates"], MANAGE),
  granted(
    "The cleanup deletes the apps certificate's Secret that cert-manager leaves (lifecycle/cleanup/leftovers.ts).",
    [CORE],
    ["secrets"],
    ["delete"],
  ),
];

/** The rules of the server's Role in its own namespace. */
export const SERVER_NAMESPACE_RULES: readonly DocumentedRule[] = [
  granted(
    "The replicas' Leases (server/replicas/leases.ts): each replica holds a Lease of its own and lists the others' (server/replicas/replicaMembership.ts), and holds a tenant's claim while it reconciles it (server/replicas/tenantClaims.ts); each removes its own when done, and a killed replica's is removed by the others.",
    ["coordination.k8s.io"],
    ["leases"],
    ["get", "list", "create", "update", "delete"],
  ),
];
