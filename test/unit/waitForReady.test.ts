/** The readiness wait against an in-process fake of the two watched objects. */
import { describe, expect, it } from "vitest";
import { ReadinessTimeoutError, waitForReady } from "../../provider/lifecycle/readiness/waitForReady";
import { deploymentReady, missingParts, statefulSetReady } from "../../provider/lifecycle/readiness/readinessState";
import { FakeObjectStream } from "./support/fakeObjectStream";

const ns = "kubespaces-tenant-team-atlas";
const target = { namespace: ns, releaseName: "team-atlas" };
const fast = { initialMs: 5, maxMs: 20 };
const kubeconfig = "apiVersion: v1\nkind: Config\n";
const secret = { data: { config: Buffer.from(kubeconfig).toString("base64") } };
const statefulSet = (ready: number, generation = 1, observed = generation) => ({
  metadata: { generation },
  spec: { replicas: 1 },
  status: { observedGeneration: observed, readyReplicas: ready, currentRevision: "r1", updateRevision: "r1" },
});
const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

describe("waitForReady", () => {
  it("finishes when the StatefulSet is ready and the Secret holds the kubeconfig, in either order", async () => {
    const stream = new FakeObjectStream();
    const progress: string[] = [];
    const wait = waitForReady(stream, target, { timeoutMs: 5000, onProgress: (m) => progress.push(m), backoff: fast });
    await tick(10);
    stream.put("Secret", ns, "vc-team-atlas", secret);
    await tick(10);
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(0));
    await tick(10);
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1));
    const ready = await wait;
    expect(ready.kubeconfig).toBe(kubeconfig);
    expect(progress).toContain("waiting for StatefulSet (or Deployment) team-atlas not found");
    expect(progress).toContain("waiting for StatefulSet team-atlas 0/1 ready");
    expect(stream.openWatches).toBe(0);
  });

  it("finishes at once when everything is already there, with one list and one watch per object", async () => {
    const stream = new FakeObjectStream();
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1));
    stream.put("Secret", ns, "vc-team-atlas", secret);
    await waitForReady(stream, target, { timeoutMs: 5000, backoff: fast });
    expect(stream.requests).toBeLessThanOrEqual(6);
  });

  it("follows a Deployment when the chart renders one", async () => {
    const stream = new FakeObjectStream();
    stream.put("Secret", ns, "vc-team-atlas", secret);
    const wait = waitForReady(stream, target, { timeoutMs: 5000, backoff: fast });
    await tick(10);
    stream.put("Deployment", ns, "team-atlas", { ...statefulSet(1), status: { observedGeneration: 1, readyReplicas: 1, updatedReplicas: 1, replicas: 1 } });
    expect((await wait).kubeconfig).toBe(kubeconfig);
  });

  it("does not count a StatefulSet whose new generation is not yet observed", async () => {
    const stream = new FakeObjectStream();
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1, 2, 1));
    stream.put("Secret", ns, "vc-team-atlas", secret);
    const wait = waitForReady(stream, target, { timeoutMs: 100, backoff: fast });
    await expect(wait).rejects.toThrow("StatefulSet team-atlas 1/1 ready, generation not yet observed");
  });

  it("fails at the deadline naming everything still missing", async () => {
    const stream = new FakeObjectStream();
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(0));
    const wait = waitForReady(stream, target, { timeoutMs: 80, backoff: fast });
    await expect(wait).rejects.toThrow(ReadinessTimeoutError);
    await expect(wait).rejects.toThrow("not ready after 0s: StatefulSet team-atlas 0/1 ready; Secret vc-team-atlas not found");
    expect(stream.openWatches).toBe(0);
  });

  it("names a Secret without the kubeconfig key", async () => {
    const stream = new FakeObjectStream();
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1));
    stream.put("Secret", ns, "vc-team-atlas", { data: { token: "eA==" } });
    await expect(waitForReady(stream, target, { timeoutMs: 50, backoff: fast })).rejects.toThrow('Secret vc-team-atlas has no key "config"');
  });

  it("recovers when the API server goes down and comes back while it waits", async () => {
    const stream = new FakeObjectStream();
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(0));
    const wait = waitForReady(stream, target, { timeoutMs: 5000, backoff: fast });
    await tick(10);
    stream.crash();
    await tick(50);
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1));
    stream.put("Secret", ns, "vc-team-atlas", secret);
    stream.restart();
    expect((await wait).kubeconfig).toBe(kubeconfig);
  });

  it("reports the last API error when the server never comes back", async () => {
    const stream = new FakeObjectStream();
    stream.crash();
    await expect(waitForReady(stream, target, { timeoutMs: 60, backoff: fast })).rejects.toThrow("last API error: connect ECONNREFUSED");
  });

  it("notices a Secret deleted again before the StatefulSet is ready", async () => {
    const stream = new FakeObjectStream();
    stream.put("Secret", ns, "vc-team-atlas", secret);
    const wait = waitForReady(stream, target, { timeoutMs: 100, backoff: fast });
    await tick(10);
    stream.remove("Secret", ns, "vc-team-atlas");
    stream.put("StatefulSet", ns, "team-atlas", statefulSet(1));
    await expect(wait).rejects.toThrow("Secret vc-team-atlas not found");
  });
});

describe("readiness state", () => {
  const names = { workload: "team-atlas", secret: "vc-team-atlas", secretKey: "config" };
  const deployment = (ready: number, updated = ready, total = updated) => ({
    metadata: { generation: 3 },
    spec: { replicas: 1 },
    status: { observedGeneration: 3, readyReplicas: ready, updatedReplicas: updated, replicas: total },
  });

  it("waits for a rolling update of the StatefulSet to finish", () => {
    const rolling = { ...statefulSet(1), status: { ...statefulSet(1).status, updateRevision: "r2" } };
    expect(statefulSetReady(rolling)).toBe(false);
    expect(missingParts({ statefulSet: rolling, deployment: null, secret }, names)).toEqual([
      "StatefulSet team-atlas 1/1 ready, rolling update in progress",
    ]);
  });

  it("accepts the Deployment form the chart renders without persistence", () => {
    expect(deploymentReady(deployment(1))).toBe(true);
    expect(missingParts({ statefulSet: null, deployment: deployment(1), secret }, names)).toEqual([]);
  });

  it("waits while old Deployment replicas still run", () => {
    expect(deploymentReady(deployment(1, 1, 2))).toBe(false);
    expect(missingParts({ statefulSet: null, deployment: deployment(1, 1, 2), secret }, names)).toEqual([
      "Deployment team-atlas 1/1 ready, rolling update in progress",
    ]);
  });

  it("is empty when the workload and the Secret are ready", () => {
    expect(missingParts({ statefulSet: statefulSet(1), deployment: null, secret }, names)).toEqual([]);
  });

  it("says what has not been read yet, and what does not exist", () => {
    expect(missingParts({ statefulSet: undefined, deployment: null, secret: null }, names)).toEqual([
      "StatefulSet team-atlas not read yet",
      "Secret vc-team-atlas not found",
    ]);
    expect(missingParts({ statefulSet: null, deployment: null, secret }, names)).toEqual(["StatefulSet (or Deployment) team-atlas not found"]);
  });
});
