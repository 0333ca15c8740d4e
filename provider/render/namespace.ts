/** The tenant's host namespace: labelled for isolation and pod security, annotated with the owner. */
import { OWNER_ANNOTATION } from "../model/names";
import type { TenantSpec } from "../model/tenantSpec";
import { tenantLabels, type Manifest, type TypeMeta } from "./manifest";

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
        "pod-security.kubernetes.io/enforce": level,
        "pod-security.kubernetes.io/warn": level,
        "pod-security.kubernetes.io/audit": level,
      },
      annotations: { [OWNER_ANNOTATION]: spec.owner },
    },
  };
}
