/**
 * The tenants service: the one core of every self-service door (the `kubespaces` command, the
 * server's API and reconciler). Each operation touches its own tenant's stack only, so its cost
 * does not grow with the number of tenants and different tenants never wait for each other.
 * Requests are checked with the component's own rules before anything is stored or run; results
 * are data (TenantObject), failures are the typed errors of tenantsErrors.ts.
 */
import { isDeepStrictEqual } from "node:util";
import { DNS_LABEL, DNS_LABEL_MAX_LENGTH } from "../model/schemaParts";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import { engineErrorSummary } from "./engineErrors";
import { commandRunningUsers } from "./kubeconfigSafety";
import type {
  Actor,
  HostPort,
  HostTarget,
  RequestStore,
  RunJournals,
  RunRecorder,
  RunningRequest,
  StackRun,
  StackUpdate,
  StoredRequest,
  TenantStacks,
} from "./ports";
import type { ReadyReason, ResourceStep, TenantEvent, TenantObject } from "./tenantObject";
import {
  InterruptedError,
  OperationRefusedError,
  RequestChangedError,
  RequestConflictError,
  RequestInvalidError,
  TenantFailedError,
  TenantNotFoundError,
  TenantNotReadyError,
  TenantsError,
} from "./tenantsErrors";
import { checkRequest, mayUse, ownerOf, refuseNewAsleep } from "./requestCheck";
import { tenantObject } from "./tenantStatus";

/** The ports the service runs on. */
export interface TenantsPorts {
  /** Where requests live. */
  readonly requests: RequestStore;
  /** Where runs are recorded as they happen. */
  readonly runs: RunJournals;
  /** A stack per tenant. */
  readonly stacks: TenantStacks;
  /** The host cluster. */
  readonly host: HostPort;
}

/** The service's configuration, as values. */
export interface TenantsConfig {
  /** The platform's policy every request is held to (set by the platform, never by a request). */
  readonly policy: TenantPlatformInput;
}

/** How a long operation reports and is stopped. */
export interface OperationOptions {
  /** Each step's effect on the tenant (phase changes, progress), as it happens. */
  readonly onEvent?: (event: TenantEvent) => void;
  /** The service's own progress lines (the host coming up, a lock waited for). */
  readonly onNote?: (line: string) => void;
  /** Stops the operation: waits end at once; a running engine is cancelled through `engineSignal`. */
  readonly signal?: AbortSignal;
  /** Cancels a running engine; defaults to `signal` (see StackRun.engineSignal). */
  readonly engineSignal?: AbortSignal;
  /** How long to wait while another update holds the tenant's stack; default 10 minutes. */
  readonly lockTimeoutMs?: number;
  /**
   * Reads the host's objects before a create's update or a preview, so that what was removed or
   * changed by hand is put back or planned (a server's resync); default off.
   */
  readonly refresh?: boolean;
  /**
   * For a create whose `request` is a stored request the caller checked (the server's approval
   * gate): that request's generation. The create then runs exactly `request` and records this
   * generation; a stored request at another generation, or none, is refused with
   * RequestChangedError and nothing is run. Without it, the stored request is read and run.
   */
  readonly checkedGeneration?: number;
  /**
   * For a preview or a create: the platform policy to hold the request to and run it with, instead
   * of the service's (a platform revision). Only the platform's own code sets it, never a request.
   */
  readonly policy?: TenantPlatformInput;
  /** For a create with `policy`: the platform revision it is, recorded in the stack's history. */
  readonly platformRevision?: string;
  /**
   * For a create: run the request asleep (`sleep: true`) whatever it asks, its stored request
   * unchanged: a restore brings the control plane down before it writes the data back.
   */
  readonly asleep?: boolean;
  /**
   * For a create: receives the tenant's kubeconfig from the update's outputs once it succeeded,
   * when `kubeconfig()` would hand it out, so that a caller that keeps it (the server's Secret)
   * does not read it again. A kubeconfig `kubeconfig()` refuses is not passed: that read says why.
   */
  readonly onKubeconfig?: (kubeconfig: string) => void;
}

