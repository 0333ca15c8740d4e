/**
 * schema.json, built from the zod definitions of the Tenant's inputs and outputs and of the
 * TenantReadiness resource, so that every language's SDK documents and accepts what the code does.
 */
import { z } from "zod";
import { readinessInputsSchema, readinessResultSchema } from "../readiness/readinessSchema";
import { tenantArgsSchema } from "../spec/tenantArgsSchema";
import { leftoverInputsSchema } from "../teardown/cleanupSchema";
import { tenantOutputsSchema } from "../spec/tenantOutputsSchema";
import { convertObject, type JsonSchemaNode } from "./fromJsonSchema";
import type { PulumiPackageSchema, PulumiResource, PulumiType } from "./pulumiSchemaTypes";

/** Type token of the Tenant component. */
export const TENANT_TOKEN = "kubespaces:index:Tenant";
/** Type token of the readiness custom resource the provider plugin serves. */
export const TENANT_READINESS_TOKEN = "kubespaces:index:TenantReadiness";
/** Type token of the cleanup custom resource the provider plugin serves. */
export const TENANT_CLEANUP_TOKEN = "kubespaces:index:TenantCleanup";

const jsonSchemaOf = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchemaNode;

/** The package schema at `version`. */
export function packageSchema(version: string): PulumiPackageSchema {
  const types: Record<string, PulumiType> = {};
  return {
    name: "kubespaces",
    displayName: "KubeSpaces",
    version,
    description: "A virtual cluster (vCluster) per team on a shared host cluster, fenced by quota, LimitRange, network isolation and pod security, exposed through Gateway API.",
    homepage: "https://github.com/kubespaces/pulumi-kubespaces",
    repository: "https://github.com/kubespaces/pulumi-kubespaces",
    license: "Apache-2.0",
    keywords: ["kubernetes", "vcluster", "multi-tenancy", "category/cloud", "kind/component"],
    resources: {
      [TENANT_TOKEN]: tenantResource(types),
      [TENANT_READINESS_TOKEN]: readinessResource(types),
      [TENANT_CLEANUP_TOKEN]: cleanupResource(types),
    },
    types,
    language: {
      nodejs: { packageName: "@kubespaces/pulumi", dependencies: { "@pulumi/pulumi": "^3.142.0" }, respectSchemaVersion: true },
      python: { packageName: "pulumi_kubespaces", requires: { pulumi: ">=3.142.0,<4.0.0" }, pyproject: { enabled: true }, respectSchemaVersion: true },
      go: { importBasePath: "github.com/kubespaces/pulumi-kubespaces/sdk/go/kubespaces", generateResourceContainerTypes: true, respectSchemaVersion: true },
      csharp: { rootNamespace: "KubeSpaces", packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
    },
  };
}

function tenantResource(types: Record<string, PulumiType>): PulumiResource {
  const inputs = convertObject(jsonSchemaOf(tenantArgsSchema, "input"), "Tenant", types);
  const outputs = convertObject(jsonSchemaOf(tenantOutputsSchema, "output"), "Tenant", types);
  return {
    description:
      "A team's virtual cluster: namespace, ResourceQuota, LimitRange, NetworkPolicy, optional Gateway API exposure, the vCluster Helm release, and its kubeconfig once it is ready. The tenant's name is the resource name.",
    isComponent: true,
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outputs.properties,
    required: outputs.required,
  };
}

function readinessResource(types: Record<string, PulumiType>): PulumiResource {
  const inputs = convertObject(jsonSchemaOf(readinessInputsSchema, "input"), "TenantReadiness", types);
  const outputs = convertObject(jsonSchemaOf(readinessInputsSchema.extend(readinessResultSchema.shape), "output"), "TenantReadiness", types);
  return {
    description: "Waits until a tenant's vCluster workload is ready and its kubeconfig Secret exists, and exposes the kubeconfig (secret). Created by Tenant.",
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: outputs.properties,
    required: outputs.required,
  };
}

function cleanupResource(types: Record<string, PulumiType>): PulumiResource {
  const inputs = convertObject(jsonSchemaOf(leftoverInputsSchema, "input"), "TenantCleanup", types);
  return {
    description:
      "Does nothing on create; on delete removes what a tenant's release and namespace leave behind (the apps certificate Secret, data PVCs, synced PriorityClasses). Created by Tenant.",
    inputProperties: inputs.properties,
    requiredInputs: inputs.required,
    properties: inputs.properties,
    required: inputs.required,
  };
}
