/**
 * The tenants service, every operation, over the real file adapters (requests and run journals in
 * a temporary folder) and stand-ins for the stacks and the host (support/fakeTenantStacks.ts).
 * A second service over the same folders plays another process of the same door.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { FileRequestStore } from "../../provider/tenants/local/fileRequestStore";
import { FileRunJournals } from "../../provider/tenants/local/fileRunJournals";
import type { Actor, RunJournals, RunRecorder } from "../../provider/tenants/ports";
import type { TenantEvent } from "../../provider/tenants/tenantObject";
// The service's error kinds, by class: each test names the one it expects.
import * as errors from "../../provider/tenants/tenantsErrors";
import { DEFAULT_LOCK_TIMEOUT_MS, TenantsService } from "../../provider/tenants/tenantsService";
import { deployedOutputsOf, FakeHost, FakeTenantStacks, kubeconfigOf, phasesOf } from "./support/fakeTenantStacks";
import { temporaryFolderEach } from "./support/temporaryFolder";

const alice: Actor = { owner: "alice@example.com", groups: ["team-atlas"], isAdmin: false };
const bob: Actor = { owner: "bob@example.com", groups: ["team-borealis"], isAdmin: false };
const admin: Actor = { owner: "platform@example.com", groups: ["platform-admins"], isAdmin: true };

/** A request as a door receives it: the owner left out, so that it defaults to the actor. */
const asked = (resources: Record<string, string> = { cpu: "4", memory: "8Gi" }, extra: object = {}) =>
  ({ resources, ...extra }) as unknown as TenantRequestInput;

const root = temporaryFolderEach("kubespaces-tenants-service-");
let stacks: FakeTenantStacks;
let host: FakeHost;
let store: FileRequestStore;
let runs: FileRunJournals;
let service: TenantsService;

/** A service over the test's folders and stacks: another instance is another process of the door. */
const serviceOver = (journals: RunJournals = new FileRunJournals(runs.dir)) =>
  new TenantsService({ requests: new FileRequestStore(store.dir), runs: journals, stacks, host }, { policy: {} });

/**
 * The clock stands still (only Date is faked) unless a test moves it: the next run of a tenant
 * starts a second later. Two runs of one tenant in the same millisecond share a journal file
 * (a bug, see "run journals" below), so a test that runs a tenant twice moves the clock between.
 */
const later = () => vi.setSystemTime(Date.now() + 1000);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 1) });
  stacks = new FakeTenantStacks();
  host = new FakeHost();
  store = new FileRequestStore(path.join(root(), "requests"));
  runs = new FileRunJournals(path.join(root(), "runs"));
  service = serviceOver(runs);
});
afterEach(() => {
  vi.useRealTimers();
});

/** What `promise` rejects with; fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error as Error,
  );
}

/** Everything `iterator` still yields, until it ends. */
async function drain<T>(iterator: AsyncIterator<T>): Promise<T[]> {
  const values: T[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) values.push(next.value);
  return values;
}

/** Whether anything at all was written for tenants: no request, no journal. */
const nothingStored = async () => (await store.list()).length === 0 && !existsSync(runs.dir);

