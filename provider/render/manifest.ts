/** The plain shape of a rendered Kubernetes object, and the metadata every tenant object shares. */
import type { TypeMeta } from "../contracts/typeMeta";
import { MANAGED_BY_LABEL, TENANT_LABEL } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";

/** A Kubernetes object as plain data. */
export interface Manifest extends TypeMeta {
  /** Name, namespace, labels and annotations. */
  readonly metadata: ManifestMetadata;
  /** The desired state, when the kind has one. */
  readonly spec?: Record<string, unknown>;
  /** The role a RoleBinding grants. */
  readonly roleRef?: { readonly apiGroup: string; readonly kind: string; readonly name: string };
  /** Whom a RoleBinding grants its role to. */
  readonly subjects?: readonly {
    readonly kind: string;
    readonly name: string;
    readonly namespace?: string;
    readonly apiGroup?: string;
  }[];
}

/** The metadata fields the component sets. */
export interface ManifestMetadata {
  /** Object name. */
  readonly name: string;
  /** Namespace, for namespaced kinds. */
  readonly namespace?: string;
  /** Labels; always carries `kubespaces.io/tenant`. */
  readonly labels: Record<string, string>;
  /** Annotations, when any. */
  readonly annotations?: Record<string, string>;
}

/** Labels of every object that belongs to the tenant. */
export function tenantLabels(spec: TenantSpec): Record<string, string> {
  return { [TENANT_LABEL]: spec.name, [MANAGED_BY_LABEL.key]: MANAGED_BY_LABEL.value };
}

/** Metadata of an object named `name` in `namespace`, labelled for the tenant. */
export function tenantMetadata(spec: TenantSpec, name: string, namespace: string = spec.namespace): ManifestMetadata {
  return { name, namespace, labels: tenantLabels(spec) };
}
