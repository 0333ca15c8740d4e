/**
 * The status of a Tenant custom resource, as `kubespaces server` writes it through the status
 * subresource: the service's status (`tenants/tenantObject.ts`, `TenantStatus`), plus where the
 * tenant's kubeconfig is kept and the approval gate's plan. One zod schema gives both the CRD's
 * status schema and the type the reconciler writes; a unit test checks that every status the
 * service computes fits it.
 */
import { z } from "zod";
import { TENANT_PHASES } from "../tenants/tenantObject";
import { HELD_PHASES } from "../contracts/tenantResourceNames";

const generation = () => z.int().nonnegative();
const count = (what: string) => z.int().nonnegative().describe(`How many resources the change ${what}.`);

/** metav1.Condition's pattern of a type: an optional DNS-subdomain prefix and `/`, then a name. */
const CONDITION_TYPE =
  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$";

/** A standard condition (metav1.Condition's fields and limits). */
const condition = z
  .strictObject({
    type: z.string().max(316).regex(new RegExp(CONDITION_TYPE)).describe("The condition's type, CamelCase: `Ready`."),
    status: z.enum(["True", "False", "Unknown"]).describe("Whether the condition holds: True, False or Unknown."),
    reason: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/)
      .describe("Why, in one CamelCase word for machines: Provisioned, InvalidRequest, QuotaFailed, ..."),
    message: z.string().max(32768).describe("What happened, for people, and what to do when it failed."),
    // Optional, unlike metav1.Condition's: the service gives none before the first run.
    lastTransitionTime: z
      .string()
      .meta({ format: "date-time" })
      .optional()
      .describe("When the condition last changed (RFC 3339)."),
    observedGeneration: generation().optional().describe("The generation of the request the condition speaks of."),
  })
  .describe("A condition of the tenant.");

/** One step of the approval gate's plan (`tenants/tenantObject.ts`, `ResourceStep`). */
const planStep = z
  .strictObject({
    op: z.string().describe("The step: create, update, replace, delete, ..."),
    type: z.string().describe("The resource's Pulumi type token."),
    name: z.string().describe("The resource's name."),
    diffs: z.array(z.string()).describe("The changed input keys, for updates."),
  })
  .describe("A change the plan makes to one resource of the tenant.");

/** What a preview says a change would do (`tenants/tenantPlan.ts`, `ChangePlan`): the API's preview answers with it. */
export const changePlanSchema = z
  .strictObject({
    creates: count("creates"),
    updates: count("updates"),
    replaces: count("replaces"),
    deletes: count("deletes"),
    steps: z.array(planStep).describe("Each step that changes something, with the changed fields."),
  })
  .describe("What a preview says the change would do: the steps that change something, counted by kind.");

/** What a preview of a changed Tenant would do, held for an admin's approval or shown for a preview-only Tenant. */
const plan = changePlanSchema
  .extend({
    generation: generation().describe(
      "The generation the plan was made for; an admin approves it by annotating the Tenant with it and with specSha256.",
    ),
    specSha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .describe(
        "The SHA-256 of the spec the plan was made for (compact JSON, keys sorted); an admin approves the plan by annotating the Tenant with it and with generation.",
      ),
  })
  .describe(
    "The planned steps of the spec's change, while it is held: for an admin's approval (AwaitingApproval), or because the Tenant asks for a preview only (Previewed).",
  );

/** One snapshot of the tenant, as the status lists it. */
const snapshotEntry = z
  .strictObject({
    name: z.string().describe("The snapshot's name: what `kubespaces tenant restore --from` names."),
    takenAt: z.string().meta({ format: "date-time" }).describe("When vCluster finished it (RFC 3339)."),
    url: z.string().describe("Where it is kept (`s3://bucket/key`)."),
  })
  .describe("A snapshot of the tenant's virtual cluster.");

/** The status of a Tenant custom resource. */
export const tenantResourceStatusSchema = z
  .strictObject({
    phase: z
      .enum([...TENANT_PHASES, ...HELD_PHASES])
      .describe(
        "Pending, Provisioning, Ready, Sleeping, Failed, Deleting; AwaitingApproval when a change waits for an admin, Previewed when the Tenant asks for a preview only.",
      ),
    conditions: z
      .array(condition)
      .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["type"] })
      .describe("Standard conditions: `Ready`, with its reason."),
    message: z.string().describe("The Ready condition's message, repeated for people and tables."),
    apiServerUrl: z.string().optional().describe("The virtual cluster's API server URL, once it was provisioned."),
    appsDomain: z.string().optional().describe("The domain of the tenant's apps, when it is exposed."),
    namespace: z.string().optional().describe("The tenant's host namespace, once it was provisioned."),
    kubeconfigSecretRef: z
      .strictObject({
        name: z.string().describe("The Secret's name."),
        namespace: z.string().describe("The Secret's namespace."),
        key: z.string().describe("The key that holds the kubeconfig."),
      })
      .optional()
      .describe("The Secret that holds the tenant's kubeconfig, once it was provisioned."),
    kubeconfigChangedAt: z
      .string()
      .meta({ format: "date-time" })
      .optional()
      .describe(
        "When the kubeconfig in that Secret last changed after it was first written (a new endpoint or certificate): a copy from before no longer works. Absent while it never changed.",
      ),
    observedGeneration: generation()
      .optional()
      .describe("The generation of the request the last finished run provisioned."),
    platformRevision: z
      .string()
      .optional()
      .describe("The PlatformRevision whose policy the tenant runs with; none: the server configuration's `platform`."),
    plan: plan.optional(),
    expiry: z
      .strictObject({
        generation: generation().describe("The generation whose request set it: the one that runs."),
        expiresAt: z
          .string()
          .meta({ format: "date-time" })
          .optional()
          .describe("When the tenant is deleted (RFC 3339); absent: it does not expire."),
      })
      .optional()
      .describe(
        "The expiry in force: the running generation's `spec.expiresAt`. A newer spec's expiry takes over only once that generation runs, so a change that is held or refused leaves this one standing. Absent before any generation ran.",
      ),
    snapshots: z
      .array(snapshotEntry)
      .optional()
      .describe("The tenant's snapshots the server took, oldest first (a restore names one)."),
    snapshotRequest: z
      .string()
      .optional()
      .describe("The value of the `kubespaces.io/snapshot` annotation the server served last (taken or failed)."),
    restoredFrom: z
      .string()
      .optional()
      .describe(
        "The value of the `kubespaces.io/restore-from` annotation the server served last (restored or failed).",
      ),
  })
  .describe("What the server knows of the tenant now.");

/** The status of a Tenant custom resource. */
export type TenantResourceStatus = z.output<typeof tenantResourceStatusSchema>;
