/**
 * The fence around the server's own writes: a ValidatingAdmissionPolicy that matches the server's
 * requests alone and holds its cluster-wide rights (serverRules.ts) to what the Tenant component
 * does with them, so that whoever takes the server over cannot widen them into the cluster's:
 *
 * - namespaces: only those named with the tenant prefix, and never below Pod Security `baseline`
 *   (a privileged namespace would let its pods take the node);
 * - RoleBindings: only in tenant namespaces (each tenant's access binding, the chart's own);
 * - ClusterRoles: only the chart's (`vc-…`), and read-only, so that the server cannot hand its
 *   rights to a subject this policy does not match (an aggregated role, which the controller
 *   fills in, the API server itself refuses to anyone but a cluster admin);
 * - ClusterRoleBindings: only the chart's, of the ClusterRole of the same name, to ServiceAccounts
 *   of tenant namespaces (so never of `kubespaces-server-tenant`, which the server may bind);
 * - PriorityClasses: deleted only when a vCluster's marker label is on them;
 * - PlatformRevisions: an update changes their finalizers alone (the server's own, kept while
 *   tenants run the revision), never the spec, labels, annotations or owners: the annotations
 *   approve, resume and abort a rollout on every tenant, which is the admins' decision. The
 *   server's status writes go to the status subresource, which the fence does not match.
 *
 * The names are written into the expressions, as in the owner policy (ownerAdmission.ts): rendered
 * from the same options as the RBAC, with no parameter object to remove or rewrite.
 */
import { VCLUSTER_MARKER_LABEL } from "../lifecycle/cleanup/vclusterMarker";
import { serverUsername, type InstallOptions } from "./installOptions";
import { celLiteral as cel } from "../model/apiServerRules";
import { admissionPolicy } from "./admissionPolicy";
import type { InstalledObject } from "./kubeObject";
import { TENANT_GROUP, TENANT_RESOURCE_OBJECTS } from "../contracts/tenantResourceNames";
import { PLATFORM_REVISION_PLURAL } from "../contracts/platformRevisionNames";

/** The Pod Security levels a tenant namespace may enforce (the platform's schema allows no other). */
const TENANT_POD_SECURITY = ["baseline", "restricted"];
const ENFORCE_LABEL = "pod-security.kubernetes.io/enforce";
/** The prefix of the vCluster chart's cluster-scoped RBAC (`vcluster.clusterRoleName` of v0.36.1). */
const CHART_RBAC_PREFIX = "vc-";

/**
 * What a PlatformRevision carries that the server never changes: everything it may write but its
 * finalizers (its owners too, whose removal the garbage collector would follow by deleting it).
 */
const REVISION_FIELDS_KEPT = ["spec", "metadata.labels", "metadata.annotations", "metadata.ownerReferences"];

/** Whether field `path` is as it was, present on neither or equal on both (CEL refuses reading an absent one). */
const unchanged = (path: string): string =>
  `has(object.${path}) == has(oldObject.${path}) && (!has(object.${path}) || object.${path} == oldObject.${path})`;

/** One rule over the request, applied when the request is on `resource`. */
interface FenceRule {
  readonly resource: string;
  readonly expression: string;
  readonly message: string;
}

function fenceRules(prefix: string): FenceRule[] {
  const read = ["get", "list", "watch"];
  return [
    {
      resource: "namespaces",
      expression: `variables.target.metadata.name.startsWith(${cel(prefix)})`,
      message: `the kubespaces server writes only tenant namespaces, named ${prefix}<tenant>`,
    },
    {
      resource: "namespaces",
      expression: `request.operation == "DELETE" || (has(object.metadata.labels) && ${cel(ENFORCE_LABEL)} in object.metadata.labels && object.metadata.labels[${cel(ENFORCE_LABEL)}] in ${JSON.stringify(TENANT_POD_SECURITY)})`,
      message: `metadata.labels[${ENFORCE_LABEL}]: a tenant namespace enforces ${TENANT_POD_SECURITY.join(" or ")}`,
    },
    {
      resource: "rolebindings",
      expression: `request.namespace.startsWith(${cel(prefix)})`,
      message: `the kubespaces server writes RoleBindings only in tenant namespaces, named ${prefix}<tenant>`,
    },
    {
      resource: "clusterroles",
      expression: `variables.target.metadata.name.startsWith(${cel(CHART_RBAC_PREFIX)}) && (request.operation == "DELETE" || !has(object.rules) || object.rules.all(r, r.verbs.all(v, v in ${JSON.stringify(read)})))`,
      message: `the kubespaces server writes only the vCluster chart's ClusterRoles (${CHART_RBAC_PREFIX}…), read-only`,
    },
    {
      resource: "clusterrolebindings",
      expression: `variables.target.metadata.name.startsWith(${cel(CHART_RBAC_PREFIX)}) && (request.operation == "DELETE" || (object.roleRef.kind == "ClusterRole" && object.roleRef.name == object.metadata.name && (!has(object.subjects) || object.subjects.all(s, s.kind == "ServiceAccount" && s.namespace.startsWith(${cel(prefix)})))))`,
      message: `the kubespaces server writes only the vCluster chart's ClusterRoleBindings (${CHART_RBAC_PREFIX}…), each of the ClusterRole of its own name, to ServiceAccounts of tenant namespaces`,
    },
    {
      resource: "priorityclasses",
      expression: `has(oldObject.metadata.labels) && ${cel(VCLUSTER_MARKER_LABEL)} in oldObject.metadata.labels`,
      message: `the kubespaces server deletes only PriorityClasses a vCluster synced (labelled ${VCLUSTER_MARKER_LABEL})`,
    },
    ...REVISION_FIELDS_KEPT.map((path) => ({
      resource: PLATFORM_REVISION_PLURAL,
      expression: unchanged(path),
      message: `${path}: the kubespaces server changes only a PlatformRevision's finalizers (and its status); the rest is the admins'`,
    })),
  ];
}

/** The kinds the fence matches, by API group, with the operations it checks. */
const MATCHED = [
  { apiGroups: [""], resources: ["namespaces"], operations: ["CREATE", "UPDATE", "DELETE"] },
  {
    apiGroups: ["rbac.authorization.k8s.io"],
    resources: ["rolebindings", "clusterroles", "clusterrolebindings"],
    operations: ["CREATE", "UPDATE", "DELETE"],
  },
  { apiGroups: ["scheduling.k8s.io"], resources: ["priorityclasses"], operations: ["DELETE"] },
  // The main resource alone (a rule names a subresource only as `<plural>/<sub>`); the server has no create or delete.
  { apiGroups: [TENANT_GROUP], resources: [PLATFORM_REVISION_PLURAL], operations: ["UPDATE"] },
];

/** The fence and its binding. */
export function serverFence(options: InstallOptions): InstalledObject[] {
  return admissionPolicy("server-fence-policy", TENANT_RESOURCE_OBJECTS.serverFencePolicy, {
    matchConstraints: { resourceRules: MATCHED.map((match) => ({ ...match, apiVersions: ["*"] })) },
    matchConditions: [
      { name: "the-server", expression: `request.userInfo.username == ${cel(serverUsername(options))}` },
    ],
    // The object written, or the one deleted.
    variables: [{ name: "target", expression: `request.operation == "DELETE" ? oldObject : object` }],
    validations: fenceRules(options.tenantNamespacePrefix).map((rule) => ({
      expression: `request.resource.resource != ${cel(rule.resource)} || (${rule.expression})`,
      message: rule.message,
      reason: "Forbidden",
    })),
  });
}
