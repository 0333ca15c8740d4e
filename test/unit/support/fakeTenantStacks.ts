/**
 * Stand-ins for the tenants service's outward ports, for its unit tests: `FakeTenantStacks` for
 * the TenantStacks port, `FakeHost` for the HostPort. Neither runs an engine or reaches a cluster.
 */
import { TENANT_TOKEN } from "../../../provider/model/tokens";
import type {
  DeployedOutputs,
  HostPort,
  HostTarget,
  StackProgram,
  StackRun,
  StackUpdate,
  TenantStacks,
} from "../../../provider/tenants/ports";
import type { ReadyReason, ResourceStep, TenantEvent } from "../../../provider/tenants/tenantObject";

/** A promise and the functions that settle it. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** An operation held half way: `reached` resolves when it gets there, `release()` lets it go on. */
export interface Gate {
  readonly reached: Promise<void>;
  readonly release: () => void;
}

/** How a scripted `up` fails: the Failed event the engine's digest would report, and the engine's error. */
export interface UpFailure {
  readonly reason: ReadyReason;
  readonly detail: string;
}

/** One call the stand-in received. */
export interface StackCall {
  readonly op: "up" | "preview" | "destroy" | "exists" | "kubeconfig" | "history";
  readonly name: string;
  readonly program?: StackProgram;
  readonly run?: StackRun;
}

type Script =
  | { readonly kind: "fail"; readonly failure: UpFailure }
  | { readonly kind: "block"; readonly gate: Deferred; readonly reached: Deferred };

const NAMESPACE = "kubernetes:core/v1:Namespace";
const RELEASE = "kubernetes:helm.sh/v3:Release";
const READINESS = "kubespaces:index:TenantReadiness";

/** The resources a tenant's stack holds, in the order an update creates them. */
const resourcesOf = (name: string): ResourceStep[] => [
  { op: "create", type: TENANT_TOKEN, name, diffs: [] },
  { op: "create", type: NAMESPACE, name: `${name}-namespace`, diffs: [] },
  { op: "create", type: RELEASE, name: `${name}-vcluster`, diffs: [] },
  { op: "create", type: READINESS, name: `${name}-readiness`, diffs: [] },
];

const label = (step: ResourceStep) => `${step.type.split(":").pop()?.split("/").pop()} ${step.name}`;

/** The outputs the real adapter reads from a tenant's stack after a successful update. */
export const deployedOutputsOf = (name: string): DeployedOutputs => ({
  namespace: `kubespaces-tenant-${name}`,
  apiServerUrl: `https://${name}.kubespaces-tenant-${name}.svc:443`,
  readyMessage: `virtual cluster of tenant ${name} is ready (stand-in)`,
});

/** A kubeconfig as a vCluster issues it: a client certificate, nothing that runs a command. */
export const kubeconfigOf = (name: string): string =>
  [
    "apiVersion: v1",
    "kind: Config",
    `clusters: [{name: ${name}, cluster: {server: "https://${name}.kubespaces-tenant-${name}.svc:443", certificate-authority-data: c3RhbmQtaW4=}}]`,
    `users: [{name: ${name}-admin, user: {client-certificate-data: c3RhbmQtaW4=, client-key-data: c3RhbmQtaW4=}}]`,
    `contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}-admin}}]`,
    `current-context: ${name}`,
    "",
  ].join("\n");

/** A tenant's stack in the stand-in's backend. */
interface FakeStack {
  /** The resources it holds, by `type::name`, in the order they were created. */
  readonly resources: Map<string, ResourceStep>;
  /** Its updates, oldest first, each with what it recorded, as the engine's history keeps them. */
  readonly updates?: StackUpdate[];
  outputs?: DeployedOutputs;
  kubeconfig?: string;
}

const keyOf = (step: ResourceStep) => `${step.type}::${step.name}`;

/**
 * A stand-in for the Automation API adapter (AutomationStacks), mimicking it: a stack per tenant;
 * `up` creates the stack when there is none (as `createOrSelectStack` does), runs the program's
 * `checkStillWanted`, reports each resource it creates through `onEvent` as a Provisioning step
 * (resources the stack holds already are unchanged and report nothing), then resolves with the
 * DeployedOutputs the real one reads from the stack (namespace `kubespaces-tenant-<name>`, its API
 * server URL, the ready message); `destroy` reports Deleting for each resource, Deleted for the
 * Tenant, removes the stack and resolves with its delete steps; `preview` returns steps and
 * changes nothing; `kubeconfig` returns one once an `up` succeeded. Like the real adapter, a
 * cancelled engine (`engineSignal`, else `signal`) makes a running operation reject.
 *
 * Scriptable per tenant: `failNextUp` (a Failed event with a reason, then an engine error),
 * `failNextPreview` (the engine's error), `drift`,
 * `blockNext` (the next `up` or `destroy` waits half way until the test releases it). Every call
 * is recorded in `calls`.
 */
