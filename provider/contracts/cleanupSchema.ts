/**
 * Inputs (and outputs) of the TenantCleanup resource: one definition for its types, the render
 * that fills them, the operations that read them and schema.json.
 */
import { z } from "zod";
import { namedType } from "../util/namedType";
import { hostKubeconfigInput } from "./lifecycleInputs";

/** Where a tenant's leftovers are. */
export const cleanupInputsSchema = z.object({
  tenantName: z.string().min(1).describe("Tenant name."),
  namespace: z.string().min(1).describe("Tenant namespace."),
  releaseName: z.string().min(1).describe("Helm release name of the vCluster."),
  certificateSecret: namedType(
    "CertificateSecretRef",
    "Secret of the apps certificate, when exposed; cert-manager does not delete it with the Certificate.",
    z
      .object({
        namespace: z.string().describe("Namespace of the Secret (the gateway namespace)."),
        name: z.string().describe("Secret name."),
      })
      .optional(),
  ),
  hostKubeconfig: hostKubeconfigInput(),
  hostUid: z
    .string()
    .optional()
    .describe("Identity of the host recorded when the tenant was created; the cleanup refuses another cluster."),
});

/** Where a tenant's leftovers are. */
export type CleanupInputs = z.infer<typeof cleanupInputsSchema>;