/** What a delete did. */
export interface DeleteResult {
  /** The resources the teardown removed (none when the tenant was never provisioned). */
  readonly removed: readonly ResourceStep[];
  /** Whether only a request was withdrawn (nothing had been provisioned). */
  readonly withdrawn: boolean;
}

/** The default wait for another update's lock. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10 * 60 * 1000;

/** The tenants service. */
export class TenantsService {
  constructor(
    private readonly ports: TenantsPorts,
    private readonly config: TenantsConfig,
  ) {}

  /** Tenant `name` as `actor` may see it. */
  async get(name: string, actor: Actor): Promise<TenantObject> {
    const request = await this.visibleRequest(name, actor);
    return tenantObject(request, await this.ports.runs.latest(name));
  }

  /**
   * Tenant `name`'s updates, newest first, as `actor` may see them: when, the result, what changed,
   * and what each recorded (the request's generation, the platform revision, who ran it, the
   * request itself, which a rollback applies again).
   */
  async history(name: string, actor: Actor): Promise<StackUpdate[]> {
    await this.visibleRequest(name, actor);
    return this.ports.stacks.history(name, this.ports.host.engineEnvForReads());
  }

  /** The tenants `actor` owns or, with `all`, every tenant it may see. */
  async list(actor: Actor, options: { readonly all?: boolean } = {}): Promise<TenantObject[]> {
    const requests = (await this.ports.requests.list()).filter((r) =>
      options.all ? mayUse(actor, r) : ownerOf(r.spec) === actor.owner,
    );
    return Promise.all(requests.map(async (r) => tenantObject(r, await this.ports.runs.latest(r.name))));
  }

  /**
   * The request `request` becomes once checked for `actor`: its owner defaults to the actor, and
   * only an admin may name another. Throws RequestInvalidError with the component's message.
   */
  check(
    name: string,
    request: TenantRequestInput,
    actor: Actor,
    policy: TenantPlatformInput = this.config.policy,
  ): TenantRequestInput {
    return checkRequest(name, request, actor, policy);
  }

  /**
   * The steps a create of `request` (or, with none, a delete) would take on tenant `name`'s stack.
   * Nothing is stored or changed.
   */
  async preview(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options: OperationOptions = {},
  ): Promise<ResourceStep[]> {
    const checked = request && this.check(name, request, actor, options.policy);
    if (!checked) await this.visibleRequest(name, actor);
    const host = await this.host(options);
    const program = checked && { request: checked, platform: this.platformFor(host, options.policy) };
    return this.ports.stacks.preview(
      name,
      program,
      this.stackRun(host, options, () => {}),
    );
  }

  /**
   * Creates tenant `name`, or resumes it (`request` undefined: the stored one), and provisions it
   * until it is Ready. Throws TenantFailedError with the reason when it is not.
   */
  async create(
    name: string,
    request: TenantRequestInput | undefined,
    actor: Actor,
    options: OperationOptions = {},
  ): Promise<TenantObject> {
    const existing = await this.ports.requests.get(name);
    if (existing && !mayUse(actor, existing)) throw new TenantNotFoundError(name);
    refuseChanged(name, existing, options.checkedGeneration);
    if (!request && !existing)
      throw new RequestInvalidError(`tenant ${name} has no stored request to resume: give its request`, [
        "spec: required",
      ]);
    const wanted = this.check(name, request ?? existing!.spec, actor, options.policy);
    if (existing) refuseDifferent(name, existing, wanted);
    if (wanted.sleep === true && !(await this.ports.stacks.exists(name, this.ports.host.engineEnvForReads())))
      refuseNewAsleep(name, wanted);
    await this.refuseBesideDelete(name);
    // Stored first, so that the tenant can be read from its first step on; a create beside this
    // one that stored a different request first wins, and this one changes nothing.
    const { stored, added } = await this.ports.requests.add(name, wanted);
    refuseChanged(name, stored, options.checkedGeneration);
    if (!added) refuseDifferent(name, stored, wanted);
    // The host is reached before the run is recorded: a host that is not there changes nothing of
    // the tenant's status (the request waits, Pending, for the next create).
    const host = await this.host(options);
    await this.refuseOthersStack(name, existing === undefined && added, host);
    return this.runUp(name, stored, wanted, stored.generation, actor, host, options);
  }

