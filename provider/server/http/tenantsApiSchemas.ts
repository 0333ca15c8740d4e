/**
 * The bodies of `kubespaces server`'s API as zod schemas, written once: the create route validates
 * its body with `createTenantBodySchema`'s JSON Schema, the OpenAPI document
 * (openApiDocument.ts) is generated from all of them, and the unit tier checks the
 * API's answers against that document. The TypeScript types of tenantsApi.ts are checked against
 * them (test/unit/openApiDocument.test.ts).
 */
import { platformRevisionStatusSchema } from "../../tenantResource/platformRevisionStatus";
import { z } from "zod";
import { tenantRequestSchema } from "../../model/tenantRequestSchema";
import { changePlanSchema, tenantResourceStatusSchema } from "../../tenantResource/tenantResourceStatus";
import { TENANT_MANIFEST } from "../../contracts/tenantManifest";
import { API_ERROR_KINDS, PREVIEW_OPERATIONS } from "../../contracts/tenantsApi";

/** The body of `POST /api/v1/tenants`. */
export const createTenantBodySchema = z
  .strictObject({
    name: z.string().min(1).max(63).describe("The tenant's name (a DNS label); the component's rules check it."),
    spec: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The request, as in a Tenant manifest's spec, without `owner` (the caller is the owner). Checked by the Tenant component's rules, whose messages a refusal carries.",
      ),
  })
  .describe("A new tenant: its name and the team's request.");

/** The body of `POST /api/v1/tenants/{name}/preview`. */
export const previewTenantBodySchema = z
  .strictObject({
    operation: z
      .enum(PREVIEW_OPERATIONS)
      .describe("What to preview: `create` (a name no tenant has yet) or `delete` (one of the caller's tenants)."),
    spec: createTenantBodySchema.shape.spec.describe(
      "For a create only: the request, as CreateTenantBody's spec (without `owner`), checked by the same rules.",
    ),
  })
  .describe("What to preview: creating the tenant with a request, or deleting it.");

/** The preview answer. */
export const tenantPreviewSchema = z
  .strictObject({
    name: z.string().describe("The tenant's name."),
    operation: z.enum(PREVIEW_OPERATIONS).describe("The operation previewed."),
    plan: changePlanSchema,
  })
  .describe("What the operation would change; nothing was changed.");

/** A tenant as the API answers with it. */
export const tenantViewSchema = z
  .strictObject({
    apiVersion: z.literal(TENANT_MANIFEST.apiVersion),
    kind: z.literal(TENANT_MANIFEST.kind),
    metadata: z.strictObject({
      name: z.string().describe("The tenant's name."),
      generation: z.int().nonnegative().describe("Bumped each time the request changes."),
      creationTimestamp: z.string().optional().describe("When the request was first stored (RFC 3339)."),
      resourceVersion: z
        .string()
        .optional()
        .describe("The Tenant resource's resourceVersion: the id of the event that showed this state."),
      deletionTimestamp: z.string().optional().describe("Set once a deletion was asked for."),
    }),
    spec: tenantRequestSchema.describe("The team's request, as stored."),
    status: tenantResourceStatusSchema
      .omit({ kubeconfigSecretRef: true })
      .describe("The status the reconciler wrote (Pending before it wrote any)."),
  })
  .describe("A tenant: the Tenant resource's request and status, without where its secrets are kept.");

/** The list answer. */
export const tenantListSchema = z
  .strictObject({ items: z.array(tenantViewSchema).describe("The tenants, by name.") })
  .describe("The caller's tenants (every tenant, for an admin who asked for all).");

/** One update of a tenant's stack (tenants/ports.ts, StackUpdate). */
export const tenantUpdateSchema = z
  .strictObject({
    version: z.int().describe("Which update it is (1 the first): what a rollback names."),
    kind: z.string().describe("`update`, `refresh`, `destroy`, ... as the engine names it."),
    startedAt: z.string().describe("When it started (RFC 3339)."),
    endedAt: z.string().optional().describe("When it ended (RFC 3339), once it did."),
    result: z.string().describe("`succeeded`, `failed` or `in-progress`."),
    changes: z.record(z.string(), z.int()).describe("How many resources it changed, by kind of change."),
    record: z
      .strictObject({
        generation: z.int().describe("The generation of the request it ran."),
        platformRevision: z.string().optional().describe("The platform revision whose policy it ran with."),
        actor: z.string().describe("Who ran it: a person, or the server for the Tenant resource."),
      })
      .optional()
      .describe("What it recorded of itself; none for an update made before history was kept."),
    request: tenantRequestSchema.optional().describe("The request it ran: what a rollback to it puts back."),
  })
  .describe("One update of the tenant's stack.");

/** The answer of `GET caps`. */
export const ownerCapsAnswerSchema = z
  .strictObject({
    owner: z.string().describe("Whose tenants: the caller."),
    caps: z
      .strictObject({
        tenants: z.int().optional().describe("Most tenants one owner may have."),
        awake: z.int().optional().describe("Most of them awake at once."),
        cpu: z.string().optional().describe("Most CPU their quotas may sum to."),
        memory: z.string().optional().describe("Most memory their quotas may sum to."),
        storage: z.string().optional().describe("Most storage their quotas may sum to."),
      })
      .optional()
      .describe("The caps per owner the server is configured with; absent: none."),
    use: z
      .strictObject({
        tenants: z.int().describe("How many tenants the caller owns."),
        awake: z.int().describe("How many of them are awake (not asked to sleep)."),
        cpu: z.number().describe("Their quotas' CPU, summed, in cores."),
        memory: z.number().describe("Their quotas' memory, summed, in bytes."),
        storage: z.number().describe("Their quotas' storage, summed, in bytes."),
      })
      .describe("What the caller holds across their tenants."),
  })
  .describe("What the caller holds across their tenants, against the platform's caps per owner.");

