/**
 * The `tenantceilings.kubespaces.io` CustomResourceDefinition: cluster-scoped, holding the ceilings
 * a new tenant is held to as the server publishes them (server/admission/ceilingPublisher.ts), the
 * parameters of the ceiling admission policy (ceilingAdmission.ts). A custom resource, not a
 * ConfigMap: Kubernetes 1.36's API server stops its informer of a built-in parameter kind for good
 * once no binding names that kind for a moment (kubernetes/kubernetes#130887), and a policy bound
 * again then never finds its ConfigMap; custom kinds are not affected.
 */
import {
  TENANT_CEILINGS_CRD_NAME,
  TENANT_CEILINGS_KIND,
  TENANT_CEILINGS_PLURAL,
  TENANT_CEILINGS_SINGULAR,
} from "../contracts/tenantCeilingsNames";
import { clusterCrd } from "./clusterCrd";
import type { KubeObject } from "./kubeObject";
import type { StructuralSchema } from "./structuralSchema";

/** The schema of a whole TenantCeilings object. */
function tenantCeilingsObjectSchema(): StructuralSchema {
  return {
    type: "object",
    description: "The ceilings a new tenant is held to at admission, as kubespaces server publishes them.",
    properties: {
      apiVersion: { type: "string", description: "`kubespaces.io/v1alpha1`." },
      kind: { type: "string", description: "`TenantCeilings`." },
      metadata: { type: "object" },
      spec: {
        type: "object",
        description: "What the server publishes.",
        properties: {
          platformRevision: {
            type: "string",
            description:
              "The PlatformRevision the ceilings come from; empty for the server's configuration (the policy of tenants that run no revision).",
          },
          ceilings: {
            type: "object",
            description:
              "Each ceiling the policy sets (`platform.quota.ceilings`), by the request's field name: a quantity, or a count as decimal text.",
            additionalProperties: { type: "string" },
          },
        },
        required: ["ceilings"],
      },
    },
    required: ["spec"],
  };
}

/** The TenantCeilings CRD. */
export function tenantCeilingsCrd(): KubeObject {
  return clusterCrd({
    name: TENANT_CEILINGS_CRD_NAME,
    kind: TENANT_CEILINGS_KIND,
    plural: TENANT_CEILINGS_PLURAL,
    singular: TENANT_CEILINGS_SINGULAR,
    columns: [{ name: "Revision", type: "string", jsonPath: ".spec.platformRevision" }],
    schema: tenantCeilingsObjectSchema(),
  });
}
