/**
 * The tenant's host namespace: labelled for isolation, pod security and cost allocation (the
 * tenant, and the owner in a label's alphabet), annotated with the owner and with the owner id of
 * the stack that creates it.
 */
import { OWNER_ANNOTATION, OWNER_ID_ANNOTATION, OWNER_LABEL, ownerLabelValue } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import type { TypeMeta } from "../contracts/typeMeta";
import { tenantLabels, type Manifest, type ManifestMetadata } from "./manifest";

/** The kind of the tenant namespace. */
export const NAMESPACE_TYPE: TypeMeta = { apiVersion: "v1", kind: "Namespace" };

/** Renders the tenant namespace. */
export function renderNamespace(spec: TenantSpec): Manifest {
  const level = spec.isolation.podSecurity;
  return {
    ...NAMESPACE_TYPE,
    metadata: {
      name: spec.namespace,
      labels: {
        ...tenantLabels(spec),
        [OWNER_LABEL]: ownerLabelValue(spec.owner),
        "pod-security.kubernetes.io/enforce": level,
        "pod-security.kubernetes.io/warn": level,
        "pod-security.kubernetes.io/audit": level,
      },
      annotations: { [OWNER_ANNOTATION]: spec.owner },
    },
  };
}

/** Namespace metadata whose annotations may hold a value not known yet (`V`, an Output in the component). */
export type OwnedNamespaceMetadata<V> = Omit<ManifestMetadata, "annotations"> & {
  readonly annotations: Record<string, string | V>;
};

/**
 * The rendered namespace metadata with the stack's owner id (`kubespaces.io/owner-id`), by which the
 * host check later tells this stack's namespace from another's. The id is not in the spec: the host
 * check generates it when the tenant is created, so the component adds it to what was rendered.
 */
export function withOwnerId<V>(metadata: ManifestMetadata, ownerId: V): OwnedNamespaceMetadata<V> {
  return { ...metadata, annotations: { ...metadata.annotations, [OWNER_ID_ANNOTATION]: ownerId } };
}
