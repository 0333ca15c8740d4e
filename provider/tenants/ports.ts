/**
 * What the tenants service needs from the world, as ports: each front end (the command, the
 * server, a unit test) plugs in its own. No port reads argv, a terminal or process globals; what
 * differs per call (the host's engine environment, cancellation) goes in per call.
 */
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { ReadyReason, ResourceStep, TenantEvent } from "./tenantObject";

/** Who is asking. */
export interface Actor {
  /** The identity requests are owned by (an email). */
  readonly owner: string;
  /** The groups the identity provider (or the door) puts it in. */
  readonly groups: readonly string[];
  /** Whether it may see and change every tenant, not only its own. */
  readonly isAdmin: boolean;
}

/** A request as the store holds it. */
export interface StoredRequest {
  /** The tenant's name. */
  readonly name: string;
  /** The team's request. */
  readonly spec: TenantRequestInput;
  /** Bumped each time the request changes (1 for a new one). */
  readonly generation: number;
  /** When it was first stored (RFC 3339), when the store knows. */
  readonly createdAt?: string;
  /** Where it is, for people (a file, an object's name). */
  readonly location: string;
}

/** Where requests live: a folder of Tenant manifests for the command, Tenant resources for the server. */
export interface RequestStore {
  /** Tenant `name`'s request, if stored. */
  get(name: string): Promise<StoredRequest | undefined>;
  /** Every stored request. */
  list(): Promise<StoredRequest[]>;
  /**
   * Stores a new request. When one of that name is already stored (a caller beside this one wrote
   * it first), nothing is written and that one is returned with `added: false`.
   */
  add(name: string, spec: TenantRequestInput): Promise<{ readonly stored: StoredRequest; readonly added: boolean }>;
  /** Removes tenant `name`'s request (nothing when there is none). */
  remove(name: string): Promise<void>;
}

/** What a run's outputs say of the tenant (no secret among them). */
export interface DeployedOutputs {
  /** The host namespace. */
  readonly namespace?: string;
  /** The API server URL. */
  readonly apiServerUrl?: string;
  /** The apps domain, when exposed. */
  readonly appsDomain?: string;
  /** The readiness message ("virtual cluster of tenant X is ready ..."). */
  readonly readyMessage?: string;
  /** The phase the Tenant's status output reports: Ready, or Sleeping when its request sets `sleep`. */
  readonly phase?: "Ready" | "Sleeping";
}

/** How a run ended. */
export interface RunOutcome {
  /** Whether it did what it set out to do. */
  readonly ok: boolean;
  /** Whether the caller stopped it. */
  readonly interrupted?: boolean;
  /** Why it failed, the operator's word. */
  readonly reason?: ReadyReason;
  /** For people. */
  readonly message: string;
  /** A create's outputs. */
  readonly outputs?: DeployedOutputs;
}

/** One run (a create or a delete) of a tenant, as its journal tells it. */
export interface RunRecord {
  /** What the run does. */
  readonly operation: "create" | "delete";
  /** When it started (RFC 3339). */
  readonly startedAt: string;
  /** The request generation it runs for. */
  readonly generation: number;
  /** Whether its process is still at it. */
  readonly running: boolean;
  /** Its events so far, in order. */
  readonly events: readonly TenantEvent[];
  /** How it ended; absent while it runs, and when its process died without saying. */
  readonly outcome?: RunOutcome;
}

/** A run being written. */
export interface RunRecorder {
  /** Records an event as it happens. */
  event(event: TenantEvent): void;
  /** Records how the run ended; the last call. */
  end(outcome: RunOutcome): void;
}

/** Where runs are recorded as they happen, so that another process can follow them. */
export interface RunJournals {
  /** Starts recording a run of tenant `name`. */
  start(name: string, operation: RunRecord["operation"], generation: number): RunRecorder;
  /** Tenant `name`'s newest run, running or not. */
  latest(name: string): Promise<RunRecord | undefined>;
  /**
   * The events of tenant `name`'s running run as they are written (those written already first),
   * ending when no run of it is going; ends at once when none is.
   */
  follow(name: string, signal?: AbortSignal): AsyncIterable<TenantEvent>;
  /** Forgets tenant `name`'s runs, after it was deleted. */
  forget(name: string): Promise<void>;
}

/** The host cluster a tenant goes to, and what its engine needs to reach it. */
export interface HostTarget {
  /** For people: "context X of FILE", "the local test bed". */
  readonly description: string;
  /** The host kubeconfig (one context), for the tenant's `platform.hostKubeconfig` (a secret). */
  readonly kubeconfig: string;
  /** Environment for the Pulumi engine of this host (its pulumi on PATH, PULUMI_HOME, ...). */
  readonly engineEnv: Readonly<Record<string, string>>;
  /** A vCluster chart the host packages itself, used instead of the policy's. */
  readonly chartPath?: string;
}

