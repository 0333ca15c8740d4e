/**
 * A tenant's status from what a door knows: its stored request and its newest run. Pure, so that
 * every door reports the same phase, reason and message for the same facts.
 */
import { TENANT_MANIFEST } from "../contracts/tenantManifest";
import type { RunRecord, StoredRequest } from "./ports";
import type { ReadyCondition, ReadyReason, TenantObject, TenantPhase, TenantStatus } from "./tenantObject";

/** The phase, reason and message, before they are dressed as a status. */
interface Verdict {
  readonly phase: TenantPhase;
  readonly reason: ReadyReason;
  readonly message: string;
}

/** The Ready condition's status for each phase. */
const CONDITION_STATUS: Readonly<Record<TenantPhase, ReadyCondition["status"]>> = {
  Pending: "Unknown",
  Provisioning: "Unknown",
  Ready: "True",
  Sleeping: "False",
  Failed: "False",
  Deleting: "False",
};

/** Tenant `request.name` as data: its request, and its status from its newest run. */
export function tenantObject(request: StoredRequest, run: RunRecord | undefined): TenantObject {
  return {
    ...TENANT_MANIFEST,
    metadata: {
      name: request.name,
      generation: request.generation,
      ...(request.createdAt && { creationTimestamp: request.createdAt }),
    },
    spec: request.spec,
    status: tenantStatus(request, run),
  };
}

/** The status the request and its newest run add up to. */
export function tenantStatus(
  request: Pick<StoredRequest, "name" | "generation">,
  run: RunRecord | undefined,
): TenantStatus {
  const verdict = verdictOf(request.name, run);
  const outputs = lastOutputs(run);
  const condition: ReadyCondition = {
    type: "Ready",
    status: CONDITION_STATUS[verdict.phase],
    reason: verdict.reason,
    message: verdict.message,
    ...(run && { lastTransitionTime: transitionTime(run) }),
    observedGeneration: run?.generation ?? 0,
  };
  return {
    phase: verdict.phase,
    conditions: [condition],
    message: verdict.message,
    ...outputs,
    ...(run?.outcome && { observedGeneration: run.generation }),
  };
}

function verdictOf(name: string, run: RunRecord | undefined): Verdict {
  if (!run) return { phase: "Pending", reason: "Pending", message: "requested; not provisioned yet" };
  if (run.running) return liveVerdict(run);
  const outcome = run.outcome;
  if (!outcome || outcome.interrupted) {
    const how = run.operation === "delete" ? "delete it again to finish the teardown" : "create it again to resume";
    const phase = run.operation === "delete" ? "Deleting" : "Pending";
    return {
      phase,
      reason: run.operation === "delete" ? "Deleting" : "Interrupted",
      message: `the last ${run.operation} stopped before it finished; ${how}`,
    };
  }
  if (outcome.ok && run.operation === "create")
    return outcome.outputs?.phase === "Sleeping"
      ? { phase: "Sleeping", reason: "Sleeping", message: outcome.message }
      : { phase: "Ready", reason: "Provisioned", message: outcome.message };
  // A delete that finished, and a request stored again since: nothing provisioned it yet.
  if (outcome.ok) return { phase: "Pending", reason: "Pending", message: "requested; not provisioned yet" };
  if (run.operation === "delete")
    return {
      phase: "Deleting",
      reason: "Deleting",
      message: `the teardown failed: ${outcome.message}; delete it again to finish`,
    };
  return { phase: "Failed", reason: outcome.reason ?? "ProvisioningFailed", message: outcome.message };
}

/** A running run's verdict: its latest phase (a create starts Pending, a delete Deleting). */
function liveVerdict(run: RunRecord): Verdict {
  const phases = run.events.map((e) => e.phase).filter((p) => p !== undefined);
  const latest = phases[phases.length - 1];
  if (run.operation === "delete") return { phase: "Deleting", reason: "Deleting", message: "a teardown is running" };
  if (latest === "Provisioning")
    return { phase: "Provisioning", reason: "Provisioning", message: lastDetail(run) ?? "provisioning" };
  return { phase: "Pending", reason: "Pending", message: "a create is about to provision it" };
}

const lastDetail = (run: RunRecord): string | undefined => [...run.events].reverse().find((e) => e.detail)?.detail;

/** The endpoints the newest successful create recorded. */
function lastOutputs(run: RunRecord | undefined): Pick<TenantStatus, "apiServerUrl" | "namespace" | "appsDomain"> {
  const outputs = run?.outcome?.outputs;
  if (!outputs) return {};
  return {
    ...(outputs.apiServerUrl && { apiServerUrl: outputs.apiServerUrl }),
    ...(outputs.namespace && { namespace: outputs.namespace }),
    ...(outputs.appsDomain && { appsDomain: outputs.appsDomain }),
  };
}

/** The run's start: the phase it reports changed then, or later (the journal does not time each phase). */
const transitionTime = (run: RunRecord): string => run.startedAt;
