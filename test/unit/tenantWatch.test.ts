/**
 * What a change of a Tenant must be for the watch to ask for a reconcile (tenantWatch.ts's
 * reconcileKey): a change a reconcile acts on, never the server's own status writes.
 */
import { describe, expect, it } from "vitest";
import {
  APPROVED_GENERATION_ANNOTATION,
  APPROVED_SPEC_SHA256_ANNOTATION,
  PREVIEW_ONLY_ANNOTATION,
} from "../../provider/contracts/tenantResourceNames";
import { reconcileKey } from "../../provider/server/kube/tenantWatch";

const tenant = (metadata: object = {}, status: object = { phase: "Pending" }) => ({
  metadata: { name: "atlas", generation: 1, finalizers: ["kubespaces.io/finalizer"], ...metadata },
  status,
});

describe("the watch's reconcile key", () => {
  it("stays the same when only the status or an annotation the reconciler does not read changes", () => {
    const before = reconcileKey(tenant());
    expect(reconcileKey(tenant({}, { phase: "Ready", message: "ready" }))).toBe(before);
    expect(reconcileKey(tenant({ annotations: { "team.example/cost-center": "42" } }))).toBe(before);
  });

  it.each([
    ["a new generation", { generation: 2 }],
    ["a deletion", { deletionTimestamp: "2026-12-04T18:00:00Z" }],
    ["the finalizer gone", { finalizers: [] }],
    ["an approved generation", { annotations: { [APPROVED_GENERATION_ANNOTATION]: "1" } }],
    ["an approved spec", { annotations: { [APPROVED_SPEC_SHA256_ANNOTATION]: "ab".repeat(32) } }],
    ["the preview-only annotation set", { annotations: { [PREVIEW_ONLY_ANNOTATION]: "true" } }],
  ])("changes with %s", (_change, metadata) => {
    expect(reconcileKey(tenant(metadata))).not.toBe(reconcileKey(tenant()));
  });

  it("changes when the preview-only annotation goes", () => {
    const previewOnly = reconcileKey(tenant({ annotations: { [PREVIEW_ONLY_ANNOTATION]: "true" } }));
    expect(reconcileKey(tenant({ annotations: {} }))).not.toBe(previewOnly);
  });
});
