/** A tenant's status from its stored request and its newest run, the same for every door. */
import { describe, expect, it } from "vitest";
import type { RunRecord, StoredRequest } from "../../provider/tenants/ports";
import type { ReadyCondition, TenantPhase } from "../../provider/tenants/tenantObject";
import { tenantObject, tenantStatus } from "../../provider/tenants/tenantStatus";

const request: StoredRequest = {
  name: "atlas",
  spec: { owner: "alice@example.com" },
  generation: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  location: "/tenants/atlas.yaml",
};
const STARTED = "2026-01-02T03:04:05.000Z";
const OUTPUTS = {
  namespace: "kubespaces-tenant-atlas",
  apiServerUrl: "https://atlas.example.com:443",
  appsDomain: "apps.atlas.example.com",
  readyMessage: "ready",
};

/** A run of tenant atlas for generation 2. */
const runOf = (fields: Partial<RunRecord>): RunRecord => ({
  operation: "create",
  startedAt: STARTED,
  generation: 2,
  running: false,
  events: [],
  ...fields,
});
const running = (operation: RunRecord["operation"], ...phases: (TenantPhase | "Deleted" | { detail: string })[]) =>
  runOf({
    operation,
    running: true,
    events: phases.map((p) => (typeof p === "string" ? { name: "atlas", phase: p } : { name: "atlas", ...p })),
  });

interface Expected {
  readonly phase: TenantPhase;
  readonly status: ReadyCondition["status"];
  readonly reason: ReadyCondition["reason"];
  readonly message: string | RegExp;
}

describe("tenantStatus", () => {
  it.each<[string, RunRecord | undefined, Expected]>([
    [
      "no run yet",
      undefined,
      { phase: "Pending", status: "Unknown", reason: "Pending", message: "requested; not provisioned yet" },
    ],
    [
      "a create that has not provisioned yet",
      running("create", "Pending"),
      { phase: "Pending", status: "Unknown", reason: "Pending", message: "a create is about to provision it" },
    ],
    [
      "a create provisioning, with its latest step",
      running(
        "create",
        "Pending",
        "Provisioning",
        { detail: "creating Namespace atlas-namespace" },
        { detail: "creating Release atlas-vcluster" },
      ),
      { phase: "Provisioning", status: "Unknown", reason: "Provisioning", message: "creating Release atlas-vcluster" },
    ],
    [
      "a create provisioning, no step told",
      running("create", "Pending", "Provisioning"),
      { phase: "Provisioning", status: "Unknown", reason: "Provisioning", message: "provisioning" },
    ],
    [
      "a delete running",
      running("delete", "Deleting"),
      { phase: "Deleting", status: "False", reason: "Deleting", message: "a teardown is running" },
    ],
    [
      "a create that succeeded",
      runOf({ outcome: { ok: true, message: "virtual cluster of tenant atlas is ready", outputs: OUTPUTS } }),
      { phase: "Ready", status: "True", reason: "Provisioned", message: "virtual cluster of tenant atlas is ready" },
    ],
    [
      "a create that failed with a reason",
      runOf({ outcome: { ok: false, reason: "NetworkingFailed", message: "the NetworkPolicy was refused" } }),
      { phase: "Failed", status: "False", reason: "NetworkingFailed", message: "the NetworkPolicy was refused" },
    ],
    [
      "a create that failed without one",
      runOf({ outcome: { ok: false, message: "error: boom" } }),
      { phase: "Failed", status: "False", reason: "ProvisioningFailed", message: "error: boom" },
    ],
    [
      "a create interrupted",
      runOf({ outcome: { ok: false, interrupted: true, message: "interrupted" } }),
      {
        phase: "Pending",
        status: "Unknown",
        reason: "Interrupted",
        message: /^the last create stopped before it finished; create it again/,
      },
    ],
    [
      "a create whose process died",
      runOf({ events: [{ name: "atlas", phase: "Provisioning" }] }),
      {
        phase: "Pending",
        status: "Unknown",
        reason: "Interrupted",
        message: /^the last create stopped before it finished/,
      },
    ],
    [
      "a delete interrupted",
      runOf({ operation: "delete", outcome: { ok: false, interrupted: true, message: "interrupted" } }),
      {
        phase: "Deleting",
        status: "False",
        reason: "Deleting",
        message: /^the last delete stopped before it finished; delete it again/,
      },
    ],
    [
      "a delete whose process died",
      runOf({ operation: "delete" }),
      { phase: "Deleting", status: "False", reason: "Deleting", message: /delete it again to finish the teardown/ },
    ],
    [
      "a delete that failed",
      runOf({ operation: "delete", outcome: { ok: false, message: "the namespace is stuck" } }),
      {
        phase: "Deleting",
        status: "False",
        reason: "Deleting",
        message: /the teardown failed: the namespace is stuck; delete it again/,
      },
    ],
  ])("%s", (_, run, { phase, status, reason, message }) => {
    const result = tenantStatus(request, run);
    expect(result.phase).toBe(phase);
    expect(result.conditions).toEqual([
      {
        type: "Ready",
        status,
        reason,
        message: result.message,
        observedGeneration: run ? 2 : 0,
        ...(run && { lastTransitionTime: STARTED }),
      },
    ]);
    if (typeof message === "string") expect(result.message).toBe(message);
    else expect(result.message).toMatch(message);
    expect(result.observedGeneration).toBe(run?.outcome ? 2 : undefined);
  });

  it("gives the endpoints of a successful create only", () => {
    const { readyMessage: _, ...endpoints } = OUTPUTS;
    expect(tenantStatus(request, runOf({ outcome: { ok: true, message: "ready", outputs: OUTPUTS } }))).toMatchObject(
      endpoints,
    );
    const failed = tenantStatus(request, runOf({ outcome: { ok: false, message: "boom" } }));
    expect([failed.apiServerUrl, failed.namespace, failed.appsDomain]).toEqual([undefined, undefined, undefined]);
    expect(
      tenantStatus(
        request,
        runOf({ outcome: { ok: true, message: "ready", outputs: { apiServerUrl: OUTPUTS.apiServerUrl } } }),
      ),
    ).not.toHaveProperty("appsDomain");
  });

  it("speaks of the generation its run was for", () => {
    const status = tenantStatus(request, runOf({ generation: 1, outcome: { ok: true, message: "ready" } }));
    expect(status.observedGeneration).toBe(1);
    expect(status.conditions[0].observedGeneration).toBe(1);
  });
});

describe("tenantObject", () => {
  it("is the Tenant with the stored request as its spec", () => {
    const run = runOf({ outcome: { ok: true, message: "ready", outputs: OUTPUTS } });
    expect(tenantObject(request, run)).toEqual({
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "atlas", generation: 2, creationTimestamp: request.createdAt },
      spec: request.spec,
      status: tenantStatus(request, run),
    });
  });

  it("has no creationTimestamp when the store does not know when the request came", () => {
    const { createdAt: _, ...unknownTime } = request;
    expect(tenantObject(unknownTime, undefined).metadata).toEqual({ name: "atlas", generation: 2 });
  });
});