export class FakeTenantStacks implements TenantStacks {
  /** Every call, in order. */
  readonly calls: StackCall[] = [];
  private readonly stacks = new Map<string, FakeStack>();
  private readonly scripts = new Map<string, Script[]>();
  private readonly failingPreviews = new Set<string>();

  /** The calls of operation `op` (of tenant `name`, when given). */
  callsOf(op: StackCall["op"], name?: string): StackCall[] {
    return this.calls.filter((call) => call.op === op && (name === undefined || call.name === name));
  }

  /** Whether tenant `name` has a stack. */
  has(name: string): boolean {
    return this.stacks.has(name);
  }

  /** A provisioned stack that no request of the door's made (another door's, or one whose request was removed by hand). */
  addStray(name: string): void {
    this.stacks.set(name, {
      resources: new Map(resourcesOf(name).map((step) => [keyOf(step), step])),
      outputs: deployedOutputsOf(name),
      kubeconfig: kubeconfigOf(name),
    });
  }

  /** Replaces the kubeconfig tenant `name`'s stack outputs. */
  setKubeconfig(name: string, kubeconfig: string): void {
    const stack = this.stacks.get(name);
    if (!stack) throw new Error(`stand-in: tenant ${name} has no stack`);
    stack.kubeconfig = kubeconfig;
  }

  /** Drift: the resources of tenant `name`'s stack but its Tenant removed by hand, as a refresh finds them gone. */
  drift(name: string): void {
    const stack = this.stacks.get(name);
    if (!stack) throw new Error(`stand-in: tenant ${name} has no stack`);
    for (const [key, step] of stack.resources) if (step.type !== TENANT_TOKEN) stack.resources.delete(key);
  }

  /** The next preview of tenant `name` rejects as the engine would (a backend it could not reach). */
  failNextPreview(name: string): void {
    this.failingPreviews.add(name);
  }

  /** The next `up` of tenant `name` reports Failed with `failure.reason` and rejects as the engine would. */
  failNextUp(name: string, failure: UpFailure): void {
    this.script(name, { kind: "fail", failure });
  }

  /** The next `up` or `destroy` of tenant `name` stops half way (after its first steps) until released. */
  blockNext(name: string): Gate {
    const script = { kind: "block" as const, gate: deferred(), reached: deferred() };
    this.script(name, script);
    return { reached: script.reached.promise, release: () => script.gate.resolve() };
  }

  async up(name: string, program: StackProgram, run: StackRun): Promise<DeployedOutputs> {
    this.calls.push({ op: "up", name, program, run });
    const script = this.nextScript(name);
    const stack: FakeStack = this.stacks.get(name) ?? { resources: new Map(), updates: [] };
    this.stacks.set(name, stack);
    const created = new Set(stack.resources.keys());
    const recordUpdate = (result: string) =>
      stack.updates?.push({
        version: stack.updates.length + 1,
        kind: "update",
        startedAt: new Date(0).toISOString(),
        result,
        changes: { create: [...stack.resources.keys()].filter((key) => !created.has(key)).length },
        ...(program.record && { record: program.record }),
        request: program.request,
      });
    // The real program's refusal reaches the caller as the engine's error text only (the inline
    // program's error goes through the language host), and so it does here.
    await program.checkStillWanted?.().catch((error: unknown) => {
      throw new Error(
        `code: 255\n stdout: \n stderr: error: an unhandled error occurred: ${(error as Error).message}\n`,
      );
    });
    const create = (step: ResourceStep) => {
      if (stack.resources.has(keyOf(step))) return;
      run.onStep(step);
      run.onEvent({ name, phase: "Provisioning", detail: `creating ${label(step)}` });
      stack.resources.set(keyOf(step), step);
    };
    const [tenant, namespace, ...rest] = resourcesOf(name);
    create(tenant);
    if (script?.kind === "fail") {
      recordUpdate("failed");
      run.onEvent({ name, phase: "Failed", reason: script.failure.reason, detail: script.failure.detail });
      throw new Error(`code: 255\n stdout: \n stderr: error: update failed\n    error: ${script.failure.detail}\n`);
    }
    create(namespace);
    if (script?.kind === "block") await this.held(script, run);
    rest.forEach(create);
    // As the component's status output says: Sleeping for a request that asks for sleep.
    stack.outputs = {
      ...deployedOutputsOf(name),
      ...(program.request.sleep === true && { phase: "Sleeping" as const }),
    };
    // As a vCluster keeps its certificates, an update keeps the kubeconfig a stack already outputs.
    stack.kubeconfig ??= kubeconfigOf(name);
    recordUpdate("succeeded");
    // As the real stacks do: the kubeconfig the update's outputs hold goes to the run.
    run.onKubeconfig?.(stack.kubeconfig);
    return stack.outputs;
  }

