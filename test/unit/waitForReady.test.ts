/**
 * The readiness wait against an in-process fake API server. Time is vitest's fake clock and the
 * fake's explicit events (`watching`): no test waits on real time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ObservedObject, WatchedKind } from "../../provider/lifecycle/readiness/objectStream";
import {
  ReadinessTimeoutError,
  waitForReady,
  type ReadyCluster,
  type WaitOptions,
} from "../../provider/lifecycle/readiness/waitForReady";
import {
  deploymentReady,
  missingParts,
  statefulSetReady,
  type ReadinessObservation,
} from "../../provider/lifecycle/readiness/readinessState";
import { FakeObjectStream } from "./support/fakeObjectStream";

const ns = "kubespaces-tenant-team-atlas";
const target = { namespace: ns, releaseName: "team-atlas" };
/** The kinds the readiness wait follows. */
type ReadinessKind = Extract<WatchedKind, "StatefulSet" | "Deployment" | "Secret">;
const nameOf: Record<ReadinessKind, string> = {
  StatefulSet: "team-atlas",
  Deployment: "team-atlas",
  Secret: "vc-team-atlas",
};
const kubeconfig = "apiVersion: v1\nkind: Config\n";
const secret = { data: { config: Buffer.from(kubeconfig).toString("base64") } };
const statefulSet = (
  ready: number,
  {
    generation = 1,
    observed = generation,
    revision = "r1",
  }: { generation?: number; observed?: number; revision?: string } = {},
) => ({
  metadata: { generation },
  spec: { replicas: 1 },
  status: { observedGeneration: observed, readyReplicas: ready, currentRevision: "r1", updateRevision: revision },
});
const deployment = (ready: number, updated = ready, total = updated) => ({
  metadata: { generation: 3 },
  spec: { replicas: 1 },
  status: { observedGeneration: 3, readyReplicas: ready, updatedReplicas: updated, replicas: total },
});
const TRACKERS = 3; // StatefulSet, Deployment and Secret each have a tracker with its own watch
const DEADLINE = 120_000;
const NOT_FOUND = "StatefulSet (or Deployment) team-atlas not found; Secret vc-team-atlas not found";

/** Puts (or, for null, deletes) the tenant's object of `kind`. */
function put(stream: FakeObjectStream, kind: ReadinessKind, object: ObservedObject | null): void {
  if (object) stream.put(kind, ns, nameOf[kind], object);
  else stream.remove(kind, ns, nameOf[kind]);
}

