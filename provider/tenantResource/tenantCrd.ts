/**
 * The `tenants.kubespaces.io` CustomResourceDefinition: cluster-scoped (a tenant owns a host
 * namespace, so it cannot live in one), with a status subresource and kubectl's columns. Its spec
 * schema is the team's request, generated from the zod schema every door checks
 * (`model/tenantRequestSchema.ts`); its status schema is the server's (`tenantResourceStatus.ts`).
 * The API server's structural schema refuses what the request's types refuse and, under strict
 * field validation (kubectl's default), any field the request does not have; CEL rules refuse a
 * name that is not a DNS-1123 label and what the schema parts register (model/apiServerRules.ts:
 * quantities, blank text). The rules that need the platform's policy (its ceilings, the overrides
 * allowlist, the namespace's length with its prefix) stay the server's to check, and it reports
 * them in the status.
 */
import { celLiteral } from "../model/apiServerRules";
import { DNS_LABEL, DNS_LABEL_GRAMMAR, DNS_LABEL_MAX_LENGTH, DNS_LABEL_TOO_LONG } from "../model/schemaParts";
import { tenantRequestSchema } from "../model/tenantRequestSchema";
import { clusterCrd } from "./clusterCrd";
import type { KubeObject } from "./kubeObject";
import { structuralSchemaOf, type StructuralSchema } from "./structuralSchema";
import { TENANT_CRD_NAME, TENANT_KIND, TENANT_PLURAL, TENANT_SINGULAR } from "../contracts/tenantResourceNames";
import { tenantResourceStatusSchema } from "./tenantResourceStatus";

/** The schema of a whole Tenant object: apiVersion, kind, metadata, the request as spec, and the status. */
export function tenantObjectSchema(): StructuralSchema {
  return {
    type: "object",
    description: "A team's virtual cluster on the host: its request (spec) and what the server made of it (status).",
    properties: {
      apiVersion: { type: "string", description: "`kubespaces.io/v1alpha1`." },
      kind: { type: "string", description: "`Tenant`." },
      // Only rules on name and generateName are allowed here: the API server owns the rest of metadata.
      metadata: { type: "object", properties: { name: { type: "string", "x-kubernetes-validations": NAME_RULES } } },
      spec: structuralSchemaOf(tenantRequestSchema, "input"),
      status: structuralSchemaOf(tenantResourceStatusSchema, "output"),
    },
    required: ["spec"],
  };
}

/**
 * A Tenant's name is a DNS-1123 label, the rule every other door holds it to (model/schemaParts.ts):
 * the API server alone would take a subdomain such as `team.atlas`, which names no namespace. CEL
 * rules rather than `pattern`, so that the answer is the other doors' message, not the expression.
 */
const NAME_RULES = [
  { rule: `size(self) <= ${DNS_LABEL_MAX_LENGTH}`, message: DNS_LABEL_TOO_LONG },
  { rule: `self.matches(${celLiteral(DNS_LABEL.source)})`, message: DNS_LABEL_GRAMMAR },
];

/** The Tenant CRD. */
export function tenantCrd(): KubeObject {
  return clusterCrd({
    name: TENANT_CRD_NAME,
    kind: TENANT_KIND,
    plural: TENANT_PLURAL,
    singular: TENANT_SINGULAR,
    columns: [
      { name: "Owner", type: "string", jsonPath: ".spec.owner" },
      { name: "Phase", type: "string", jsonPath: ".status.phase" },
      { name: "API", type: "string", jsonPath: ".status.apiServerUrl" },
      { name: "Expires", type: "string", jsonPath: ".spec.expiresAt" },
    ],
    schema: tenantObjectSchema(),
  });
}