describe("create", () => {
  it("provisions a tenant until Ready, and every reader (this process or another) sees the same tenant", async () => {
    const events: TenantEvent[] = [];
    const tenant = await service.create("atlas", asked(), alice, { onEvent: (e) => events.push(e) });
    const outputs = deployedOutputsOf("atlas");
    expect(tenant).toMatchObject({
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "atlas", generation: 1 },
    });
    expect(tenant.spec).toEqual({ ...asked(), owner: alice.owner });
    expect(tenant.status).toMatchObject({
      phase: "Ready",
      message: outputs.readyMessage,
      apiServerUrl: outputs.apiServerUrl,
      namespace: outputs.namespace,
      observedGeneration: 1,
    });
    expect(tenant.status.conditions).toEqual([
      expect.objectContaining({
        type: "Ready",
        status: "True",
        reason: "Provisioned",
        message: outputs.readyMessage,
        observedGeneration: 1,
      }),
    ]);
    expect(phasesOf(events)).toEqual(["Pending", "Provisioning", "Ready"]);
    expect(events.every((e) => e.name === "atlas")).toBe(true);

    expect(await service.get("atlas", alice)).toEqual(tenant);
    expect(await service.list(alice)).toEqual([tenant]);
    const otherProcess = serviceOver();
    expect(await otherProcess.get("atlas", alice)).toEqual(tenant);
    expect(await otherProcess.list(alice)).toEqual([tenant]);
  });

  it("gives the stack the checked request, the policy with the host's kubeconfig, and the lock wait asked for", async () => {
    await service.create("atlas", asked(), alice, { lockTimeoutMs: 1234 });
    await service.create("borealis", asked(), bob);
    const [atlas] = stacks.callsOf("up", "atlas");
    expect(atlas.program?.request).toEqual({ ...asked(), owner: alice.owner });
    expect(atlas.program?.platform).toEqual({ hostKubeconfig: host.target.kubeconfig });
    expect(atlas.run).toMatchObject({ host: host.target, lockTimeoutMs: 1234 });
    expect(stacks.callsOf("up", "borealis")[0].run?.lockTimeoutMs).toBe(DEFAULT_LOCK_TIMEOUT_MS);
  });

  it.each<[string, TenantRequestInput, string]>([
    ["a bad quantity", asked({ cpu: "lots" }), "resources.cpu:"],
    [
      "a pod security level that does not exist",
      asked(undefined, { isolation: { podSecurity: "none" } }),
      "isolation.podSecurity:",
    ],
  ])("refuses %s with the field named, storing and running nothing", async (_, request, field) => {
    const error = await rejection(service.create("atlas", request, alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    expect((error as errors.RequestInvalidError).problems.some((p) => p.startsWith(field))).toBe(true);
    expect(error.message).toContain(field.slice(0, -1));
    expect(await nothingStored()).toBe(true);
    expect(stacks.calls).toEqual([]);
    expect(host.resolves).toBe(0);
  });

  it("names an unknown field's problem after the inputs, not the tenant name", async () => {
    const error = await rejection(service.create("atlas", asked(undefined, { namespacePrefix: "x" }), alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    expect((error as errors.RequestInvalidError).problems).toEqual([
      expect.stringMatching(/^inputs: unknown field\(s\) "namespacePrefix"/),
    ]);
  });

  it("refuses a request below the vCluster's own footprint, naming the minimum it needs", async () => {
    const error = await rejection(service.create("atlas", asked({ cpu: "3", memory: "2Gi" }), alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    const problem = (error as errors.RequestInvalidError).problems.find((p) => p.startsWith("resources.memory:"));
    const minimumMi = Number(problem?.match(/vCluster's own containers \((\d+)Mi/)?.[1]);
    expect(minimumMi).toBeGreaterThan(2048);
    expect(await nothingStored()).toBe(true);
    // The minimum named is the one that holds.
    expect(() => service.check("atlas", asked({ cpu: "3", memory: `${minimumMi}Mi` }), alice)).not.toThrow();
    expect(() => service.check("atlas", asked({ cpu: "3", memory: `${minimumMi - 1}Mi` }), alice)).toThrow(
      errors.RequestInvalidError,
    );
  });

  it("refuses a resume of a tenant with no stored request", async () => {
    const error = await rejection(service.create("atlas", undefined, alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    expect(await nothingStored()).toBe(true);
  });

  it("lets only an admin request a tenant for another owner", async () => {
    const error = await rejection(service.create("borealis", asked(undefined, { owner: bob.owner }), alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    expect((error as errors.RequestInvalidError).problems).toEqual([expect.stringMatching(/^owner:/)]);
    expect(await nothingStored()).toBe(true);

    const tenant = await service.create("borealis", asked(undefined, { owner: bob.owner }), admin);
    expect(tenant.spec).toMatchObject({ owner: bob.owner });
    expect(await service.get("borealis", bob)).toEqual(tenant);
  });

  it("resumes the stored request when given none, and refuses a different one, changing nothing", async () => {
    await service.create("atlas", asked(), alice);
    later();
    const resumed = await service.create("atlas", undefined, alice);
    expect(resumed.status.phase).toBe("Ready");
    later();
    const again = await service.create("atlas", asked(), alice);
    expect(again.status.phase).toBe("Ready");
    const ups = stacks.callsOf("up", "atlas");
    expect(ups.map((call) => call.program?.request)).toEqual([again.spec, again.spec, again.spec]);

    const file = store.fileOf("atlas")!;
    const [text, journalsBefore] = [readFileSync(file, "utf8"), readdirSync(path.join(runs.dir, "atlas"))];
    const error = await rejection(service.create("atlas", asked({ cpu: "8", memory: "16Gi" }), alice));
    expect(error).toBeInstanceOf(errors.RequestConflictError);
    expect(error.message).toContain(file);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(readdirSync(path.join(runs.dir, "atlas"))).toEqual(journalsBefore);
    expect(stacks.callsOf("up")).toHaveLength(3);
    expect((await service.get("atlas", alice)).status.phase).toBe("Ready");
  });

  it("with the generation its caller checked, runs that request only: a stored one at another generation, or none, is refused and nothing runs or is stored", async () => {
    const first = await service.create("atlas", asked(), alice);
    later();
    const checked = { checkedGeneration: first.metadata.generation };
    expect((await service.create("atlas", first.spec, alice, checked)).status.phase).toBe("Ready");

    const changed = await rejection(
      service.create("atlas", first.spec, alice, { checkedGeneration: first.metadata.generation + 1 }),
    );
    expect(changed).toBeInstanceOf(errors.RequestChangedError);
    expect(changed.message).toMatch(
      /changed since generation 2 was checked \(it is at generation 1\); nothing was run/,
    );
    expect(stacks.callsOf("up")).toHaveLength(2);

    const gone = await rejection(service.create("borealis", asked(), alice, { checkedGeneration: 1 }));
    expect(gone).toBeInstanceOf(errors.RequestChangedError);
    expect(await store.get("borealis")).toBeUndefined();
    expect(stacks.callsOf("up", "borealis")).toEqual([]);
  });

  it("refuses its request when a caller beside it stored another one first, running nothing", async () => {
    const theirs = { ...asked({ cpu: "8", memory: "16Gi" }), owner: alice.owner };
    const beside = new FileRequestStore(store.dir);
    // The store as this create sees it: the other caller's add lands just before this one's.
    const racing = Object.assign(new FileRequestStore(store.dir), {
      add: async (name: string, spec: TenantRequestInput) => (await beside.add(name, theirs), beside.add(name, spec)),
    });
    const racingService = new TenantsService({ requests: racing, runs, stacks, host }, { policy: {} });
    const error = await rejection(racingService.create("atlas", asked(), alice));
    expect(error).toBeInstanceOf(errors.RequestConflictError);
    expect((await store.get("atlas"))?.spec).toEqual(theirs);
    expect(stacks.callsOf("up")).toEqual([]);
  });

  it("fails with the reason of the engine's Failed event, shows it until a later create makes the tenant Ready", async () => {
    const failure = {
      reason: "QuotaFailed" as const,
      detail: 'resourcequotas "atlas-quota" is forbidden: exceeded quota',
    };
    stacks.failNextUp("atlas", failure);
    const error = await rejection(service.create("atlas", asked(), alice));
    expect(error).toBeInstanceOf(errors.TenantFailedError);
    expect(error).toMatchObject({ tenant: "atlas", reason: failure.reason, detail: failure.detail });

    const failed = await serviceOver().get("atlas", alice);
    expect(failed.status).toMatchObject({ phase: "Failed", message: failure.detail, observedGeneration: 1 });
    expect(failed.status.conditions).toEqual([
      expect.objectContaining({ status: "False", reason: failure.reason, message: failure.detail }),
    ]);
    expect(failed.status.apiServerUrl).toBeUndefined();

    later();
    expect((await service.create("atlas", undefined, alice)).status.phase).toBe("Ready");
    expect((await service.get("atlas", alice)).status.conditions[0]).toMatchObject({
      status: "True",
      reason: "Provisioned",
    });
  });

  it("stops at once when interrupted, keeping the request as Pending (Interrupted), and a re-run finishes", async () => {
    const gate = stacks.blockNext("atlas");
    const stop = new AbortController();
    const creating = rejection(service.create("atlas", asked(), alice, { signal: stop.signal }));
    await gate.reached;
    expect((await serviceOver().get("atlas", alice)).status).toMatchObject({
      phase: "Provisioning",
      conditions: [expect.objectContaining({ status: "Unknown" })],
    });

    stop.abort();
    const error = await creating;
    expect(error).toBeInstanceOf(errors.InterruptedError);
    expect(error).toMatchObject({ tenant: "atlas" });
    expect(await store.get("atlas")).toBeDefined();
    const interrupted = await service.get("atlas", alice);
    expect(interrupted.status).toMatchObject({
      phase: "Pending",
      conditions: [expect.objectContaining({ status: "Unknown", reason: "Interrupted" })],
    });

    later();
    expect((await service.create("atlas", undefined, alice)).status.phase).toBe("Ready");
  });

  it("fails with errors.HostUnavailableError, running nothing, when the host is not there", async () => {
    const unavailable = new errors.HostUnavailableError("the local test bed is not running; start it");
    host.failWith(unavailable);
    await expect(service.create("atlas", asked(), alice)).rejects.toBe(unavailable);
    expect(host.resolves).toBe(1);
    expect(stacks.calls).toEqual([]);
  });

  // The request is stored before the host is reached (so that it can be read from the first
  // step on), and kept when the host is not there: nothing is lost, and the next create resumes it.
  it("keeps the request, Pending with no run, when the host is not there, and a later create resumes it", async () => {
    host.failWith(new errors.HostUnavailableError("the local test bed is not running; start it"));
    await expect(service.create("atlas", asked(), alice)).rejects.toBeInstanceOf(errors.HostUnavailableError);
    const pending = await service.get("atlas", alice);
    expect(pending.status).toMatchObject({ phase: "Pending", conditions: [{ reason: "Pending" }] });
    expect(stacks.calls).toEqual([]);
    host.failWith(undefined);
    expect((await service.create("atlas", undefined, alice)).status.phase).toBe("Ready");
  });

  // A run that never reached the host is not recorded: the tenant's status is its last real run's.
  it("leaves a Ready tenant's status alone when a create or delete could not reach the host", async () => {
    const ready = await service.create("atlas", asked(), alice);
    host.failWith(new errors.HostUnavailableError("the host is not there"));
    later();
    await expect(service.create("atlas", undefined, alice)).rejects.toBeInstanceOf(errors.HostUnavailableError);
    later();
    await expect(service.delete("atlas", alice)).rejects.toBeInstanceOf(errors.HostUnavailableError);
    expect((await service.get("atlas", alice)).status).toEqual(ready.status);
  });

  // A stored request is read back verbatim: "${X}" in a team's annotation is its text, not a variable.
  it("stores a request holding ${...} as it is, and lists it", async () => {
    const request = asked(undefined, {
      vcluster: { valuesOverrides: { controlPlane: { statefulSet: { annotations: { note: "${X}" } } } } },
    });
    expect((await service.create("atlas", request, alice)).status.phase).toBe("Ready");
    expect(await service.list(bob)).toEqual([]);
  });

  it("runs creates of two tenants at once, neither waiting for the other", async () => {
    const gate = stacks.blockNext("atlas");
    let atlasDone = false;
    const atlas = service.create("atlas", asked(), alice).finally(() => (atlasDone = true));
    await gate.reached;
    const borealis = await service.create("borealis", asked(), bob);
    expect(borealis.status.phase).toBe("Ready");
    expect(atlasDone).toBe(false);
    expect((await service.list(admin, { all: true })).map((t) => [t.metadata.name, t.status.phase])).toEqual([
      ["atlas", "Provisioning"],
      ["borealis", "Ready"],
    ]);
    gate.release();
    expect((await atlas).status.phase).toBe("Ready");
  });
});

describe("a tenant asked for asleep", () => {
  it("is refused while it has no stack, naming sleep, before anything is stored: it starts awake", async () => {
    const error = await rejection(service.create("team-atlas", asked(undefined, { sleep: true }), alice));
    expect(error).toBeInstanceOf(errors.RequestInvalidError);
    expect((error as errors.RequestInvalidError).problems).toEqual([
      "sleep: must not be true for a new tenant (it starts awake; put it to sleep once it is Ready)",
    ]);
    expect(await nothingStored()).toBe(true);
    expect(stacks.callsOf("up")).toEqual([]);
  });
});

describe("preview", () => {
  it("returns the steps of a create without storing or recording anything, and refuses an invalid request", async () => {
    const steps = await service.preview("atlas", asked(), alice);
    expect(steps.map((s) => s.op)).toEqual(steps.map(() => "create"));
    expect(steps.length).toBeGreaterThan(0);
    expect(await nothingStored()).toBe(true);
    expect(stacks.has("atlas")).toBe(false);
    await expect(service.preview("atlas", asked({ cpu: "lots" }), alice)).rejects.toBeInstanceOf(
      errors.RequestInvalidError,
    );
    await expect(service.preview("atlas", undefined, alice)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
  });
});

describe("delete", () => {
  it("tears the stack down, then removes the request and the journals, returning the teardown's steps", async () => {
    await service.create("atlas", asked(), alice);
    later();
    const planned = await service.preview("atlas", undefined, alice);
    expect(planned.length).toBeGreaterThan(0);
    const events: TenantEvent[] = [];
    const result = await service.delete("atlas", alice, { onEvent: (e) => events.push(e) });
    expect(result).toEqual({ removed: planned, withdrawn: false });
    expect(phasesOf(events)).toEqual(["Deleting", "Deleted"]);
    expect(stacks.has("atlas")).toBe(false);
    expect(await store.get("atlas")).toBeUndefined();
    expect(existsSync(path.join(runs.dir, "atlas"))).toBe(false);
    await expect(serviceOver().get("atlas", alice)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
  });

  it("only withdraws a request that was never provisioned", async () => {
    await store.add("atlas", { owner: alice.owner });
    expect(await service.delete("atlas", alice)).toEqual({ removed: [], withdrawn: true });
    expect(stacks.callsOf("destroy")).toEqual([]);
    expect(host.resolves).toBe(0);
    expect(await store.get("atlas")).toBeUndefined();
  });

  it("keeps the request as Deleting when interrupted, and a re-run finishes the teardown", async () => {
    await service.create("atlas", asked(), alice);
    later();
    const gate = stacks.blockNext("atlas");
    const stop = new AbortController();
    const deleting = rejection(service.delete("atlas", alice, { signal: stop.signal }));
    await gate.reached;
    expect((await serviceOver().get("atlas", alice)).status.phase).toBe("Deleting");
    stop.abort();
    expect(await deleting).toBeInstanceOf(errors.InterruptedError);

    expect(await store.get("atlas")).toBeDefined();
    expect(stacks.has("atlas")).toBe(true);
    const half = await service.get("atlas", alice);
    expect(half.status).toMatchObject({
      phase: "Deleting",
      conditions: [expect.objectContaining({ status: "False", reason: "Deleting" })],
    });

    later();
    const rest = await service.preview("atlas", undefined, alice);
    expect(await service.delete("atlas", alice)).toEqual({ removed: rest, withdrawn: false });
    expect(stacks.has("atlas")).toBe(false);
    await expect(service.get("atlas", alice)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
  });

  it("refuses an admin a stack the store holds no request for, never tearing it down", async () => {
    stacks.addStray("ghost");
    await expect(service.delete("ghost", admin)).rejects.toBeInstanceOf(errors.OperationRefusedError);
    expect(stacks.callsOf("destroy")).toEqual([]);
    expect(stacks.has("ghost")).toBe(true);
  });

  it("tells a team nothing of a stack the store holds no request for (NotFound), and leaves it", async () => {
    stacks.addStray("ghost");
    await expect(service.delete("ghost", alice)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
    expect(stacks.callsOf("destroy")).toEqual([]);
    expect(stacks.has("ghost")).toBe(true);
  });

  it("is NotFound for a tenant with neither a request nor a stack", async () => {
    await expect(service.delete("nowhere", admin)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
  });
});

describe("who may see a tenant", () => {
  beforeEach(async () => {
    await service.create("atlas", asked(), alice);
  });

  it.each<[string, (s: TenantsService, name: string) => Promise<unknown>]>([
    ["get", (s, name) => s.get(name, bob)],
    ["kubeconfig", (s, name) => s.kubeconfig(name, bob)],
    ["delete", (s, name) => s.delete(name, bob)],
    ["watch", (s, name) => s.watch(name, bob).next()],
    ["preview a teardown", (s, name) => s.preview(name, undefined, bob)],
  ])(
    "another team's %s is NotFound, as for a tenant that does not exist, and changes nothing",
    async (_, operation) => {
      const theirs = await rejection(operation(service, "atlas"));
      const nobodys = await rejection(operation(service, "nowhere"));
      expect(theirs).toBeInstanceOf(errors.TenantNotFoundError);
      expect(theirs.message).toBe(nobodys.message.replace("nowhere", "atlas"));
      expect(stacks.callsOf("destroy")).toEqual([]);
      expect((await service.get("atlas", alice)).status.phase).toBe("Ready");
    },
  );

  it("another team's create of it (resume or request) is NotFound and runs nothing", async () => {
    for (const request of [undefined, asked()])
      await expect(service.create("atlas", request, bob)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
    expect(stacks.callsOf("up")).toHaveLength(1);
  });

  it("lists a team's own tenants only, even with all; an admin sees every tenant", async () => {
    await service.create("borealis", asked(), bob);
    const names = async (actor: Actor, all?: boolean) =>
      (await service.list(actor, { all })).map((t) => t.metadata.name);
    expect(await names(bob)).toEqual(["borealis"]);
    expect(await names(bob, true)).toEqual(["borealis"]);
    expect(await names(admin)).toEqual([]);
    expect(await names(admin, true)).toEqual(["atlas", "borealis"]);
  });

  it("an admin may get, read the kubeconfig of and delete another's tenant", async () => {
    expect((await service.get("atlas", admin)).spec).toMatchObject({ owner: alice.owner });
    expect(await service.kubeconfig("atlas", admin)).toBe(kubeconfigOf("atlas"));
    later();
    expect((await service.delete("atlas", admin)).withdrawn).toBe(false);
    expect(stacks.has("atlas")).toBe(false);
  });
});

describe("kubeconfig", () => {
  it("is NotReady, with the phase, before the tenant is Ready, and the stack's afterwards", async () => {
    await store.add("atlas", { owner: alice.owner });
    const pending = await rejection(service.kubeconfig("atlas", alice));
    expect(pending).toBeInstanceOf(errors.TenantNotReadyError);
    expect(pending).toMatchObject({ tenant: "atlas", phase: "Pending" });

    const gate = stacks.blockNext("atlas");
    const creating = service.create("atlas", undefined, alice);
    await gate.reached;
    expect(await rejection(service.kubeconfig("atlas", alice))).toMatchObject({ phase: "Provisioning" });
    gate.release();
    await creating;
    expect(await service.kubeconfig("atlas", alice)).toBe(kubeconfigOf("atlas"));
  });

  it.each([
    ["exec", "{exec: {apiVersion: client.authentication.k8s.io/v1, command: /tmp/run-me}}"],
    ["auth-provider", "{auth-provider: {name: oidc, config: {cmd-path: /tmp/run-me}}}"],
  ])("refuses a kubeconfig whose user has %s, naming the user and not the command", async (_, user) => {
    await service.create("atlas", asked(), alice);
    stacks.setKubeconfig("atlas", `apiVersion: v1\nkind: Config\nusers: [{name: sneaky, user: ${user}}]\n`);
    const error = await rejection(service.kubeconfig("atlas", alice));
    expect(error).toBeInstanceOf(errors.OperationRefusedError);
    expect(error.message).toContain("sneaky");
    expect(error.message).not.toContain("/tmp/run-me");
  });

  it("hands a create's caller the kubeconfig its update output, with no second read", async () => {
    const handed: string[] = [];
    await service.create("atlas", asked(), alice, { onKubeconfig: (k) => handed.push(k) });
    expect(handed).toEqual([kubeconfigOf("atlas")]);
    expect(stacks.calls.filter((call) => call.op === "kubeconfig")).toEqual([]);
  });

  it("does not hand a create's caller a kubeconfig that kubeconfig() would refuse", async () => {
    await service.create("atlas", asked(), alice);
    stacks.setKubeconfig(
      "atlas",
      "apiVersion: v1\nkind: Config\nusers: [{name: sneaky, user: {exec: {command: /tmp/run-me}}}]\n",
    );
    const handed: string[] = [];
    await service.create("atlas", undefined, alice, { onKubeconfig: (k) => handed.push(k) });
    expect(handed).toEqual([]);
  });
});

describe("watch", () => {
  it("follows another process's create: the events so far, then the rest, ending with the run", async () => {
    const gate = stacks.blockNext("atlas");
    const seen: TenantEvent[] = [];
    const creating = service.create("atlas", asked(), alice, { onEvent: (e) => seen.push(e) });
    await gate.reached;
    const sofar = seen.length;
    expect(phasesOf(seen)).toEqual(["Pending", "Provisioning"]);

    const watching = serviceOver().watch("atlas", alice)[Symbol.asyncIterator]();
    const first: TenantEvent[] = [];
    for (let i = 0; i < sofar; i++) first.push((await watching.next()).value as TenantEvent);
    expect(first).toEqual(seen.slice(0, sofar));

    gate.release();
    const next = await watching.next();
    expect(next).toEqual({ done: false, value: seen[sofar] });
    const rest = await drain(watching);
    await creating;
    expect([...first, next.value, ...rest]).toEqual(seen);
    expect(phasesOf(rest).at(-1)).toBe("Ready");
  });

  it("ends at once when no run of the tenant is going", async () => {
    await service.create("atlas", asked(), alice);
    expect(await drain(serviceOver().watch("atlas", alice)[Symbol.asyncIterator]())).toEqual([]);
  });
});

describe("run journals", () => {
  /** Journals that record the order of each run's calls, over the real ones. */
  function recordingJournals(calls: string[]): RunJournals {
    const inner = new FileRunJournals(runs.dir);
    return {
      start: (name, operation, generation): RunRecorder => {
        const recorder = inner.start(name, operation, generation);
        return {
          event: (e) => (calls.push(`event ${e.phase ?? ""}`), recorder.event(e)),
          end: (o) => (calls.push("end"), recorder.end(o)),
        };
      },
      latest: (name) => inner.latest(name),
      follow: (name, signal) => inner.follow(name, signal),
      forget: (name) => inner.forget(name),
    };
  }

  // RunRecorder.end is the last call (ports.ts): a follower in another process stops at the end line.
  it.each([
    ["create", (s: TenantsService) => s.create("atlas", asked(), alice)],
    [
      "delete",
      async (s: TenantsService) => (await s.create("atlas", asked(), alice), later(), await s.delete("atlas", alice)),
    ],
  ])("ends a %s run's journal with its end line", async (_, operation) => {
    const calls: string[] = [];
    await operation(serviceOver(recordingJournals(calls)));
    expect(calls.at(-1)).toBe("end");
  });

  // Two runs of a tenant in one millisecond (the clock is frozen here) have journals of their own.
  it("records a run that starts in the same millisecond as the tenant's last one as its own", async () => {
    stacks.failNextUp("atlas", { reason: "QuotaFailed", detail: "exceeded quota" });
    await expect(service.create("atlas", asked(), alice)).rejects.toBeInstanceOf(errors.TenantFailedError);
    expect((await service.create("atlas", undefined, alice)).status.phase).toBe("Ready");
  });
});

describe("a create and a delete of one tenant", () => {
  it("refuses a create while a delete of the tenant runs, changing nothing", async () => {
    await service.create("atlas", asked(), alice);
    later();
    const gate = stacks.blockNext("atlas");
    const deleting = service.delete("atlas", alice);
    await gate.reached;
    await expect(service.create("atlas", undefined, alice)).rejects.toBeInstanceOf(errors.RequestConflictError);
    expect(stacks.callsOf("up", "atlas")).toHaveLength(1);
    gate.release();
    await deleting;
    await expect(service.get("atlas", alice)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
  });

  it("a create whose request a delete removed while it waited for the stack is refused as such, not as a failure", async () => {
    // The stack's program checks the request under the lock; the delete got there first.
    const realUp = stacks.up.bind(stacks);
    stacks.up = async (name, program, run) => {
      await store.remove(name);
      return realUp(name, program, run);
    };
    const error = await rejection(service.create("atlas", asked(), alice));
    expect(error).toBeInstanceOf(errors.OperationRefusedError);
    expect(error.message).toContain("was deleted while this create waited for its stack; nothing was changed");
  });
});

describe("names that are no tenant's", () => {
  it.each(["org/other-project/prod", "..", "Team", "a".repeat(64)])(
    "%s reaches no port: NotFound for get, delete, kubeconfig",
    async (name) => {
      await expect(service.get(name, admin)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
      await expect(service.delete(name, admin)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
      await expect(service.kubeconfig(name, admin)).rejects.toBeInstanceOf(errors.TenantNotFoundError);
      expect(stacks.calls).toEqual([]);
    },
  );
});

describe("a stack this door did not make", () => {
  it("is not taken over by a create of the same name: refused, the request taken back, nothing run", async () => {
    stacks.addStray("ghost");
    const error = await rejection(service.create("ghost", asked(), admin));
    expect(error).toBeInstanceOf(errors.OperationRefusedError);
    expect(error.message).toContain("already has a stack in the state backend that this door did not make");
    expect(await store.get("ghost")).toBeUndefined();
    expect(stacks.callsOf("up")).toEqual([]);
    expect(stacks.has("ghost")).toBe(true);
  });

  it("is this door's own once it ran it: a create after the request was removed by hand updates it", async () => {
    await service.create("atlas", asked(), alice);
    await store.remove("atlas");
    later();
    expect((await service.create("atlas", asked(), alice)).status.phase).toBe("Ready");
    expect(stacks.callsOf("up", "atlas")).toHaveLength(2);
  });
});