/** Where the host comes from. */
export interface HostPort {
  /**
   * The host, brought up or reached first when that takes work; `progress` tells what it does.
   * `signal` stops it, and ends the renewal of credentials that expire, where a host renews them.
   */
  resolve(progress: (line: string) => void, signal?: AbortSignal): Promise<HostTarget>;
  /** The engine's environment for reads of the state, without reaching the host. */
  engineEnvForReads(): Readonly<Record<string, string>>;
}

/** What a stack operation reports and how it is stopped. */
export interface StackRun {
  /** The host the stack's engine reaches. */
  readonly host: HostTarget;
  /** What a step did to the tenant (digested from the engine's events). */
  readonly onEvent: (event: TenantEvent) => void;
  /** A step's change of a resource. */
  readonly onStep: (step: ResourceStep) => void;
  /** The wait for another update's lock, for people. */
  readonly onNote: (line: string) => void;
  /** How long to wait for another update's lock. */
  readonly lockTimeoutMs: number;
  /** Stops the operation: waits end at once and nothing new starts. */
  readonly signal?: AbortSignal;
  /**
   * Cancels a running engine (it finishes the steps in flight, saves the state and stops); defaults
   * to `signal`. A door whose engine already gets the user's interrupt (a terminal's Ctrl-C reaches
   * the whole process group) passes one that it never aborts, so the engine is not told twice.
   */
  readonly engineSignal?: AbortSignal;
  /** Whether an `up` or a preview first reads the host's objects (a refresh): what was changed by hand is put back, or planned. */
  readonly refresh?: boolean;
  /**
   * Receives the kubeconfig an `up` left in its outputs (a secret: never logged or recorded), so
   * that the caller does not read the stack's outputs again, which starts the engine and decrypts
   * the state a second time.
   */
  readonly onKubeconfig?: (kubeconfig: string) => void;
}

/** What a tenant's stack declares. */
export interface StackProgram {
  /** The team's request. */
  readonly request: TenantRequestInput;
  /** The platform's policy, with the host's kubeconfig (and chart) filled in. */
  readonly platform: TenantPlatformInput;
  /**
   * Called by the program under the stack's lock, before it declares anything; throwing stops the
   * update with nothing changed (a delete beside this create removed the request).
   */
  readonly checkStillWanted?: () => Promise<void>;
  /** What the update records of itself in the stack's history, beside the request. */
  readonly record?: UpdateRecord;
}

/** What an update records of itself in the stack's history, for `tenant history` and a rollback. */
export interface UpdateRecord {
  /** The generation of the request it runs. */
  readonly generation: number;
  /** The platform revision whose policy it runs with; none: the door's own policy. */
  readonly platformRevision?: string;
  /** Who ran it: the person, or the server acting for the Tenant resource. */
  readonly actor: string;
}

/** The request a tenant's stack runs now, as its last successful update recorded it. */
export interface RunningRequest {
  /** The request it ran. */
  readonly request: TenantRequestInput;
  /** That request's generation. */
  readonly generation: number;
  /** The platform revision whose policy it ran with; none: the door's own policy. */
  readonly platformRevision?: string;
}

/** One update of a tenant's stack, from the stack's history. */
export interface StackUpdate {
  /** Which update it is, 1 the first: the engine's version, or, on a DIY backend (which numbers none), its place. */
  readonly version: number;
  /** `update`, `refresh`, `destroy`, ... as the engine names it. */
  readonly kind: string;
  /** When it started (RFC 3339). */
  readonly startedAt: string;
  /** When it ended (RFC 3339), once it did. */
  readonly endedAt?: string;
  /** `succeeded`, `failed` or `in-progress`. */
  readonly result: string;
  /** How many resources it changed, by kind of change (`create`, `update`, `same`, ...). */
  readonly changes: Readonly<Record<string, number>>;
  /** What it recorded of itself; none for an update that recorded nothing (made before history was kept). */
  readonly record?: UpdateRecord;
  /** The request it ran, as recorded; what a rollback applies again. */
  readonly request?: TenantRequestInput;
}

/** A stack per tenant, in the door's Pulumi state backend. */
export interface TenantStacks {
  /** Creates or updates tenant `name`'s stack until its Tenant is ready; resolves to its outputs. */
  up(name: string, program: StackProgram, run: StackRun): Promise<DeployedOutputs>;
  /** The steps an `up` of `program` (or, with none, a teardown) would take; nothing changes. */
  preview(name: string, program: StackProgram | undefined, run: StackRun): Promise<ResourceStep[]>;
  /** Tears tenant `name`'s stack down in the edge table's order, then removes the stack; resolves to its steps. */
  destroy(name: string, run: StackRun): Promise<ResourceStep[]>;
  /** Whether tenant `name` has a stack. */
  exists(name: string, engineEnv: Readonly<Record<string, string>>): Promise<boolean>;
  /** Tenant `name`'s kubeconfig (the one read that decrypts), or undefined before it is ready. */
  kubeconfig(name: string, engineEnv: Readonly<Record<string, string>>): Promise<string | undefined>;
  /** Tenant `name`'s updates, newest first (none without a stack). */
  history(name: string, engineEnv: Readonly<Record<string, string>>): Promise<StackUpdate[]>;
}
