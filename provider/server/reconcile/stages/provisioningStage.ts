/**
 * The provisioning stage: the one place a reconcile brings a tenant's stack up, and the one place
 * that asks the gates (gates.ts). It brings a Tenant to its spec (or holds its generation at a
 * gate, previewed, with the plan in its status), brings a running generation up on a platform
 * revision whose rollout reached it, and puts back the request a stack last ran (a restore's bring
 * down and up). A run always uses the spec read here, never one read again later, and writes each
 * phase as it moves and the kubeconfig once Ready.
 */
import { countedRequests, refuseOverCaps } from "../../../tenants/ownerCaps";
import type { RunningRequest } from "../../../tenants/ports";
import type { ResourceStep } from "../../../tenants/tenantObject";
import { planOf } from "../../../tenants/tenantPlan";
import { RequestChangedError, RequestInvalidError } from "../../../tenants/tenantsErrors";
import type { PendingRevision } from "../../revisions/replicaFleet";
import type { SecretKeyRef, TenantPlan, TenantResource } from "../../tenantResourcePort";
import { isApproved, specSha256 } from "../tenantApproval";
import { holdingGate, type HoldingGate } from "./gates";
import {
  DONE,
  errorMessage,
  isProvisioned,
  noteOf,
  type ReconcileOptions,
  type ReconcileResult,
  type ResyncOutcome,
  type StackBringUp,
  type StageContext,
} from "./stageContext";
import { stepCounter, type TenantStatusWrites } from "./tenantStatusWrites";

/** The key of the Secret that holds a tenant's kubeconfig. */
export const KUBECONFIG_KEY = "config";

/** Where a tenant's kubeconfig Secret lives: in its own host namespace, which its teardown removes. */
export const kubeconfigSecretRef = (tenant: string, namespace: string): SecretKeyRef => ({
  name: `${tenant}-kubeconfig`,
  namespace,
  key: KUBECONFIG_KEY,
});

/** What a run brings up, and with which policy. */
interface Run {
  /** The revision whose policy it runs with; none: the server's own. */
  readonly revision?: PendingRevision;
  /** Whether it brings the tenant up on a revision being rolled out (its failure halts the rollout). */
  readonly applying?: boolean;
  /** Whether it brings the tenant up asleep whatever its request asks (a restore, before it writes the data back). */
  readonly asleep?: boolean;
  /** The request the stack last ran, put back instead of the spec (a restore's); none: the spec read. */
  readonly running?: RunningRequest;
}

/**
 * What a bring-up to the spec ended in: the queue's answer; `changed` when the spec changed under
 * it (nothing ran); `expired` when the gates let through a generation whose own expiry has passed
 * (nothing ran: the Tenant is to be deleted, as its writer asked).
 */
export type ProvisioningOutcome = ReconcileResult | "changed" | "expired";

/** The provisioning stage. */
export class ProvisioningStage {
  constructor(
    private readonly context: StageContext,
    private readonly statuses: TenantStatusWrites,
    private readonly bringUp: StackBringUp,
  ) {}

  /** Brings a Tenant that is not being deleted to its spec, or holds its generation at a gate. */
  async bringToSpec(tenant: TenantResource, options: ReconcileOptions): Promise<ProvisioningOutcome> {
    if (isProvisioned(tenant) && !options.resync) return DONE;
    const revision = this.context.config.fleet?.runningPolicy(tenant.status?.platformRevision);
    const gate = holdingGate(tenant, this.context.config.requireApproval);
    if (gate) return this.hold(tenant, gate, options, revision);
    if (!isProvisioned(tenant) && hasPassed(tenant.spec.expiresAt, this.context.now())) return "expired";
    if (!isProvisioned(tenant)) {
      const overCaps = await this.overCaps(tenant);
      if (overCaps) return this.statuses.failed(tenant, overCaps);
    }
    if (isProvisioned(tenant) && !(await this.drifted(tenant, options, revision))) return DONE;
    return this.run(tenant, options, { revision });
  }

  /**
   * The refusal of a new generation that would take its owner above a cap per owner, if it would:
   * admission cannot count the owner's other Tenants, so the server does, before anything runs.
   */
  private async overCaps(tenant: TenantResource): Promise<RequestInvalidError | undefined> {
    const { caps, policy = {} } = this.context.config;
    if (!caps) return undefined;
    const stored = countedRequests(await this.context.resources.list());
    // Never provisioned: no kubeconfig was ever written for it.
    const isNew = tenant.status?.kubeconfigSecretRef === undefined;
    try {
      refuseOverCaps(tenant.metadata.name, tenant.spec, stored, { caps, policy, isNew });
      return undefined;
    } catch (error) {
      if (error instanceof RequestInvalidError) return error;
      throw error;
    }
  }

