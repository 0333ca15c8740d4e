/**
 * The shapes of a Tenant's outputs, mirroring the KubeSpaces operator's Tenant status: one
 * definition for the TypeScript types, schema.json and docs/reference.md.
 */
import { z } from "zod";
import { namedType } from "../util/namedType";

/** Where the vCluster keeps the tenant's kubeconfig on the host. */
export const kubeconfigSecretRefSchema = namedType(
  "KubeconfigSecretRef",
  "Where the vCluster keeps the tenant's kubeconfig on the host.",
  z.object({
    namespace: z.string().describe("Namespace of the Secret (the tenant namespace)."),
    name: z.string().describe("Secret name, `vc-<release>`."),
    key: z.string().describe("Key of the kubeconfig in the Secret."),
  }),
);

/** A status condition, as Kubernetes objects carry them. */
export const tenantConditionSchema = namedType(
  "TenantCondition",
  "A status condition, as Kubernetes objects carry them.",
  z.object({
    type: z.string().describe("Condition type; the component reports `Ready`."),
    status: z.enum(["True", "False", "Unknown"]).describe("`True`, `False` or `Unknown`."),
    reason: z.string().describe("Machine-readable reason, e.g. `Provisioned`."),
    message: z.string().describe("Human-readable detail."),
    lastTransitionTime: z.string().describe("When the condition last changed (ISO 8601)."),
  }),
);

/** The tenant's status. */
export const tenantStatusSchema = namedType(
  "TenantStatus",
  "Phase, Ready condition and message, as the KubeSpaces operator reports them. After a successful `pulumi up` it is Ready (or Sleeping, when asked to sleep): a tenant that does not become ready fails the update instead.",
  z.object({
    phase: z
      .enum(["Ready", "Sleeping"])
      .describe(
        "Lifecycle phase, as the operator names it: `Ready`, or `Sleeping` for a tenant whose request sets `sleep`. One that does not become ready (or asleep) fails the update instead, so the operator's earlier phases (Pending, Provisioning) and Failed are never an output.",
      ),
    conditions: z.array(tenantConditionSchema).describe("Conditions; includes `Ready`."),
    message: z.string().describe("Summary for people."),
  }),
);

/** Every output of a Tenant. */
export const tenantOutputsSchema = z.object({
  namespace: z.string().describe("Host namespace of the tenant."),
  apiServerUrl: z
    .string()
    .describe(
      "URL of the tenant's API server: `https://<name>.api.<baseDomain>:443` when exposed, else the in-cluster Service URL `https://<name>.<namespace>.svc:443`.",
    ),
  appsDomain: z.string().optional().describe("Apps are published at `*.<appsDomain>`; absent when not exposed."),
  kubeconfig: z
    .string()
    .meta({ secret: true })
    .describe(
      "Kubeconfig of the virtual cluster (cluster-admin inside it), its server set to `apiServerUrl`; cluster, context and user named after the tenant. Secret.",
    ),
  kubeconfigSecretRef: kubeconfigSecretRefSchema,
  status: tenantStatusSchema,
});

/** Every output of a Tenant, as plain values. */
export type TenantOutputs = z.output<typeof tenantOutputsSchema>;

/** Names of the Tenant's outputs, in schema order. */
export const TENANT_OUTPUT_NAMES = Object.keys(tenantOutputsSchema.shape) as (keyof TenantOutputs)[];