/** Starts a wait and records its progress and outcome, so a test can look at both at any fake time. */
function start(stream: FakeObjectStream, options: Partial<WaitOptions> = {}) {
  const progress: string[] = [];
  const outcome: { value?: ReadyCluster; error?: unknown } = {};
  const wait = waitForReady(stream, target, {
    timeoutMs: DEADLINE,
    backoff: { initialMs: 1000, maxMs: 4000 },
    onProgress: (message) => progress.push(message),
    ...options,
  });
  wait.then(
    (value) => (outcome.value = value),
    (error: unknown) => (outcome.error = error),
  );
  return { wait, progress, outcome };
}

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe("waitForReady", () => {
  type Step = [ReadinessKind, ObservedObject | null, string];
  it.each<[string, Step[]]>([
    [
      "Secret first",
      [
        ["Secret", secret, "StatefulSet (or Deployment) team-atlas not found"],
        ["StatefulSet", statefulSet(0), "StatefulSet team-atlas 0/1 ready"],
        ["StatefulSet", statefulSet(1), "ready"],
      ],
    ],
    [
      "StatefulSet first",
      [
        ["StatefulSet", statefulSet(0), "StatefulSet team-atlas 0/1 ready; Secret vc-team-atlas not found"],
        ["StatefulSet", statefulSet(1), "Secret vc-team-atlas not found"],
        ["Secret", secret, "ready"],
      ],
    ],
    [
      "Deployment form",
      [
        ["Deployment", deployment(0), "Deployment team-atlas 0/1 ready; Secret vc-team-atlas not found"],
        ["Secret", secret, "Deployment team-atlas 0/1 ready"],
        ["Deployment", deployment(1), "ready"],
      ],
    ],
    [
      "Secret deleted again",
      [
        ["Secret", secret, "StatefulSet (or Deployment) team-atlas not found"],
        ["Secret", null, NOT_FOUND],
        ["StatefulSet", statefulSet(1), "Secret vc-team-atlas not found"],
        ["Secret", secret, "ready"],
      ],
    ],
  ])("follows the objects as they change (%s) and finishes once both are ready", async (_, steps) => {
    const stream = new FakeObjectStream();
    const { wait, progress } = start(stream);
    await stream.watching(TRACKERS);
    expect(progress).toEqual([`waiting for ${NOT_FOUND}`]);
    for (const [kind, object, expected] of steps) {
      await vi.advanceTimersByTimeAsync(1000);
      put(stream, kind, object);
      if (expected === "ready") break;
      expect(progress.at(-1)).toBe(`waiting for ${expected}`);
      expect(stream.openWatches).toBe(TRACKERS); // still waiting
    }
    expect(stream.openWatches).toBe(0);
    expect(await wait).toEqual({ kubeconfig, elapsedMs: steps.length * 1000 });
    expect(vi.getTimerCount()).toBe(0); // deadline, heartbeat and backoff timers all cleared
  });

  it("finishes at once when everything is already there, with at most one list and one watch per object", async () => {
    const stream = new FakeObjectStream();
    put(stream, "StatefulSet", statefulSet(1));
    put(stream, "Secret", secret);
    expect(await start(stream).wait).toEqual({ kubeconfig, elapsedMs: 0 });
    expect(stream.requests).toBeLessThanOrEqual(2 * TRACKERS);
    await vi.advanceTimersByTimeAsync(0); // the last tracker's watch opens after the finish and is closed at once
    expect(stream.openWatches).toBe(0);
  });

  it("misses no change made between its first list and its watch", async () => {
    const stream = new FakeObjectStream();
    const { outcome } = start(stream); // the lists are answered synchronously: nothing there yet
    put(stream, "StatefulSet", statefulSet(1));
    put(stream, "Secret", secret);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome).toEqual({ value: { kubeconfig, elapsedMs: 0 } });
  });

  it.each<[string, Partial<Record<WatchedKind, ObservedObject>> | "down", string]>([
    [
      "the new generation is not yet observed",
      { StatefulSet: statefulSet(1, { generation: 2, observed: 1 }), Secret: secret },
      "StatefulSet team-atlas 1/1 ready, generation not yet observed",
    ],
    [
      "the StatefulSet is rolling",
      { StatefulSet: statefulSet(1, { revision: "r2" }), Secret: secret },
      "StatefulSet team-atlas 1/1 ready, rolling update in progress",
    ],
    [
      "old Deployment replicas still run",
      { Deployment: deployment(1, 1, 2), Secret: secret },
      "Deployment team-atlas 1/1 ready, rolling update in progress",
    ],
    [
      "the Secret is missing",
      { StatefulSet: statefulSet(0) },
      "StatefulSet team-atlas 0/1 ready; Secret vc-team-atlas not found",
    ],
    [
      "the Secret lacks the key",
      { StatefulSet: statefulSet(1), Secret: { data: { token: "eA==" } } },
      'Secret vc-team-atlas has no key "config"',
    ],
    ["nothing exists", {}, NOT_FOUND],
    [
      "the API server never answers",
      "down",
      "StatefulSet team-atlas not read yet; Secret vc-team-atlas not read yet (last API error: connect ECONNREFUSED 127.0.0.1:6443)",
    ],
  ])("fails exactly at the deadline when %s, naming what is missing", async (_, objects, missing) => {
    const stream = new FakeObjectStream();
    if (objects === "down") stream.crash();
    else for (const [kind, object] of Object.entries(objects)) put(stream, kind as ReadinessKind, object);
    const { outcome } = start(stream);
    await vi.advanceTimersByTimeAsync(DEADLINE - 1);
    expect(outcome).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.error).toBeInstanceOf(ReadinessTimeoutError);
    expect((outcome.error as Error).message).toBe(`virtual cluster not ready after 120s: ${missing}`);
    expect(stream.openWatches).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("reports progress only once every object is read, then on change and every heartbeat", async () => {
    const stream = new FakeObjectStream();
    put(stream, "StatefulSet", statefulSet(0));
    const { progress } = start(stream); // default heartbeat: 30 s
    await stream.watching(TRACKERS);
    // The StatefulSet is read before the others: "Secret not read yet" must not be reported.
    const waiting = ["waiting for StatefulSet team-atlas 0/1 ready; Secret vc-team-atlas not found"];
    expect(progress).toEqual(waiting);
    put(stream, "StatefulSet", statefulSet(0)); // a change that changes nothing missing
    await vi.advanceTimersByTimeAsync(29_999);
    expect(progress).toEqual(waiting);
    await vi.advanceTimersByTimeAsync(1);
    expect(progress).toEqual([...waiting, ...waiting]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(progress).toEqual([...waiting, ...waiting, ...waiting]);
  });

  it("reconnects with doubling backoff while the API server is down, and finishes once it is back", async () => {
    const stream = new FakeObjectStream();
    put(stream, "StatefulSet", statefulSet(0));
    const { outcome } = start(stream);
    await stream.watching(TRACKERS);
    stream.crash(); // every watch fails; lists are refused
    for (const delay of [1000, 2000, 4000, 4000]) {
      const before = stream.requests;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(stream.requests).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(stream.requests).toBe(before + TRACKERS); // one refused list per tracker
    }
    put(stream, "StatefulSet", statefulSet(1));
    put(stream, "Secret", secret);
    stream.restart();
    await vi.advanceTimersByTimeAsync(4000);
    expect(outcome).toEqual({ value: { kubeconfig, elapsedMs: 15_000 } });
    expect(stream.openWatches).toBe(0);
  });

  it("quotes no API error at the deadline when the API server has answered again since its restart", async () => {
    const stream = new FakeObjectStream();
    put(stream, "StatefulSet", statefulSet(0));
    const { outcome } = start(stream);
    await stream.watching(TRACKERS);
    stream.crash(); // watches fail; the relists at 1 s are refused, the next come at 3 s
    await vi.advanceTimersByTimeAsync(2500);
    stream.restart();
    await vi.advanceTimersByTimeAsync(1000);
    expect(stream.openWatches).toBe(TRACKERS); // every object answered for again
    await vi.advanceTimersByTimeAsync(DEADLINE - 3500);
    expect((outcome.error as Error).message).toBe(
      "virtual cluster not ready after 120s: StatefulSet team-atlas 0/1 ready; Secret vc-team-atlas not found",
    );
  });

  it("still quotes the error of an object the API server keeps refusing while it answers for the others", async () => {
    const stream = new FakeObjectStream();
    stream.refuse("Secret", 'secrets "vc-team-atlas" is forbidden');
    put(stream, "StatefulSet", statefulSet(0));
    const { outcome } = start(stream);
    await vi.advanceTimersByTimeAsync(DEADLINE - 1);
    put(stream, "StatefulSet", statefulSet(0, { generation: 2, observed: 1 })); // an answer after the Secret's last refusal
    await vi.advanceTimersByTimeAsync(1);
    expect((outcome.error as Error).message).toBe(
      'virtual cluster not ready after 120s: StatefulSet team-atlas 0/1 ready, generation not yet observed; Secret vc-team-atlas not read yet (last API error: secrets "vc-team-atlas" is forbidden)',
    );
  });

  it("lists and watches again at once when the server ends a watch", async () => {
    const stream = new FakeObjectStream();
    const { outcome } = start(stream);
    await stream.watching(TRACKERS);
    stream.endWatches();
    await stream.watching(TRACKERS); // no timer advanced: no backoff after a clean end
    expect(stream.requests).toBe(4 * TRACKERS);
    put(stream, "StatefulSet", statefulSet(1));
    put(stream, "Secret", secret);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome.value?.kubeconfig).toBe(kubeconfig);
  });
});