  async preview(name: string, program: StackProgram | undefined, run: StackRun): Promise<ResourceStep[]> {
    this.calls.push({ op: "preview", name, program, run });
    if (this.failingPreviews.delete(name))
      throw new Error("code: 255\n stdout: \n stderr: error: could not reach the state backend\n");
    const held = this.stacks.get(name)?.resources ?? new Map<string, ResourceStep>();
    if (program) return resourcesOf(name).filter((step) => !held.has(keyOf(step)));
    return [...held.values()].reverse().map((step) => ({ ...step, op: "delete" }));
  }

  async destroy(name: string, run: StackRun): Promise<ResourceStep[]> {
    this.calls.push({ op: "destroy", name, run });
    const script = this.nextScript(name);
    const stack = this.stacks.get(name);
    if (!stack) return [];
    const steps: ResourceStep[] = [];
    const remove = (step: ResourceStep) => {
      const deleted = { ...step, op: "delete" };
      steps.push(deleted);
      run.onStep(deleted);
      run.onEvent({ name, phase: "Deleting", detail: `deleting ${label(step)}` });
      stack.resources.delete(keyOf(step));
      if (step.type === TENANT_TOKEN) run.onEvent({ name, phase: "Deleted", detail: `deleted ${label(step)}` });
    };
    const [first, ...rest] = [...stack.resources.values()].reverse();
    if (first) remove(first);
    if (script?.kind === "block") await this.held(script, run);
    rest.forEach(remove);
    this.stacks.delete(name);
    return steps;
  }

  async exists(name: string): Promise<boolean> {
    this.calls.push({ op: "exists", name });
    return this.stacks.has(name);
  }

  async history(name: string): Promise<StackUpdate[]> {
    this.calls.push({ op: "history", name });
    return [...(this.stacks.get(name)?.updates ?? [])].reverse();
  }

  async kubeconfig(name: string): Promise<string | undefined> {
    this.calls.push({ op: "kubeconfig", name });
    return this.stacks.get(name)?.kubeconfig;
  }

  private script(name: string, script: Script): void {
    this.scripts.set(name, [...(this.scripts.get(name) ?? []), script]);
  }

  private nextScript(name: string): Script | undefined {
    return this.scripts.get(name)?.shift();
  }

  /** Waits for the test's release; a cancelled engine rejects, as the Automation API's does. */
  private async held(script: Extract<Script, { kind: "block" }>, run: StackRun): Promise<void> {
    const cancel = run.engineSignal ?? run.signal;
    const cancelled = deferred();
    const onAbort = () => cancelled.reject(new Error("stand-in engine: update canceled"));
    cancel?.addEventListener("abort", onAbort, { once: true });
    if (cancel?.aborted) onAbort();
    script.reached.resolve();
    try {
      await Promise.race([script.gate.promise, cancelled.promise]);
    } finally {
      cancel?.removeEventListener("abort", onAbort);
    }
  }
}

/** The host target the stand-in host resolves to. */
export const STAND_IN_HOST: HostTarget = {
  description: "the stand-in host",
  kubeconfig: "apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n",
  engineEnv: { PULUMI_HOME: "/nonexistent/stand-in" },
};

/**
 * A stand-in for the HostPort: `resolve` returns STAND_IN_HOST, or throws what `failWith` gave it
 * (a HostUnavailableError, say). Every resolve is counted.
 */
export class FakeHost implements HostPort {
  resolves = 0;
  target: HostTarget = STAND_IN_HOST;
  private failure?: Error;

  failWith(error: Error | undefined): void {
    this.failure = error;
  }

  async resolve(progress: (line: string) => void): Promise<HostTarget> {
    this.resolves += 1;
    progress(`reaching ${this.target.description}`);
    if (this.failure) throw this.failure;
    return this.target;
  }

  engineEnvForReads(): Readonly<Record<string, string>> {
    return this.target.engineEnv;
  }
}

/** The phases of `events` in order, each once where it repeats. */
export function phasesOf(events: readonly TenantEvent[]): string[] {
  const phases: string[] = [];
  for (const { phase } of events) if (phase && phase !== phases.at(-1)) phases.push(phase);
  return phases;
}