  /**
   * The request tenant `name`'s stack runs now, as its last successful update recorded it (none
   * before one did, or for a stack made before updates recorded their request). A restore reads
   * it once, before it brings the control plane down, to bring back exactly that request.
   */
  async runningRequest(name: string, actor: Actor): Promise<RunningRequest | undefined> {
    await this.visibleRequest(name, actor);
    const updates = await this.ports.stacks.history(name, this.ports.host.engineEnvForReads());
    const last = updates.find((update) => update.kind === "update" && update.result === "succeeded");
    if (!last?.request || !last.record) return undefined;
    return {
      request: last.request,
      generation: last.record.generation,
      platformRevision: last.record.platformRevision,
    };
  }

  /**
   * Brings tenant `name`'s stack back to `running`, the request it last ran (runningRequest), with
   * `options.asleep` as a create takes it. Whatever the store holds now is left alone: a newer
   * request is not run here, so it still meets every gate a create of it meets. The request is
   * checked against the policy again, as every run's is.
   */
  async putBack(
    name: string,
    running: RunningRequest,
    actor: Actor,
    options: OperationOptions = {},
  ): Promise<TenantObject> {
    const stored = await this.visibleRequest(name, actor);
    const wanted = this.check(name, running.request, actor, options.policy);
    await this.refuseBesideDelete(name);
    const host = await this.host(options);
    return this.runUp(name, stored, wanted, running.generation, actor, host, options);
  }

  /**
   * Runs an update of tenant `name`'s stack with `wanted` (checked), recording `generation`, until
   * its Tenant is Ready; `stored` is the store's request, which its result is reported with.
   */
  private async runUp(
    name: string,
    stored: StoredRequest,
    wanted: TenantRequestInput,
    generation: number,
    actor: Actor,
    host: HostTarget,
    options: OperationOptions,
  ): Promise<TenantObject> {
    const journal = this.ports.runs.start(name, "create", generation);
    const report = reporter(journal, options);
    report({ name, phase: "Pending" });
    let failure: TenantEvent | undefined;
    // The program's own refusal reaches the engine as text only: it is kept here to be thrown as it is.
    let refusal: OperationRefusedError | undefined;
    try {
      options.onNote?.(`request of ${name} stored (${stored.location}); provisioning on ${host.description}`);
      let kubeconfig: string | undefined;
      const run = {
        ...this.stackRun(host, options, (event) => {
          if (event.phase === "Failed") failure ??= event;
          report(event);
        }),
        onKubeconfig: (value: string) => (kubeconfig = value),
      };
      const checkStillWanted = async () => {
        const latest = await this.ports.runs.latest(name);
        if (!(await this.ports.requests.get(name)) || (latest?.operation === "delete" && latest.running)) {
          refusal = new OperationRefusedError(
            `tenant ${name} was deleted while this create waited for its stack; nothing was changed`,
          );
          throw refusal;
        }
      };
      const record = {
        generation,
        actor: actor.owner,
        ...(options.platformRevision !== undefined && { platformRevision: options.platformRevision }),
      };
      const outputs = await this.ports.stacks.up(
        name,
        {
          request: options.asleep ? { ...wanted, sleep: true } : wanted,
          platform: this.platformFor(host, options.policy),
          checkStillWanted,
          record,
        },
        run,
      );
      const message = outputs.readyMessage ?? `virtual cluster of tenant ${name} is ready`;
      // The event before the end line, which is the journal's last: a follower stops there.
      report({ name, phase: outputs.phase ?? "Ready", detail: message });
      journal.end({ ok: true, message, outputs });
      if (kubeconfig !== undefined && commandRunningUsers(kubeconfig).length === 0) options.onKubeconfig?.(kubeconfig);
      return tenantObject(stored, await this.ports.runs.latest(name));
    } catch (error) {
      throw this.createFailed(name, refusal ?? error, failure, journal, options);
    }
  }

