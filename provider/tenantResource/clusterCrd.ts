/**
 * The shape every CRD of the package shares: cluster-scoped, in the Tenant's group, one version
 * (served and stored) with a status subresource, kubectl's columns and the object's schema.
 */
import { TENANT_GROUP, TENANT_VERSION } from "../contracts/tenantResourceNames";
import { PART_OF_KUBESPACES, type KubeObject } from "./kubeObject";
import type { StructuralSchema } from "./structuralSchema";

/** A column of `kubectl get`. */
export interface PrinterColumn {
  /** Its heading. */
  readonly name: string;
  /** `string`, `integer` or `date`. */
  readonly type: "string" | "integer" | "date";
  /** Where its value is. */
  readonly jsonPath: string;
}

/** What one CRD says of its kind. */
export interface ClusterCrdParts {
  /** The CRD's name, `<plural>.<group>`. */
  readonly name: string;
  /** The kind, `Tenant`. */
  readonly kind: string;
  /** Its plural, `tenants`. */
  readonly plural: string;
  /** Its singular, `tenant`. */
  readonly singular: string;
  /** kubectl's columns, without AGE, which is added last. */
  readonly columns: readonly PrinterColumn[];
  /** The schema of a whole object. */
  readonly schema: StructuralSchema;
}

/** The CRD of `parts`. */
export function clusterCrd(parts: ClusterCrdParts): KubeObject {
  const { kind, plural, singular } = parts;
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: parts.name, labels: PART_OF_KUBESPACES },
    spec: {
      group: TENANT_GROUP,
      scope: "Cluster",
      names: { kind, listKind: `${kind}List`, plural, singular },
      versions: [
        {
          name: TENANT_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          // Naming any column replaces kubectl's default AGE, so it is named again.
          additionalPrinterColumns: [
            ...parts.columns,
            { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
          ],
          schema: { openAPIV3Schema: parts.schema },
        },
      ],
    },
  };
}
