/**
 * The status of a PlatformRevision, as `kubespaces server` writes it: the fleet preview, each
 * tenant's result (written by the replica that owns the tenant) and their sum. One zod schema gives
 * the CRD's status schema and the type the server writes.
 */
import { z } from "zod";
import type { PlatformRevisionBody } from "../contracts/tenantsApi";
import { changePlanSchema } from "./tenantResourceStatus";

/** How previewing a revision on the fleet stands. */
export const REVISION_PHASES = ["Previewing", "Previewed", "Invalid"] as const;

/** What a revision would do to one tenant. */
export const REVISION_OUTCOMES = ["Changes", "NoChanges", "Failed"] as const;

const count = (what: string) => z.int().nonnegative().describe(what);

/** One tenant's preview on the revision. */
export const revisionTenantSchema = z
  .strictObject({
    name: z.string().describe("The tenant."),
    generation: z.int().nonnegative().describe("The generation of the tenant's request that was previewed."),
    outcome: z
      .enum(REVISION_OUTCOMES)
      .describe("Changes (its plan changes something), NoChanges, or Failed (the reason says why)."),
    plan: changePlanSchema
      .optional()
      .describe("What the revision would change of the tenant, when it changes something."),
    reason: z
      .string()
      .optional()
      .describe("Why the preview failed: a request the revision's policy refuses, or the engine's error."),
    previewedAt: z.string().meta({ format: "date-time" }).describe("When it was previewed (RFC 3339)."),
  })
  .describe("What the revision would do to one tenant.");

/** The fleet preview's sum. */
const summary = z
  .strictObject({
    tenants: count("How many tenants there are."),
    previewed: count("How many of them were previewed on the revision at their current request."),
    changing: count("How many would change."),
    unchanged: count("How many would not change."),
    failed: count("How many previews failed."),
    creates: count("How many resources the revision would create, over every tenant."),
    updates: count("How many it would update in place."),
    replaces: count("How many it would replace."),
    deletes: count("How many it would delete."),
    fields: z
      .array(z.string())
      .describe("The changed fields, each as `<resource type> <field>`, over every tenant, sorted, each once."),
  })
  .describe("The fleet preview in numbers.");

/** The status of a PlatformRevision. */
export const platformRevisionStatusSchema = z
  .strictObject({
    phase: z
      .enum(REVISION_PHASES)
      .describe(
        "Previewing until every tenant has been previewed, then Previewed; Invalid when the policy is not one.",
      ),
    message: z.string().describe("How the preview stands, for people and tables."),
    summary: summary.optional(),
    tenants: z
      .array(revisionTenantSchema)
      .meta({ "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"] })
      .optional()
      .describe("Each tenant's preview on the revision, by name."),
  })
  .describe("What the server found the revision would do to the fleet.");

/** The status of a PlatformRevision. */
export type PlatformRevisionStatus = z.output<typeof platformRevisionStatusSchema>;
/** One tenant's preview on a revision. */
export type RevisionTenant = z.output<typeof revisionTenantSchema>;
/** The fleet preview's sum. */
export type RevisionSummary = NonNullable<PlatformRevisionStatus["summary"]>;
/** A PlatformRevision as the API answers with it (contracts/tenantsApi.ts). */
export type RevisionView = PlatformRevisionBody<PlatformRevisionStatus>;
