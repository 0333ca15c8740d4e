/**
 * Inputs and outputs of the TenantReadiness resource: one definition for its TypeScript types, the
 * render that fills them, the operations that read them, the provider plugin's input check and
 * schema.json.
 */
import { z } from "zod";
import { hostKubeconfigInput } from "./lifecycleInputs";

/** Inputs of the readiness resource. */
export const readinessInputsSchema = z.object({
  tenantName: z.string().min(1).describe("Tenant name; names the kubeconfig's cluster, context and user."),
  namespace: z.string().min(1).describe("Namespace of the vCluster release."),
  releaseName: z.string().min(1).describe("Helm release name of the vCluster."),
  serverUrl: z.string().min(1).describe("Server URL written into the handed-back kubeconfig."),
  timeoutSeconds: z.number().positive().describe("Seconds to wait before failing."),
  hostKubeconfig: hostKubeconfigInput(),
  asleep: z
    .boolean()
    .optional()
    .describe(
      "Whether the tenant sleeps: the wait then ends its synced pods and waits for the control plane to be gone, instead of ready.",
    ),
  releaseRevision: z
    .string()
    .optional()
    .describe("Changes whenever the Helm release changes, so that the wait runs again."),
  hostUid: z
    .string()
    .optional()
    .describe(
      "Identity of the host recorded when the tenant was created; the wait and a delete refuse another cluster.",
    ),
});

/** Outputs of the readiness resource, besides its inputs. */
export const readinessResultSchema = z.object({
  kubeconfig: z.string().meta({ secret: true }).describe("The tenant's kubeconfig, pointed at its API URL."),
  readyAt: z.string().describe("When the wait last saw the virtual cluster ready (ISO 8601)."),
  waitedMs: z.number().describe("ms the last wait took."),
  apiRequests: z.number().describe("API requests the last wait made."),
});

/** Inputs of the readiness resource. */
export type ReadinessInputs = z.infer<typeof readinessInputsSchema>;
/** What the wait adds to the inputs. */
export type ReadinessResult = z.infer<typeof readinessResultSchema>;
/** Outputs of the readiness resource: its inputs and the wait's result. */
export type ReadinessOutputs = ReadinessInputs & ReadinessResult;
