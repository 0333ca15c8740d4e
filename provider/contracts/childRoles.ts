/**
 * The roles of a Tenant's children: what the render produces, the edge table orders and the
 * component registers, each child under the name `<tenant>-<role>`.
 */

/** The role of a Kubernetes object in a tenant; its Pulumi child is named `<tenant>-<role>`. */
export type ObjectRole =
  | "namespace"
  | "namespace-access"
  | "quota"
  | "limit-range"
  | "network-policy"
  | "control-plane-network-policy"
  | "api-reference-grant"
  | "api-route"
  | "apps-certificate"
  | "apps-listener-set";

/** The role of every child of a Tenant: its Kubernetes objects, the release and the lifecycle resources. */
export type ChildRole = "host-check" | ObjectRole | "access-check" | "cleanup" | "vcluster" | "readiness";

/**
 * The Kubernetes provider a Tenant creates for its host from `hostKubeconfig`: a child too, though
 * no row of the edge table (every Kubernetes child takes it as its provider instead).
 */
export const HOST_PROVIDER_ROLE = "host";

/** The Pulumi name of the child of tenant `tenant` in `role`: `<tenant>-<role>`, permanent once created. */
export const childName = (tenant: string, role: ChildRole | typeof HOST_PROVIDER_ROLE): string => `${tenant}-${role}`;
