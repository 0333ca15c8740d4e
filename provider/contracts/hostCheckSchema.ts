/**
 * Inputs and outputs of the TenantHostCheck resource: one definition for its types, the render
 * that fills them, the operations that read them and schema.json.
 */
import { z } from "zod";
import { hostKubeconfigInput } from "./lifecycleInputs";

/** What the host check looks at. */
export const hostCheckInputsSchema = z.object({
  tenantName: z
    .string()
    .min(1)
    .describe("Tenant name; the namespace must carry it in label `kubespaces.io/tenant` if it exists."),
  namespace: z.string().min(1).describe("Tenant namespace."),
  hostKubeconfig: hostKubeconfigInput(),
  allowNamespaceMove: z
    .boolean()
    .optional()
    .describe(
      "Let an update move the tenant to another namespace; otherwise such an update stops before the old namespace (and what it holds) is lost.",
    ),
});

/** What the host check records. */
export const hostCheckResultSchema = z.object({
  hostUid: z
    .string()
    .describe("UID of the host cluster's kube-system namespace when the tenant was created: its identity."),
  ownerId: z
    .string()
    .describe(
      "Random id of the stack that created the tenant, generated when the check was created and kept in that stack's state; the namespace carries it in annotation `kubespaces.io/owner-id`, and a namespace with another id (or none) is refused.",
    ),
});

/** Inputs of the host check. */
export type HostCheckInputs = z.infer<typeof hostCheckInputsSchema>;
/** What the host check adds to its inputs. */
export type HostCheckResult = z.infer<typeof hostCheckResultSchema>;
/** Outputs of the host check: its inputs and the recorded identity. */
export type HostCheckOutputs = HostCheckInputs & HostCheckResult;
/**
 * Outputs as a stack's state holds them: a tenant created before owner ids has none recorded
 * (and one created before host identities has no hostUid either, which assertSameHost allows).
 */
export type StoredHostCheck = Omit<HostCheckOutputs, "ownerId"> & Partial<Pick<HostCheckResult, "ownerId">>;