describe("readiness state", () => {
  const names = { workload: "team-atlas", secret: "vc-team-atlas", secretKey: "config" };

  it.each<[string, ReadinessObservation, string[]]>([
    ["a ready StatefulSet", { statefulSet: statefulSet(1), deployment: null, secret }, []],
    [
      "a ready Deployment (the chart without persistence)",
      { statefulSet: null, deployment: deployment(1), secret },
      [],
    ],
    [
      "a rolling StatefulSet",
      { statefulSet: statefulSet(1, { revision: "r2" }), deployment: null, secret },
      ["StatefulSet team-atlas 1/1 ready, rolling update in progress"],
    ],
    [
      "old Deployment replicas",
      { statefulSet: null, deployment: deployment(1, 1, 2), secret },
      ["Deployment team-atlas 1/1 ready, rolling update in progress"],
    ],
    [
      "objects not read yet or missing",
      { statefulSet: undefined, deployment: null, secret: null },
      ["StatefulSet team-atlas not read yet", "Secret vc-team-atlas not found"],
    ],
    [
      "no workload at all",
      { statefulSet: null, deployment: null, secret },
      ["StatefulSet (or Deployment) team-atlas not found"],
    ],
  ])("names what is missing with %s", (_, observation, missing) => {
    expect(missingParts(observation, names)).toEqual(missing);
  });

  it.each<[string, boolean, (workload: ObservedObject) => boolean, ObservedObject]>([
    ["a StatefulSet with all replicas ready", true, statefulSetReady, statefulSet(1)],
    ["a rolling StatefulSet", false, statefulSetReady, statefulSet(1, { revision: "r2" })],
    [
      "a StatefulSet whose generation is not yet observed",
      false,
      statefulSetReady,
      statefulSet(1, { generation: 2, observed: 1 }),
    ],
    ["a Deployment with all replicas ready", true, deploymentReady, deployment(1)],
    ["a Deployment with old replicas", false, deploymentReady, deployment(1, 1, 2)],
  ])("%s is ready: %s", (_, expected, ready, workload) => {
    expect(ready(workload)).toBe(expected);
  });
});
