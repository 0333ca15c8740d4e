/**
 * The RoleBinding of `platform.namespaceAccess`: a ClusterRole bound in the tenant namespace to one
 * subject. kubespaces server asks for it with its own identity, so that it holds its rights on what
 * lives in a tenant namespace there and nowhere else (docs/policy.md, "What the server may do").
 */
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantMetadata, type Manifest } from "./manifest";

/** The kind of the namespace's access binding. */
export const ROLE_BINDING_TYPE: TypeMeta = { apiVersion: "rbac.authorization.k8s.io/v1", kind: "RoleBinding" };

/** Name of the RoleBinding. */
export const NAMESPACE_ACCESS_NAME = "kubespaces-namespace-access";

/** Renders the RoleBinding; only for a spec with `namespaceAccess`. */
export function renderNamespaceAccess(spec: TenantSpec): Manifest {
  const access = spec.namespaceAccess;
  if (!access) throw new Error(`kubespaces: tenant ${spec.name} has no namespaceAccess to render`);
  const { kind, name, namespace } = access.subject;
  return {
    ...ROLE_BINDING_TYPE,
    metadata: tenantMetadata(spec, NAMESPACE_ACCESS_NAME),
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: access.clusterRole },
    subjects: [
      kind === "ServiceAccount" ? { kind, name, namespace } : { kind, name, apiGroup: "rbac.authorization.k8s.io" },
    ],
  };
}