  /**
   * Refuses a new tenant whose stack is already in the backend though this door never ran it (no
   * run of it recorded here): another user's, on a shared backend. Its request, just stored by
   * this create, is taken back; the stack is left alone.
   */
  private async refuseOthersStack(name: string, isNew: boolean, host: HostTarget): Promise<void> {
    if (!isNew || (await this.ports.runs.latest(name)) || !(await this.ports.stacks.exists(name, host.engineEnv)))
      return;
    await this.ports.requests.remove(name);
    throw new OperationRefusedError(
      `tenant ${name} already has a stack in the state backend that this door did not make (another user's, on a shared backend?); it is not taken over, and nothing was changed`,
    );
  }

  /** Refuses a create while a delete of the tenant runs: the delete would tear down what it makes. */
  private async refuseBesideDelete(name: string): Promise<void> {
    const latest = await this.ports.runs.latest(name);
    if (latest?.operation === "delete" && latest.running) {
      throw new RequestConflictError(
        `tenant ${name} is being deleted right now; create it again once the delete has finished`,
      );
    }
  }

  /**
   * Deletes tenant `name`: tears its stack down completely, then removes its request. A tenant
   * whose stack this door's store holds no request for is refused: this door did not make it.
   */
  async delete(name: string, actor: Actor, options: OperationOptions = {}): Promise<DeleteResult> {
    // Checked first: the name reaches the state backend as a stack name (`org/project/stack` would reach another project's).
    if (!isTenantName(name)) throw new TenantNotFoundError(name);
    const existing = await this.ports.requests.get(name);
    if (existing && !mayUse(actor, existing)) throw new TenantNotFoundError(name);
    const hasStack = await this.ports.stacks.exists(name, this.ports.host.engineEnvForReads());
    if (!existing && !hasStack) throw new TenantNotFoundError(name);
    if (!existing && !actor.isAdmin) throw new TenantNotFoundError(name);
    if (!existing) {
      throw new OperationRefusedError(
        `tenant ${name} has a stack in the state backend but no request in this door's store, so this door did not make it (or its request was removed by hand); it is not torn down, and nothing was changed`,
      );
    }
    const latest = await this.ports.runs.latest(name);
    if (!hasStack && !latest?.running) {
      await this.ports.requests.remove(name);
      await this.ports.runs.forget(name);
      return { removed: [], withdrawn: true };
    }
    return this.tearDown(name, existing, options);
  }

  /** Tenant `name`'s kubeconfig (cluster-admin inside its virtual cluster), for its owner or an admin. */
  async kubeconfig(name: string, actor: Actor): Promise<string> {
    const request = await this.visibleRequest(name, actor);
    const kubeconfig = await this.ports.stacks.kubeconfig(name, this.ports.host.engineEnvForReads());
    if (!kubeconfig) {
      const { status } = tenantObject(request, await this.ports.runs.latest(name));
      throw new TenantNotReadyError(name, status.phase, "it has no kubeconfig yet");
    }
    const runners = commandRunningUsers(kubeconfig);
    if (runners.length > 0) {
      throw new OperationRefusedError(
        `tenant ${name}'s kubeconfig has user entries that run a command (${runners.join(", ")}); a vCluster never issues those, so it is not handed out`,
      );
    }
    return kubeconfig;
  }

  /** The steps of tenant `name`'s running run as they happen; ends when none runs. */
  async *watch(name: string, actor: Actor, signal?: AbortSignal): AsyncGenerator<TenantEvent> {
    await this.visibleRequest(name, actor);
    yield* this.ports.runs.follow(name, signal);
  }

  private async tearDown(name: string, request: StoredRequest, options: OperationOptions): Promise<DeleteResult> {
    const host = await this.host(options);
    const journal = this.ports.runs.start(name, "delete", request.generation);
    const report = reporter(journal, options);
    report({ name, phase: "Deleting" });
    try {
      options.onNote?.(`tearing tenant ${name} down on ${host.description}`);
      const steps = await this.ports.stacks.destroy(name, this.stackRun(host, options, report));
      await this.ports.requests.remove(name);
      report({ name, phase: "Deleted" });
      journal.end({ ok: true, message: `tenant ${name} deleted` });
      await this.ports.runs.forget(name);
      return { removed: steps.filter((s) => s.op === "delete"), withdrawn: false };
    } catch (error) {
      const interrupted = options.signal?.aborted === true;
      const message = interrupted ? "interrupted" : errorText(error);
      journal.end({ ok: false, interrupted, message });
      if (error instanceof TenantsError) throw error;
      if (interrupted)
        throw new InterruptedError(
          name,
          `the delete of tenant ${name} was interrupted; its request is kept: delete it again to finish the teardown`,
        );
      throw new TenantFailedError(
        name,
        "ProvisioningFailed",
        `the teardown failed; delete it again to finish: ${message}`,
      );
    }
  }

