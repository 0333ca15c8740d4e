/**
 * schema.json, built from the zod definitions of the inputs and outputs of the Tenant and of the
 * lifecycle resources it creates, so that every language's SDK documents and accepts what the code does.
 */
import { z } from "zod";
import { readinessInputsSchema, readinessResultSchema } from "../../provider/contracts/readinessSchema";
import {
  TENANT_NAME,
  PACKAGE_NAME,
  TENANT_ACCESS_CHECK_NAME,
  TENANT_ACCESS_CHECK_TOKEN,
  TENANT_CLEANUP_NAME,
  TENANT_CLEANUP_TOKEN,
  TENANT_HOST_CHECK_NAME,
  TENANT_HOST_CHECK_TOKEN,
  TENANT_READINESS_NAME,
  TENANT_READINESS_TOKEN,
  TENANT_TOKEN,
} from "../../provider/model/tokens";
import { tenantArgsSchema } from "../../provider/model/tenantArgsSchema";
import { accessCheckInputsSchema } from "../../provider/contracts/accessCheckSchema";
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
    resources: Object.fromEntries(RESOURCES.map((resource) => [resource.token, resourceOf(types, resource)])),
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

/** A resource of the package, as its zod definitions describe it. */
interface ResourceDefinition {
  /** Its schema token. */
  readonly token: string;
  /** Its type name, which names the types nested in its inputs and outputs. */
  readonly name: string;
  /** What it is, for the SDKs' documentation. */
  readonly description: string;
  /** Its inputs. */
  readonly inputs: z.ZodType;
  /** Its outputs. */
  readonly outputs: z.ZodType;
  /** Whether it is a component (the Tenant) rather than a custom resource. */
  readonly isComponent?: boolean;
}

// The Tenant, and the lifecycle resources it creates, in schema.json's order.
const RESOURCES: readonly ResourceDefinition[] = [
  {
    token: TENANT_TOKEN,
    name: TENANT_NAME,
    description:
      "A team's virtual cluster: namespace, ResourceQuota, LimitRange, NetworkPolicy, optional Gateway API exposure, the vCluster Helm release, and its kubeconfig once it is ready. The tenant's name is the resource name.",
    inputs: tenantArgsSchema,
    outputs: tenantOutputsSchema,
    isComponent: true,
  },
  {
    token: TENANT_READINESS_TOKEN,
    name: TENANT_READINESS_NAME,
    description:
      "Waits until a tenant's vCluster workload is ready and its kubeconfig Secret exists, and exposes the kubeconfig (secret). Created by Tenant.",
    inputs: readinessInputsSchema,
    outputs: readinessInputsSchema.extend(readinessResultSchema.shape),
  },
  {
    token: TENANT_CLEANUP_TOKEN,
    name: TENANT_CLEANUP_NAME,
    description:
      "Does nothing on create; on delete removes what a tenant's release and namespace leave behind (the apps certificate Secret, data PVCs, synced PriorityClasses). Created by Tenant.",
    inputs: cleanupInputsSchema,
    outputs: cleanupInputsSchema,
  },
  {
    token: TENANT_HOST_CHECK_TOKEN,
    name: TENANT_HOST_CHECK_NAME,
    description:
      "Before the tenant's namespace is created: refuses a namespace that exists and is not the tenant's, and records the host cluster's identity, which the readiness wait and the cleanup check. Created by Tenant.",
    inputs: hostCheckInputsSchema,
    outputs: hostCheckInputsSchema.extend(hostCheckResultSchema.shape),
  },
  {
    token: TENANT_ACCESS_CHECK_TOKEN,
    name: TENANT_ACCESS_CHECK_NAME,
    description:
      "After the access binding of platform.namespaceAccess is made: waits until the API server lets the identity running the stack create in the tenant namespace, so that the objects made there next are not refused while the binding is not yet in force. Created by Tenant.",
    inputs: accessCheckInputsSchema,
    outputs: accessCheckInputsSchema,
  },
];

/** A resource of the schema from the zod definitions of its inputs and outputs. */
function resourceOf(
  types: Record<string, PulumiType>,
  { name, description, inputs, outputs, isComponent = false }: ResourceDefinition,
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
