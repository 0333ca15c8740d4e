/**
 * The `tenants.kubespaces.io` CustomResourceDefinition: cluster-scoped (a tenant owns a host
 * namespace, so it cannot live in one), with a status subresource and kubectl's columns. Its spec
 * schema is the team's request, generated from the zod schema every door checks
 * (`model/tenantRequestSchema.ts`); its status schema is the server's (`tenantResourceStatus.ts`).
 * The API server's structural schema refuses what the request's types refuse and, under strict
 * field validation (kubectl's default), any field the request does not have; CEL rules refuse a
 * name the component refuses (model/tenantName.ts, with the installation's namespace prefix) and
 * what the schema parts register (model/apiServerRules.ts: quantities, blank text). The rules that
 * need the platform's policy (its ceilings, the overrides allowlist) stay the server's to check,
 * and it reports them in the status.
 */
import { celLiteral } from "../model/apiServerRules";
import { DNS_LABEL, DNS_LABEL_GRAMMAR } from "../model/schemaParts";
import {
  namespaceRoom,
  namespaceTooLong,
  RELEASE_NAME_MAX_LENGTH,
  RELEASE_NAME_TOO_LONG,
  TENANT_NAME_START,
  TENANT_NAME_START_MESSAGE,
} from "../model/tenantName";
import type { ApiServerRule } from "../model/apiServerRules";
import { tenantRequestSchema } from "../model/tenantRequestSchema";
import { clusterCrd } from "./clusterCrd";
import type { KubeObject } from "./kubeObject";
import { structuralSchemaOf, type StructuralSchema } from "./structuralSchema";
import { TENANT_CRD_NAME, TENANT_KIND, TENANT_PLURAL, TENANT_SINGULAR } from "../contracts/tenantResourceNames";
import { tenantResourceStatusSchema } from "./tenantResourceStatus";

/**
 * The schema of a whole Tenant object: apiVersion, kind, metadata, the request as spec, and the
 * status; its name's rules are those of tenants whose namespaces are `<namespacePrefix><name>`.
 */
export function tenantObjectSchema(namespacePrefix: string): StructuralSchema {
  return {
    type: "object",
    description: "A team's virtual cluster on the host: its request (spec) and what the server made of it (status).",
    properties: {
      apiVersion: { type: "string", description: "`kubespaces.io/v1alpha1`." },
      kind: { type: "string", description: "`Tenant`." },
      // Only rules on name and generateName are allowed here: the API server owns the rest of metadata.
      metadata: {
        type: "object",
        properties: { name: { type: "string", "x-kubernetes-validations": nameRules(namespacePrefix) } },
      },
      spec: structuralSchemaOf(tenantRequestSchema, "input"),
      status: structuralSchemaOf(tenantResourceStatusSchema, "output"),
    },
    required: ["spec"],
  };
}

/**
 * A Tenant's name follows the component's rule (model/tenantName.ts), so that `kubectl apply`
 * refuses at once a name the server would only mark InvalidRequest: the API server alone would
 * take a subdomain such as `team.atlas`, which names no namespace, a name too long for its
 * namespace or its Helm release, or one that starts with a digit, which names no Service. The
 * namespace's limit is the prefix's, so the rules are made with the installation's. CEL rules
 * rather than `pattern` and `maxLength`, so that the answer is the other doors' message, not the
 * expression.
 */
function nameRules(namespacePrefix: string): ApiServerRule[] {
  const room = namespaceRoom(namespacePrefix);
  return [
    { rule: `size(self) <= ${RELEASE_NAME_MAX_LENGTH}`, message: RELEASE_NAME_TOO_LONG },
    // Only when the namespace leaves the name fewer characters than a release may have.
    ...(room < RELEASE_NAME_MAX_LENGTH
      ? [{ rule: `size(self) <= ${room}`, message: namespaceTooLong(namespacePrefix) }]
      : []),
    { rule: `self.matches(${celLiteral(DNS_LABEL.source)})`, message: DNS_LABEL_GRAMMAR },
    { rule: `self.matches(${celLiteral(TENANT_NAME_START.source)})`, message: TENANT_NAME_START_MESSAGE },
  ];
}

/** The Tenant CRD, for tenants whose namespaces are `<namespacePrefix><name>` (the installation's tenantNamespacePrefix). */
export function tenantCrd(namespacePrefix: string): KubeObject {
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
    schema: tenantObjectSchema(namespacePrefix),
  });
}