  /** Brings the running generation up on `revision`, whose rollout reached it; a generation a gate holds is not brought up. */
  async bringUpOnRevision(tenant: TenantResource, options: ReconcileOptions, revision: PendingRevision): Promise<void> {
    if (holdingGate(tenant, this.context.config.requireApproval)) return;
    await this.run(tenant, options, { revision, applying: true });
  }

  /**
   * Puts back `running`, the request the stack last ran (asleep when asked), with the policy it
   * runs with. It asks no gate: what it brings up already passed them, and a newer spec is left
   * to bringToSpec's gates.
   */
  async putBack(
    tenant: TenantResource,
    running: RunningRequest,
    options: ReconcileOptions,
    asleep = false,
  ): Promise<ReconcileResult> {
    const revision = this.context.config.fleet?.runningPolicy(tenant.status?.platformRevision);
    const outcome = await this.run(tenant, options, { revision, asleep, running });
    return typeof outcome === "string" ? DONE : outcome;
  }

  /**
   * Brings the stack up with `run`'s request (the spec read here, checked at its generation, or the
   * request it last ran) and policy, writing each phase as it moves, and its kubeconfig once Ready.
   */
  private async run(tenant: TenantResource, options: ReconcileOptions, run: Run): Promise<ProvisioningOutcome> {
    const { name } = tenant.metadata;
    const generation = run.running?.generation ?? tenant.metadata.generation;
    // A resync of a Ready tenant keeps showing Ready while it runs: only its end is written. A
    // rollout's update is never quiet, even in a resync: what it changes is no drift put back.
    const quiet = options.resync && isProvisioned(tenant) && !run.applying && !run.running;
    const progress = quiet ? stepCounter() : this.statuses.progressWriter(tenant);
    await this.recordStart(tenant, quiet, run, generation);
    let deployed: string | undefined;
    const { config } = this.context;
    const operation = {
      onNote: noteOf(this.context, name),
      onEvent: progress.onEvent,
      signal: options.signal,
      refresh: options.resync,
      policy: run.revision?.policy,
      platformRevision: run.revision?.revision,
      asleep: run.asleep,
      onKubeconfig: (kubeconfig: string) => (deployed = kubeconfig),
    };
    try {
      if (run.running) await this.bringUp.putBack(name, run.running, config.actor, operation);
      else await this.bringUp.create(name, tenant.spec, config.actor, { ...operation, checkedGeneration: generation });
      await progress.settled();
      await this.recordReady(tenant, run, generation, deployed, quiet ? progress.count() : undefined);
      return DONE;
    } catch (error) {
      await progress.settled();
      // The spec changed after it was read here (nothing ran): the new one is reconciled from the
      // start, so it meets the gates. Each round needs another change of the spec.
      if (error instanceof RequestChangedError) return "changed";
      if (run.applying && run.revision)
        await config.fleet
          ?.recordApplyFailure(run.revision.revision, name, generation, errorMessage(error))
          .catch((recordError: unknown) =>
            noteOf(this.context, name)(`its failure was not recorded: ${errorMessage(recordError)}`),
          );
      return this.statuses.failed(tenant, error);
    }
  }

  /**
   * Writes a successful run's status (with the expiry of the request it ran, now in force), the
   * kubeconfig Secret, and its Event; `drift` counts what a quiet resync put back.
   */
  private async recordReady(
    tenant: TenantResource,
    run: Run,
    generation: number,
    deployed: string | undefined,
    drift: number | undefined,
  ): Promise<void> {
    const { name } = tenant.metadata;
    const { service, resources, config, now } = this.context;
    const status = await this.statuses.fromService(tenant);
    const ref = kubeconfigSecretRef(name, status.namespace!);
    const kubeconfig = await resources.writeKubeconfig(
      name,
      ref,
      deployed ?? (await service.kubeconfig(name, config.actor)),
    );
    const request = run.running?.request ?? tenant.spec;
    // A chart upgrade or a rollout keeps the kubeconfig; when it must change, the status says when.
    const changedAt = kubeconfig === "changed" ? now().toISOString() : status.kubeconfigChangedAt;
    await resources.writeStatus(name, {
      ...status,
      kubeconfigSecretRef: ref,
      platformRevision: run.revision?.revision,
      kubeconfigChangedAt: changedAt,
      expiry: { generation, ...(request.expiresAt !== undefined && { expiresAt: request.expiresAt }) },
    });
    if (kubeconfig === "changed") await config.events?.record(tenant, "KubeconfigChanged");
    if (run.revision) await this.recordApplied(name, generation, run.revision.revision);
    if (drift === undefined && status.phase === "Sleeping")
      await config.events?.record(tenant, "Sleeping", `generation ${generation} is asleep`);
    else if (drift === undefined) await config.events?.record(tenant, "Ready", `generation ${generation} is ready`);
    else if (drift > 0)
      await config.events?.record(tenant, "DriftRepaired", `the resync changed ${drift} resource(s) back`);
  }

