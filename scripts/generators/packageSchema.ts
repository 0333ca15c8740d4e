/**
 * schema.json, built from the zod definitions of the Tenant's inputs and outputs and of the
 * TenantReadiness resource, so that every language's SDK documents and accepts what the code does.
 */
import { z } from "zod";
import { readinessInputsSchema, readinessResultSchema } from "../../provider/contracts/readinessSchema";
import {
  TENANT_NAME,
  PACKAGE_NAME,
  TENANT_CLEANUP_NAME,
  TENANT_CLEANUP_TOKEN,
  TENANT_HOST_CHECK_NAME,
  TENANT_HOST_CHECK_TOKEN,
  TENANT_READINESS_NAME,
  TENANT_READINESS_TOKEN,
  TENANT_TOKEN,
} from "../../provider/model/tokens";
import { tenantArgsSchema } from "../../provider/model/tenantArgsSchema";
import { cleanupInputsSchema } from "../../provider/contracts/cleanupSchema";
import { hostCheckInputsSchema, hostCheckResultSchema } from "../../provider/contracts/hostCheckSchema";
import { tenantOutputsSchema } from "../../provider/model/tenantOutputsSchema";
import { convertObject, type JsonSchemaNode } from "./fromJsonSchema";
import type { PulumiPackageSchema, PulumiResource, PulumiType } from "./pulumiSchemaTypes";

const jsonSchemaOf = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchemaNode;

/** The package schema at `version`. */
export function packageSchema(version: string): PulumiPackageSchema {
  const types: Record<string, PulumiType> = {};
  return {
    name: PACKAGE_NAME,
    displayName: "KubeSpaces",
    version,
    description:
      "A virtual cluster (vCluster) per team on a shared host cluster, fenced by quota, LimitRange, network isolation and pod security, exposed through Gateway API.",
    homepage: "https://github.com/kubespaces/pulumi-kubespaces",
    repository: "https://github.com/kubespaces/pulumi-kubespaces",
    license: "Apache-2.0",
    keywords: ["kubernetes", "vcluster", "multi-tenancy", "category/cloud", "kind/component"],
    resources: {
      [TENANT_TOKEN]: tenantResource(types),
      [TENANT_READINESS_TOKEN]: readinessResource(types),
      [TENANT_CLEANUP_TOKEN]: cleanupResource(types),
      [TENANT_HOST_CHECK_TOKEN]: hostCheckResource(types),
    },
    types,
    language: {
      nodejs: {
        packageName: "@kubespaces/pulumi",
        dependencies: { "@pulumi/pulumi": "^3.142.0" },
        respectSchemaVersion: true,
      },
      python: {
        packageName: "pulumi_kubespaces",
        requires: { pulumi: ">=3.142.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: "github.com/kubespaces/pulumi-kubespaces/sdk/go/kubespaces",
        generateResourceContainerTypes: true,
        respectSchemaVersion: true,
      },
      csharp: { rootNamespace: "KubeSpaces", packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
    },
  };
}

/** A resource of the schema from the zod definitions of its inputs and outputs. */
function resourceOf(
  types: Record<string, PulumiType>,
  name: string,
  description: string,
  inputs: z.ZodType,
  outputs: z.ZodType,
  isComponent = false,
): PulumiResource {
  const converted = {
    inputs: convertObject(jsonSchemaOf(inputs, "input"), name, types),
    outputs: convertObject(jsonSchemaOf(outputs, "output"), name, types),
  };
  return {
    description,
    ...(isComponent && { isComponent }),
    inputProperties: converted.inputs.properties,
    requiredInputs: converted.inputs.required,
    properties: converted.outputs.properties,
    required: converted.outputs.required,
  };
}

function tenantResource(types: Record<string, PulumiType>): PulumiResource {
  const description =
    "A team's virtual cluster: namespace, ResourceQuota, LimitRange, NetworkPolicy, optional Gateway API exposure, the vCluster Helm release, and its kubeconfig once it is ready. The tenant's name is the resource name.";
  return resourceOf(types, TENANT_NAME, description, tenantArgsSchema, tenantOutputsSchema, true);
}

function readinessResource(types: Record<string, PulumiType>): PulumiResource {
  const description =
    "Waits until a tenant's vCluster workload is ready and its kubeconfig Secret exists, and exposes the kubeconfig (secret). Created by Tenant.";
  return resourceOf(
    types,
    TENANT_READINESS_NAME,
    description,
    readinessInputsSchema,
    readinessInputsSchema.extend(readinessResultSchema.shape),
  );
}

function cleanupResource(types: Record<string, PulumiType>): PulumiResource {
  const description =
    "Does nothing on create; on delete removes what a tenant's release and namespace leave behind (the apps certificate Secret, data PVCs, synced PriorityClasses). Created by Tenant.";
  return resourceOf(types, TENANT_CLEANUP_NAME, description, cleanupInputsSchema, cleanupInputsSchema);
}

function hostCheckResource(types: Record<string, PulumiType>): PulumiResource {
  const description =
    "Before the tenant's namespace is created: refuses a namespace that exists and is not the tenant's, and records the host cluster's identity, which the readiness wait and the cleanup check. Created by Tenant.";
  return resourceOf(
    types,
    TENANT_HOST_CHECK_NAME,
    description,
    hostCheckInputsSchema,
    hostCheckInputsSchema.extend(hostCheckResultSchema.shape),
  );
}
