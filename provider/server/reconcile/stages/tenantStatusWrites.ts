/**
 * The statuses the stages write: one of a stage's own making (a gate, a teardown, a refusal), the
 * service's after a run, a few fields over the status as it stands, and a failure. Each keeps what
 * the status carries across writes: where the tenant was provisioned, its revision, expiry,
 * snapshots and the expiry's warning.
 */
import type { TenantEvent } from "../../../tenants/tenantObject";
import { RequestInvalidError } from "../../../tenants/tenantsErrors";
import type { TenantResource, TenantResourceStatus } from "../../tenantResourcePort";
import { failureEventReason } from "../tenantEvents";
import { EXPIRING_CONDITION } from "../tenantExpiry";
import { errorMessage, type ReconcileResult, type StageContext } from "./stageContext";

type Phase = TenantResourceStatus["phase"];
type Reason = TenantResourceStatus["conditions"][number]["reason"];

/** The status writes, over one stage context. */
export class TenantStatusWrites {
  constructor(private readonly context: StageContext) {}

  /** A status of the reconciler's own making (a gate, an invalid request, a teardown). */
  statusOf(tenant: TenantResource, phase: Phase, reason: Reason, message: string): TenantResourceStatus {
    const ready = phase === "Ready" ? "True" : ["Failed", "Deleting", "Sleeping"].includes(phase) ? "False" : "Unknown";
    const previous = tenant.status?.conditions.find((c) => c.type === "Ready");
    const changed = !previous || previous.status !== ready || previous.reason !== reason;
    const now = this.context.now().toISOString();
    return {
      ...kept(tenant.status),
      phase,
      message,
      conditions: [
        {
          type: "Ready",
          status: ready,
          reason,
          message,
          lastTransitionTime: changed ? now : (previous?.lastTransitionTime ?? now),
          observedGeneration: tenant.metadata.generation,
        },
        ...otherConditions(tenant.status),
      ],
    };
  }

  /** Writes a status of the reconciler's own making. */
  write(tenant: TenantResource, phase: Phase, reason: Reason, message: string): Promise<void> {
    return this.context.resources.writeStatus(tenant.metadata.name, this.statusOf(tenant, phase, reason, message));
  }

  /** Writes `fields` over the tenant's status as it stands now. */
  async update(name: string, fields: Partial<TenantResourceStatus>): Promise<void> {
    const status = (await this.context.resources.get(name))?.status;
    if (status) await this.context.resources.writeStatus(name, { ...status, ...fields });
  }

  /** The service's status of the tenant, with what the resource's status keeps. */
  async fromService(tenant: TenantResource): Promise<TenantResourceStatus> {
    const { service, config } = this.context;
    const status = (await service.get(tenant.metadata.name, config.actor)).status;
    const conditions = [...status.conditions.map((c) => ({ ...c })), ...otherConditions(tenant.status)];
    return { ...kept(tenant.status), ...status, conditions };
  }

  /**
   * Writes the status of a failed reconcile; an invalid request waits for a new spec, anything
   * else is retried. The refusal's text is in the status, which the owner reads; its Event, which
   * others may read, says only that it was refused (the text quotes the request).
   */
  async failed(tenant: TenantResource, error: unknown): Promise<ReconcileResult> {
    const { name, generation } = tenant.metadata;
    const { resources, config } = this.context;
    if (error instanceof RequestInvalidError) {
      const status = this.statusOf(tenant, "Failed", "InvalidRequest", error.message);
      await resources.writeStatus(name, { ...status, observedGeneration: generation });
      await config.events?.record(tenant, "InvalidRequest", invalidRequestNote(generation));
      return { retry: false };
    }
    const status = await this.fromService(tenant);
    const failed =
      status.phase === "Failed" ? status : this.statusOf(tenant, "Failed", "ProvisioningFailed", errorMessage(error));
    await resources.writeStatus(name, { ...failed, message: `${failed.message} (tried again later)` });
    await config.events?.record(tenant, failureEventReason(failed.conditions[0]?.reason), failed.message);
    return { retry: true };
  }

  /**
   * Writes the tenant's phase as a run moves it (Pending, then Provisioning), one write at a time
   * and in order; the run's own end (Ready or Failed) is written after `settled`, so it stays.
   */
  progressWriter(tenant: TenantResource): RunProgress {
    let written: string | undefined;
    let writes = Promise.resolve();
    return {
      onEvent: (event) => {
        if ((event.phase !== "Pending" && event.phase !== "Provisioning") || event.phase === written) return;
        written = event.phase;
        // Made now, from the event: a status read later could already tell of a later step.
        const status = this.statusOf(tenant, event.phase, event.phase, event.detail ?? PROGRESS[event.phase]);
        // A progress write that fails is superseded by the run's last write.
        const write = () => this.context.resources.writeStatus(tenant.metadata.name, status);
        writes = writes.then(write).catch(() => undefined);
      },
      settled: () => writes,
      count: () => 0,
    };
  }
}

/** The Event of a refused request: it names the generation only (docs/policy.md: Events carry no spec or owner). */
export const invalidRequestNote = (generation: number): string =>
  `generation ${generation} was refused by the platform's policy; the Tenant's status says why`;

/** How a run's progress is followed. */
export interface RunProgress {
  /** Each step of the run. */
  readonly onEvent: (event: TenantEvent) => void;
  /** Settles once every write it started has. */
  readonly settled: () => Promise<void>;
  /** The steps that changed something (counted only where phases are not written: a resync). */
  readonly count: () => number;
}

/** The progress of a run whose phases are not written (a resync of a Ready tenant): it counts the steps that change something, the drift it repairs. */
export function stepCounter(): RunProgress {
  let steps = 0;
  return {
    onEvent: (event) => void (event.phase === "Provisioning" && event.detail && steps++),
    settled: async () => {},
    count: () => steps,
  };
}

/** What a progress status says when its event says nothing. */
const PROGRESS = { Pending: "a create is about to provision it", Provisioning: "provisioning" } as const;

/** The conditions a status keeps across the reconciler's writes of its Ready condition: the expiry's warning. */
const otherConditions = (status: TenantResourceStatus | undefined): TenantResourceStatus["conditions"] =>
  (status?.conditions ?? []).filter((condition) => condition.type === EXPIRING_CONDITION);

/** What a status keeps across the reconciler's own writes: where the tenant was provisioned, on which revision, its expiry and snapshots. */
function kept(status: TenantResourceStatus | undefined): Partial<TenantResourceStatus> {
  if (!status) return {};
  const { apiServerUrl, appsDomain, namespace, kubeconfigSecretRef, kubeconfigChangedAt, expiry } = status;
  const { observedGeneration, platformRevision, snapshots, snapshotRequest, restoredFrom } = status;
  const fields = {
    ...{ apiServerUrl, appsDomain, namespace, kubeconfigSecretRef, kubeconfigChangedAt, expiry },
    ...{ observedGeneration, platformRevision, snapshots, snapshotRequest, restoredFrom },
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