  /** Records in the revision that the tenant runs it; a write that fails is noted, and made at its next run. */
  private async recordApplied(name: string, generation: number, revision: string): Promise<void> {
    try {
      await this.context.config.fleet?.recordApplied(revision, name, generation);
    } catch (error) {
      noteOf(this.context, name)(`that it runs platform revision ${revision} was not recorded: ${errorMessage(error)}`);
    }
  }

  /** Records a run's start: approved first when it leaves the approval gate; nothing for a quiet resync. */
  private async recordStart(tenant: TenantResource, quiet: boolean | undefined, run: Run, generation: number) {
    if (quiet) return;
    const { events } = this.context.config;
    if (tenant.status?.phase === "AwaitingApproval" && isApproved(tenant) && !run.running)
      await events?.record(tenant, "Approved", `an admin approved generation ${generation}`);
    const what = run.applying
      ? `bringing generation ${generation} up on platform revision ${run.revision!.revision}`
      : run.running
        ? `bringing generation ${generation}, the one that runs, back${run.asleep ? " asleep" : ""}`
        : `provisioning generation ${generation}`;
    await events?.record(tenant, "Provisioning", what);
  }

  /** Previews the change (with `revision`'s policy) and holds it, its plan in the status, until `gate` lets it go. */
  private async hold(
    tenant: TenantResource,
    gate: HoldingGate,
    options: ReconcileOptions,
    revision: PendingRevision | undefined,
  ): Promise<ReconcileResult> {
    const { name, generation } = tenant.metadata;
    const { service, resources, config } = this.context;
    const sha256 = specSha256(tenant.spec);
    const held = tenant.status?.plan;
    if (tenant.status?.phase === gate.phase && held?.generation === generation && held.specSha256 === sha256)
      return DONE;
    try {
      const steps = await service.preview(name, tenant.spec, config.actor, {
        signal: options.signal,
        onNote: noteOf(this.context, name),
        policy: revision?.policy,
      });
      const plan = gatePlanOf(generation, sha256, steps);
      const status = this.statuses.statusOf(tenant, gate.phase, gate.phase, gate.message(name, plan));
      await resources.writeStatus(name, { ...status, plan });
      await config.events?.record(tenant, gate.phase, gate.note(plan));
      return DONE;
    } catch (error) {
      return this.statuses.failed(tenant, error);
    }
  }

  /**
   * Whether the host drifted from a Ready tenant's stack: a preview after a refresh plans a change.
   * A preview that fails says nothing either way, so the update runs (and reports what failed).
   */
  private async drifted(
    tenant: TenantResource,
    options: ReconcileOptions,
    revision: PendingRevision | undefined,
  ): Promise<boolean> {
    const { name } = tenant.metadata;
    const { service, config } = this.context;
    const outcome: ResyncOutcome = await service
      .preview(name, tenant.spec, config.actor, {
        signal: options.signal,
        refresh: true,
        onNote: noteOf(this.context, name),
        policy: revision?.policy,
      })
      .then(
        (steps) => (planOf(steps).steps.length > 0 ? "drifted" : "clean"),
        () => "unknown" as const,
      );
    config.onResync?.(outcome);
    return outcome !== "clean";
  }
}

/** Whether the expiry `expiresAt` (RFC 3339, if any) has come at `now`. */
const hasPassed = (expiresAt: string | undefined, now: Date): boolean =>
  expiresAt !== undefined && Date.parse(expiresAt) <= now.getTime();

/** The plan of `steps` for the spec of `generation` whose digest is `specSha256`: what changes, counted by kind. */
export function gatePlanOf(generation: number, specSha256: string, steps: readonly ResourceStep[]): TenantPlan {
  const { steps: changing, ...counts } = planOf(steps);
  return { generation, specSha256, ...counts, steps: changing.map((step) => ({ ...step, diffs: [...step.diffs] })) };
}