  /** The error a failed create throws, after recording how it ended. */
  private createFailed(
    name: string,
    error: unknown,
    failure: TenantEvent | undefined,
    journal: RunRecorder,
    options: OperationOptions,
  ): Error {
    if (options.signal?.aborted) {
      journal.end({ ok: false, interrupted: true, message: "interrupted" });
      return new InterruptedError(
        name,
        `the create of tenant ${name} was interrupted; its request is kept: create it again to finish, or delete it`,
      );
    }
    if (error instanceof TenantsError && error.kind !== "failed") {
      journal.end({ ok: false, interrupted: true, message: error.message });
      return error;
    }
    const reason: ReadyReason = failure?.reason ?? "ProvisioningFailed";
    const message = failure?.detail ?? errorText(error);
    journal.end({ ok: false, reason, message });
    return new TenantFailedError(name, reason, message);
  }

  /** The request of tenant `name` if `actor` may see it; else TenantNotFoundError (another's tenant is not revealed). */
  private async visibleRequest(name: string, actor: Actor): Promise<StoredRequest> {
    if (!isTenantName(name)) throw new TenantNotFoundError(name);
    const request = await this.ports.requests.get(name);
    if (!request || !mayUse(actor, request)) throw new TenantNotFoundError(name);
    return request;
  }

  private host(options: OperationOptions): Promise<HostTarget> {
    return this.ports.host.resolve(options.onNote ?? (() => {}), options.signal);
  }

  /**
   * The policy a tenant's stack is held to: the platform's (or `policy`), with the host's kubeconfig (a secret
   * in the Tenant) and, on a host that packages its own chart (the test bed), that chart.
   */
  private platformFor(host: HostTarget, policy: TenantPlatformInput = this.config.policy): TenantPlatformInput {
    return {
      ...policy,
      ...(host.chartPath && { chart: { localPath: host.chartPath } }),
      hostKubeconfig: host.kubeconfig,
    } as TenantPlatformInput;
  }

  private stackRun(host: HostTarget, options: OperationOptions, onEvent: (event: TenantEvent) => void): StackRun {
    return {
      host,
      onEvent,
      onStep: () => {},
      onNote: options.onNote ?? (() => {}),
      lockTimeoutMs: options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      signal: options.signal,
      engineSignal: options.engineSignal,
      refresh: options.refresh,
    };
  }
}

/** Whether `name` can be a tenant's (a DNS label, at most 63 characters): anything else names no tenant and reaches no port. */
const isTenantName = (name: string): boolean => name.length <= DNS_LABEL_MAX_LENGTH && DNS_LABEL.test(name);

/**
 * Refuses a create whose caller checked generation `checked` of the stored request, when the
 * store holds another one (or none): what runs is what was checked, or nothing.
 */
function refuseChanged(name: string, stored: StoredRequest | undefined, checked: number | undefined): void {
  if (checked === undefined || stored?.generation === checked) return;
  throw new RequestChangedError(name, checked, stored?.generation);
}

/** Refuses a request that differs from the stored one. */
function refuseDifferent(name: string, stored: StoredRequest, wanted: TenantRequestInput): void {
  if (isDeepStrictEqual(stored.spec, wanted)) return;
  throw new RequestConflictError(
    `tenant ${name} is already requested, differently (${stored.location}); delete it first, or create it again without a request to resume the stored one`,
  );
}

/** Records an event in the journal and passes it on. */
function reporter(journal: RunRecorder, options: OperationOptions): (event: TenantEvent) => void {
  return (event) => {
    journal.event(event);
    options.onEvent?.(event);
  };
}

const errorText = (error: unknown): string =>
  error instanceof TenantsError ? error.message : engineErrorSummary(error);
