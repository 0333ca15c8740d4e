/**
 * The gates a generation meets before the provisioning stage brings it up, in the order they are
 * asked: the Tenant's own ask for a preview only, then the platform's approval. A gate holds a
 * generation that is not running yet; the generation that runs (Ready or Sleeping at it) already
 * passed them. Only the provisioning stage asks them (layering.test.ts keeps it so), so no restore,
 * rollout or later stage can bring up what a gate holds.
 */
import {
  AWAITING_APPROVAL_PHASE,
  type HeldPhase,
  PREVIEW_ONLY_ANNOTATION,
  PREVIEWED_PHASE,
} from "../../../contracts/tenantResourceNames";
import { planSummary } from "../../../tenants/tenantPlan";
import type { TenantPlan, TenantResource } from "../../tenantResourcePort";
import { approvalCommand, isApproved } from "../tenantApproval";
import { isProvisioned } from "./stageContext";

/** What holds a Tenant's change with its plan in the status, and what its status and Event say. */
export interface HoldingGate {
  /** The phase (and the Ready condition's reason, and the Event's) while it holds. */
  readonly phase: HeldPhase;
  /** The status message: the plan in a few words, and what lets the change go on. */
  readonly message: (name: string, plan: TenantPlan) => string;
  /** The Event's note. */
  readonly note: (plan: TenantPlan) => string;
}

/** The Tenant's own ask for a preview only (PREVIEW_ONLY_ANNOTATION): its writer asked for no change yet. */
const PREVIEW_ONLY_GATE: HoldingGate = {
  phase: PREVIEWED_PHASE,
  message: (_name, plan) =>
    `generation ${plan.generation} is previewed only (${planSummary(plan)}); nothing is provisioned until the annotation ${PREVIEW_ONLY_ANNOTATION} goes`,
  note: (plan) => `generation ${plan.generation} previewed only (${planSummary(plan)})`,
};

/** The approval gate: the platform requires an admin's approval of each generation and spec. */
const APPROVAL_GATE: HoldingGate = {
  phase: AWAITING_APPROVAL_PHASE,
  message: (name, plan) =>
    `generation ${plan.generation} waits for approval (${planSummary(plan)}): an admin approves it with \`${approvalCommand(name, plan.generation, plan.specSha256!)}\``,
  note: (plan) => `generation ${plan.generation} waits for an admin's approval (${planSummary(plan)})`,
};

/** The gate that holds the tenant's current generation, if one does. */
export function holdingGate(tenant: TenantResource, requireApproval: boolean): HoldingGate | undefined {
  if (isProvisioned(tenant)) return undefined;
  if (tenant.metadata.annotations?.[PREVIEW_ONLY_ANNOTATION] === "true") return PREVIEW_ONLY_GATE;
  if (requireApproval && !isApproved(tenant)) return APPROVAL_GATE;
  return undefined;
}
