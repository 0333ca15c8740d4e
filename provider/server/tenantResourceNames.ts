/** The Tenant resource's names, each once: its API group and version, and the server's marks on it. */

/** The API group. */
export const TENANT_GROUP = "kubespaces.io";
/** The served version. */
export const TENANT_VERSION = "v1alpha1";
/** The resource's plural, as in its URL. */
export const TENANT_PLURAL = "tenants";
/** The finalizer that holds a deleted Tenant until its teardown has removed everything. */
export const TENANT_FINALIZER = "kubespaces.io/finalizer";
/** The annotation an admin sets to the generation it approves, when the platform requires approval. */
export const APPROVED_GENERATION_ANNOTATION = "kubespaces.io/approved-generation";
/** The label that marks what the server made for a tenant (the kubeconfig Secret), naming the tenant. */
export const TENANT_LABEL = "kubespaces.io/tenant";
/** The label value that marks an object as made by the server. */
export const MANAGED_BY = { label: "app.kubernetes.io/managed-by", value: "kubespaces-server" } as const;
