/** The tenant's host namespace: labelled for isolation and pod security, annotated with the owner. */
import { OWNER_ANNOTATION } from "../spec/names";
import type { TenantSpec } from "../spec/tenantSpec";
import { tenantLabels, type Manifest } from "./manifest";

/** Renders the tenant namespace. */
export function renderNamespace(spec: TenantSpec): Manifest {
  const level = spec.isolation.podSecurity;
  return {
    apiVersion: "v1",
    kind: "Namespace",
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
