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

/** How rolling a revision out stands. */
export const ROLLOUT_PHASES = ["Waiting", "RollingOut", "Halted", "RolledOut", "Aborted", "Superseded"] as const;

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
    appliedGeneration: z
      .int()
      .nonnegative()
      .optional()
      .describe("The generation of the request the tenant was brought up with on the revision, once it was."),
    appliedAt: z
      .string()
      .meta({ format: "date-time" })
      .optional()
      .describe("When the tenant was brought up on the revision (RFC 3339)."),
    applyFailure: z
      .strictObject({
        reason: z.string().describe("Why bringing the tenant up on the revision failed."),
        at: z.string().meta({ format: "date-time" }).describe("When it failed (RFC 3339)."),
      })
      .optional()
      .describe("The last failure to bring the tenant up on the revision, until it is brought up."),
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

/** How rolling the revision out stands: worked out again by every replica that writes the status. */
const rollout = z
  .strictObject({
    phase: z
      .enum(ROLLOUT_PHASES)
      .describe(
        "Waiting (for the preview, or for an admin's approval), RollingOut (wave by wave), Halted (a tenant of an open wave failed: see halt), RolledOut (every tenant runs it), Aborted (by an admin), or Superseded (a newer revision was made).",
      ),
    wave: z.int().min(1).optional().describe("The open wave (1 is the first), while it rolls out or is halted."),
    waves: z.int().min(1).describe("How many waves the revision is rolled out in (spec.waves)."),
    applied: count("How many tenants run the revision."),
    halt: z
      .strictObject({
        tenant: z.string().describe("The tenant whose failure halted the rollout."),
        reason: z.string().describe("Why it failed."),
        at: z
          .string()
          .meta({ format: "date-time" })
          .describe("When the rollout halted: the value an admin resumes it with."),
      })
      .optional()
      .describe("Why the rollout is halted; it stays until an admin resumes it."),
    resumedFrom: z
      .string()
      .meta({ format: "date-time" })
      .optional()
      .describe("The halt an admin last resumed: the failures to bring tenants up before it are tried again."),
    message: z.string().describe("How the rollout stands, and what an admin may do next."),
  })
  .describe("How rolling the revision out to the fleet stands.");

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
    rollout: rollout.optional(),
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
/** How rolling a revision out stands. */
export type RevisionRollout = NonNullable<PlatformRevisionStatus["rollout"]>;
/** The fleet preview's sum. */
export type RevisionSummary = NonNullable<PlatformRevisionStatus["summary"]>;
/** A PlatformRevision as the API answers with it (contracts/tenantsApi.ts). */
export type RevisionView = PlatformRevisionBody<PlatformRevisionStatus>;
