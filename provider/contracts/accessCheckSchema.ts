/**
 * Inputs of the TenantAccessCheck resource: one definition for its types, the render that fills
 * them, the operations that read them and schema.json.
 */
import { z } from "zod";
import { hostKubeconfigInput } from "./lifecycleInputs";

/** Whose access the check waits for, and where. */
export const accessCheckInputsSchema = z.object({
  tenantName: z.string().min(1).describe("Tenant name."),
  namespace: z.string().min(1).describe("Tenant namespace, where the access binding was just made."),
  roleBinding: z.string().min(1).describe("Name of the access binding (platform.namespaceAccess) in the namespace."),
  hostKubeconfig: hostKubeconfigInput(),
});

/** Inputs (and outputs) of the access check. */
export type AccessCheckInputs = z.infer<typeof accessCheckInputsSchema>;