/** The answer of `GET tenants/{name}/quota`. */
export const tenantQuotaSchema = z
  .strictObject({
    quota: z
      .strictObject({
        hard: z
          .record(z.string(), z.string())
          .describe("Each resource's ceiling, as the ResourceQuota's `status.hard`."),
        used: z.record(z.string(), z.string()).describe("What is used of each, as its `status.used`."),
      })
      .optional()
      .describe(
        "The ResourceQuota of the tenant's namespace; absent while the namespace has none (before it is provisioned).",
      ),
  })
  .describe("A tenant's host quota: what its pods and claims use against each ceiling.");

/** The answer of `GET tenants/{name}/history`. */
export const tenantHistorySchema = z
  .strictObject({ items: z.array(tenantUpdateSchema).describe("The updates, newest first.") })
  .describe("A tenant's updates.");

/** The body of `POST tenants/{name}/rollback`. */
export const rollbackTenantBodySchema = z
  .strictObject({
    version: z.int().min(1).describe("The stack version (from the history) whose request becomes the request again."),
  })
  .describe("Which earlier update's request to put back; it goes through the same preview and approval as any change.");

/** The body of `POST tenants/{name}/restore`. */
export const restoreTenantBodySchema = z
  .strictObject({
    snapshot: z
      .string()
      .min(1)
      .max(80)
      .describe("The snapshot's name, as a tenant's `status.snapshots` lists it; only the tenant's owner's are found."),
  })
  .describe(
    "Which snapshot to restore the tenant from: its control plane goes down, the snapshot is written back, and it comes up again.",
  );

/** The body of every error answer. */
export const apiErrorBodySchema = z
  .strictObject({
    error: z.strictObject({
      kind: z.enum(API_ERROR_KINDS).describe("The error's kind, for machines."),
      message: z.string().describe("For people: what was refused and why, naming the field and the rule."),
      problems: z.array(z.string()).optional().describe("Each problem of an invalid request, `field: rule`."),
    }),
  })
  .describe("An error.");

/** How the command signs in. */
export const signInInfoSchema = z
  .strictObject({
    issuer: z.string().describe("The OpenID Connect issuer URL."),
    clientId: z.string().describe("The public client the command uses (device flow)."),
    scopes: z.array(z.string()).describe("The scopes to ask for."),
  })
  .describe("The identity provider and the client the server trusts for the command's sign-in.");

/** Who the caller is. */
export const whoAmISchema = z
  .strictObject({
    owner: z.string().describe("The owner identity (the configured claim, email by default)."),
    groups: z.array(z.string()).describe("The caller's groups."),
    isAdmin: z.boolean().describe("Whether the caller is one of the platform's admins."),
  })
  .describe("Who the caller is, as the server sees them.");

/** A PlatformRevision as the API answers with it (contracts/tenantsApi.ts, PlatformRevisionBody). */
export const platformRevisionViewSchema = z
  .strictObject({
    name: z.string().describe("The revision's name."),
    createdAt: z.string().optional().describe("When it was made (RFC 3339)."),
    platform: z.record(z.string(), z.unknown()).describe("Its policy, as written (docs/policy.md)."),
    status: platformRevisionStatusSchema.optional(),
  })
  .describe("A version of the platform's policy and what the server found it would do to every tenant.");

/** The answer of `GET platformrevisions`. */
export const platformRevisionListSchema = z
  .strictObject({ items: z.array(platformRevisionViewSchema).describe("The revisions, newest first.") })
  .describe("Every PlatformRevision.");

/** Every schema of the API, by the name the OpenAPI document gives it under `components.schemas`. */
export const API_SCHEMAS = {
  CreateTenantBody: createTenantBodySchema,
  PreviewTenantBody: previewTenantBodySchema,
  TenantPreview: tenantPreviewSchema,
  Tenant: tenantViewSchema,
  TenantList: tenantListSchema,
  Error: apiErrorBodySchema,
  SignInInfo: signInInfoSchema,
  WhoAmI: whoAmISchema,
  TenantHistory: tenantHistorySchema,
  TenantQuota: tenantQuotaSchema,
  OwnerCaps: ownerCapsAnswerSchema,
  RollbackTenantBody: rollbackTenantBodySchema,
  RestoreTenantBody: restoreTenantBodySchema,
  PlatformRevision: platformRevisionViewSchema,
  PlatformRevisionList: platformRevisionListSchema,
} as const;

/** The name of one of them. */
export type ApiSchemaName = keyof typeof API_SCHEMAS;

/**
 * `schema` as a JSON Schema (draft 2020-12, OpenAPI 3.1's dialect), as a request is written
 * (`io: "input"`: a stored request's defaults are not filled in, so they are not required).
 */
export const jsonSchemaOf = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input" });
  return rest;
};
