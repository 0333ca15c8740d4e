/** The CLI's digest of engine events per tenant: which tenant a resource belongs to, and what an event means for its phase. */
import type { EngineEvent, OpType, StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { tenantEventOf, tenantOfUrn } from "../../provider/cli/tenantEvents";

const PARENT = "kubespaces:index:TenantSet$kubespaces:index:Tenant";
/** The URN of a resource of type `type` named `name` under a Tenant of the tenants stack. */
const urnOf = (type: string, name: string) => `urn:pulumi:tenants::kubespaces-tenants::${type === "kubespaces:index:Tenant" ? "kubespaces:index:TenantSet" : PARENT}$${type}::${name}`;
const TENANT = "kubespaces:index:Tenant";
const NAMESPACE = "kubernetes:core/v1:Namespace";
const RELEASE = "kubernetes:helm.sh/v3:Release";

describe("tenantOfUrn", () => {
  const names = ["a", "a-b", "team-atlas"];
  it.each([
    ["the Tenant itself", urnOf(TENANT, "team-atlas"), "team-atlas"],
    ["a child <tenant>-<role>", urnOf(NAMESPACE, "team-atlas-namespace"), "team-atlas"],
    ["the shorter name's Tenant", urnOf(TENANT, "a"), "a"],
    ["the shorter name's child", urnOf(NAMESPACE, "a-namespace"), "a"],
    ["the longer name's Tenant, though the shorter name is its prefix", urnOf(TENANT, "a-b"), "a-b"],
    ["the longer name's child, though the shorter name is its prefix", urnOf(NAMESPACE, "a-b-namespace"), "a-b"],
    ["an unrelated resource", urnOf(NAMESPACE, "other-namespace"), undefined],
    ["a resource whose name only starts with a tenant's letters", urnOf(NAMESPACE, "team-atlasx"), undefined],
    ["the stack", "urn:pulumi:tenants::kubespaces-tenants::pulumi:pulumi:Stack::kubespaces-tenants-tenants", undefined],
  ])("%s", (_, urn, tenant) => {
    expect(tenantOfUrn(urn, names)).toBe(tenant);
  });

  it("does not depend on the order of the names", () => {
    expect(tenantOfUrn(urnOf(NAMESPACE, "a-b-namespace"), ["a-b", "a"])).toBe("a-b");
    expect(tenantOfUrn(urnOf(NAMESPACE, "a-b-namespace"), ["a", "a-b"])).toBe("a-b");
  });
});

/** An engine event of one step (metadata as the engine sends it, trimmed to what the digest reads). */
function step(kind: "resourcePreEvent" | "resOutputsEvent", op: OpType, type: string, name: string, outputs?: Record<string, unknown>): EngineEvent {
  const metadata = { op, type, urn: urnOf(type, name), provider: "", ...(outputs && { new: { outputs } }) } as StepEventMetadata;
  return { sequence: 1, timestamp: 0, [kind]: { metadata } } as EngineEvent;
}

function diagnostic(severity: "info" | "warning" | "error", message: string, urn?: string): EngineEvent {
  return { sequence: 1, timestamp: 0, diagnosticEvent: { severity, message, color: "never", ...(urn && { urn }) } };
}

describe("tenantEventOf", () => {
  // "gone" is deployed but no longer requested: its steps are a teardown.
  const names = new Set(["atlas", "gone"]);
  const requested = new Set(["atlas"]);
  const ready = { status: { phase: "Ready", message: "the virtual cluster is ready" } };

  it.each<[string, EngineEvent, ReturnType<typeof tenantEventOf>]>([
    ["a create step of a requested tenant's child", step("resourcePreEvent", "create", NAMESPACE, "atlas-namespace"), { name: "atlas", phase: "Provisioning", detail: "creating Namespace atlas-namespace" }],
    ["an update step", step("resourcePreEvent", "update", RELEASE, "atlas-vcluster"), { name: "atlas", phase: "Provisioning", detail: "updating Release atlas-vcluster" }],
    ["a replacement", step("resourcePreEvent", "create-replacement", RELEASE, "atlas-vcluster"), { name: "atlas", phase: "Provisioning", detail: "creating a replacement of Release atlas-vcluster" }],
    ["a delete step of a tenant no longer requested", step("resourcePreEvent", "delete", NAMESPACE, "gone-namespace"), { name: "gone", phase: "Deleting", detail: "deleting Namespace gone-namespace" }],
    ["a create step of a tenant no longer requested", step("resourcePreEvent", "create", NAMESPACE, "gone-namespace"), { name: "gone", phase: "Deleting", detail: "creating Namespace gone-namespace" }],
    ["the Tenant's outputs with status Ready", step("resOutputsEvent", "create", TENANT, "atlas", ready), { name: "atlas", phase: "Ready", detail: "done: Tenant atlas" }],
    ["the Tenant's outputs without status Ready", step("resOutputsEvent", "create", TENANT, "atlas", { status: { phase: "Pending" } }), { name: "atlas", detail: "done: Tenant atlas" }],
    ["a child's outputs, even with status Ready", step("resOutputsEvent", "create", NAMESPACE, "atlas-namespace", ready), { name: "atlas", detail: "done: Namespace atlas-namespace" }],
    ["the Tenant's delete", step("resOutputsEvent", "delete", TENANT, "gone"), { name: "gone", phase: "Deleted", detail: "deleted Tenant gone" }],
    ["a child's delete", step("resOutputsEvent", "delete", NAMESPACE, "gone-namespace"), { name: "gone", detail: "deleted Namespace gone-namespace" }],
    ["an error diagnostic on a tenant's resource", diagnostic("error", "vcluster did not become ready: timeout\n", urnOf(RELEASE, "atlas-vcluster")), { name: "atlas", phase: "Failed", detail: "vcluster did not become ready: timeout" }],
    ["a lifecycle progress line", diagnostic("info", "kubespaces: tenant atlas: waiting for the API server (3/10)\n", urnOf("kubespaces:index:TenantReadiness", "atlas-readiness")), { name: "atlas", detail: "waiting for the API server (3/10)" }],
    ["an unchanged resource (op same)", step("resourcePreEvent", "same", NAMESPACE, "atlas-namespace"), undefined],
    ["an unchanged Tenant's outputs (op same)", step("resOutputsEvent", "same", TENANT, "atlas", ready), undefined],
    ["a step of a resource of no tenant", step("resourcePreEvent", "create", NAMESPACE, "shared-namespace"), undefined],
    ["an error diagnostic of no tenant", diagnostic("error", "boom", urnOf(NAMESPACE, "shared-namespace")), undefined],
    ["an error diagnostic without a resource", diagnostic("error", "the update failed"), undefined],
    ["an info diagnostic that is no progress line", diagnostic("info", "some provider chatter", urnOf(RELEASE, "atlas-vcluster")), undefined],
    ["a warning that is no progress line", diagnostic("warning", "deprecated field", urnOf(RELEASE, "atlas-vcluster")), undefined],
    ["an event of another kind", { sequence: 1, timestamp: 0, stdoutEvent: { message: "hello", color: "never" } }, undefined],
  ])("%s", (_, event, expected) => {
    expect(tenantEventOf(event, names, requested)).toEqual(expected);
  });
});
