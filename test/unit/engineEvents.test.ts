/** The engine's events of one tenant's stack, digested: whose resource a URN is (its type chain), the steps, the phases, the failure reasons. */
import type { EngineEvent, OpType, StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import {
  failureReason,
  isProviderType,
  isTenantResource,
  resourceStepOf,
  tenantEventOf,
  urnName,
} from "../../provider/tenants/automation/engineEvents";
import { TENANT_TOKEN } from "../../provider/model/tokens";
import type { ReadyReason, TenantEvent, TenantEventPhase } from "../../provider/tenants/tenantObject";

const NAMESPACE = "kubernetes:core/v1:Namespace";
const RELEASE = "kubernetes:helm.sh/v3:Release";
const READINESS = "kubespaces:index:TenantReadiness";

/** The URN of a resource of tenant `stack`'s stack whose type chain (parents first) is `types`. */
const urnAt = (types: readonly string[], name: string, stack = "team") =>
  `urn:pulumi:${stack}::kubespaces-tenants::${types.join("$")}::${name}`;
/** A resource of type `type` under the stack's Tenant (the Tenant itself for TENANT_TOKEN). */
const urnOf = (type: string, name: string) =>
  urnAt(type === TENANT_TOKEN ? [TENANT_TOKEN] : [TENANT_TOKEN, type], name);

/** An engine event of one step (metadata as the engine sends it, trimmed to what the digest reads). */
function step(
  kind: "resourcePreEvent" | "resOutputsEvent",
  op: OpType,
  type: string,
  urn: string,
  extra: { outputs?: Record<string, unknown>; diffs?: string[] } = {},
): EngineEvent {
  const metadata = {
    op,
    type,
    urn,
    provider: "",
    ...(extra.diffs && { diffs: extra.diffs }),
    ...(extra.outputs && { new: { outputs: extra.outputs } }),
  } as StepEventMetadata;
  return { sequence: 1, timestamp: 0, [kind]: { metadata } } as EngineEvent;
}
const pre = (op: OpType, type: string, name: string, diffs?: string[]) =>
  step("resourcePreEvent", op, type, urnOf(type, name), { diffs });
const done = (op: OpType, type: string, name: string, outputs?: Record<string, unknown>) =>
  step("resOutputsEvent", op, type, urnOf(type, name), { outputs });

function diagnostic(severity: "info" | "warning" | "error", message: string, urn?: string): EngineEvent {
  return { sequence: 1, timestamp: 0, diagnosticEvent: { severity, message, color: "never", ...(urn && { urn }) } };
}

describe("isTenantResource", () => {
  it.each<[string, string, boolean]>([
    ["the Tenant itself", urnOf(TENANT_TOKEN, "team"), true],
    [
      "a child named like another tenant's (team-vcluster-namespace)",
      urnOf(NAMESPACE, "team-vcluster-namespace"),
      true,
    ],
    ["a grandchild", urnAt([TENANT_TOKEN, READINESS, NAMESPACE], "team-x"), true],
    ["a resource named after the tenant, outside the Tenant", urnAt([NAMESPACE], "team"), false],
    [
      "a resource under a type that merely starts like Tenant",
      urnAt(["kubespaces:index:TenantSet", NAMESPACE], "team-namespace"),
      false,
    ],
    ["a lifecycle resource outside the Tenant", urnAt([READINESS], "team-readiness"), false],
    ["the stack", urnAt(["pulumi:pulumi:Stack"], "kubespaces-tenants-team"), false],
  ])("%s: %s", (_, urn, tenants) => {
    expect(isTenantResource(urn)).toBe(tenants);
  });
});

describe("urnName and isProviderType", () => {
  it("read the resource name (which may hold ::) and provider types", () => {
    expect(urnName(urnOf(NAMESPACE, "team-namespace"))).toBe("team-namespace");
    expect(urnName(urnOf(NAMESPACE, "a::b"))).toBe("a::b");
    expect(isProviderType("pulumi:providers:kubernetes")).toBe(true);
    expect(isProviderType(NAMESPACE)).toBe(false);
  });
});

describe("failureReason", () => {
  it.each<[string, ReadyReason]>([
    ["kubernetes:core/v1:ResourceQuota", "QuotaFailed"],
    ["kubernetes:core/v1:LimitRange", "QuotaFailed"],
    ["kubernetes:networking.k8s.io/v1:NetworkPolicy", "NetworkingFailed"],
    ["kubernetes:gateway.networking.k8s.io/v1alpha2:TLSRoute", "NetworkingFailed"],
    ["kubernetes:gateway.networking.k8s.io/v1beta1:ReferenceGrant", "NetworkingFailed"],
    ["kubernetes:gateway.networking.x-k8s.io/v1alpha1:ListenerSet", "NetworkingFailed"],
    ["kubernetes:cert-manager.io/v1:Certificate", "NetworkingFailed"],
    [NAMESPACE, "ProvisioningFailed"],
    [RELEASE, "ProvisioningFailed"],
    [READINESS, "ProvisioningFailed"],
    ["kubernetes:core/v1:ResourceQuotaList", "ProvisioningFailed"],
  ])("%s: %s", (type, reason) => {
    expect(failureReason(type)).toBe(reason);
  });
});

describe("resourceStepOf", () => {
  it.each<[string, EngineEvent, ReturnType<typeof resourceStepOf>]>([
    [
      "a create",
      pre("create", NAMESPACE, "team-namespace"),
      { op: "create", type: NAMESPACE, name: "team-namespace", diffs: [] },
    ],
    [
      "an update, with its diffs",
      pre("update", RELEASE, "team-vcluster", ["values"]),
      { op: "update", type: RELEASE, name: "team-vcluster", diffs: ["values"] },
    ],
    [
      "a delete",
      pre("delete", NAMESPACE, "team-namespace"),
      { op: "delete", type: NAMESPACE, name: "team-namespace", diffs: [] },
    ],
    ["an unchanged resource", pre("same", NAMESPACE, "team-namespace"), undefined],
    [
      "the stack",
      step("resourcePreEvent", "create", "pulumi:pulumi:Stack", urnAt(["pulumi:pulumi:Stack"], "s")),
      undefined,
    ],
    ["a provider", pre("create", "pulumi:providers:kubernetes", "team-host"), undefined],
    ["an outputs event", done("create", NAMESPACE, "team-namespace"), undefined],
  ])("%s", (_, event, expected) => {
    expect(resourceStepOf(event)).toEqual(expected);
  });
});

describe("tenantEventOf", () => {
  /** What the event is, the event, what it says of tenant team, and whether the run tears it down. */
  type Row = [string, EngineEvent, TenantEvent, boolean?];
  /** What the digest says of tenant team: `detail`, and the phase it is now in when the event moves it. */
  const team = (detail: string, phase?: TenantEventPhase): TenantEvent => ({
    name: "team",
    ...(phase && { phase }),
    detail,
  });
  const ready = { status: { phase: "Ready", message: "the virtual cluster is ready" } };
  const failed = (type: string, name: string, reason: ReadyReason): Row => [
    `an error on a ${type.split(":").pop()}: ${reason}`,
    diagnostic("error", "it failed\n", urnOf(type, name)),
    { ...team("it failed", "Failed"), reason },
  ];

  // Every step says what it does, in phase Provisioning, or Deleting when the run tears the tenant down.
  it.each<[OpType, string, string, string]>([
    ["create", NAMESPACE, "team-namespace", "creating Namespace team-namespace"],
    // A child named like another tenant's child is this tenant's: its URN's parent chain says so.
    ["create", NAMESPACE, "team-vcluster-namespace", "creating Namespace team-vcluster-namespace"],
    ["update", RELEASE, "team-vcluster", "updating Release team-vcluster"],
    ["create-replacement", RELEASE, "team-vcluster", "creating a replacement of Release team-vcluster"],
    ["import", NAMESPACE, "team-namespace", "importing Namespace team-namespace"],
    ["delete", NAMESPACE, "team-namespace", "deleting Namespace team-namespace"],
    // A provider's step, named as one.
    ["create", "pulumi:providers:kubernetes", "team-host", "creating kubernetes provider team-host"],
  ])("a %s step of a %s %s: %s", (op, type, name, detail) => {
    expect(tenantEventOf(pre(op, type, name), "team", false)).toEqual(team(detail, "Provisioning"));
    expect(tenantEventOf(pre(op, type, name), "team", true)).toEqual(team(detail, "Deleting"));
  });

  it.each<Row>([
    [
      "the Tenant's outputs with status Ready",
      done("create", TENANT_TOKEN, "team", ready),
      team("done: Tenant team", "Ready"),
    ],
    [
      "the Tenant's outputs without status Ready",
      done("create", TENANT_TOKEN, "team", { status: { phase: "Pending" } }),
      team("done: Tenant team"),
    ],
    [
      "a child's outputs, even with status Ready",
      done("create", NAMESPACE, "team-namespace", ready),
      team("done: Namespace team-namespace"),
    ],
    ["the Tenant's delete", done("delete", TENANT_TOKEN, "team"), team("deleted Tenant team", "Deleted"), true],
    ["a child's delete", done("delete", NAMESPACE, "team-namespace"), team("deleted Namespace team-namespace"), true],
    failed("kubernetes:core/v1:ResourceQuota", "team-quota", "QuotaFailed"),
    failed("kubernetes:networking.k8s.io/v1:NetworkPolicy", "team-network-policy", "NetworkingFailed"),
    failed(RELEASE, "team-vcluster", "ProvisioningFailed"),
    [
      "a lifecycle progress line",
      diagnostic(
        "info",
        "kubespaces: tenant team: waiting for the API server (3/10)\n",
        urnAt([TENANT_TOKEN, READINESS], "team-readiness"),
      ),
      team("waiting for the API server (3/10)"),
    ],
  ])("%s", (_, event, expected, tearingDown = false) => {
    expect(tenantEventOf(event, "team", tearingDown)).toEqual(expected);
  });

  it.each<[string, EngineEvent]>([
    ["an unchanged resource (op same)", pre("same", NAMESPACE, "team-namespace")],
    ["an unchanged Tenant's outputs (op same)", done("same", TENANT_TOKEN, "team", ready)],
    [
      "a step of a resource outside the Tenant, though named like its child",
      step("resourcePreEvent", "create", NAMESPACE, urnAt([NAMESPACE], "team-vcluster-namespace")),
    ],
    ["an error outside the Tenant", diagnostic("error", "boom", urnAt([NAMESPACE], "team-namespace"))],
    ["an error without a resource", diagnostic("error", "the update failed")],
    [
      "an info diagnostic that is no progress line",
      diagnostic("info", "some provider chatter", urnOf(RELEASE, "team-vcluster")),
    ],
    ["a warning that is no progress line", diagnostic("warning", "deprecated field", urnOf(RELEASE, "team-vcluster"))],
    ["an event of another kind", { sequence: 1, timestamp: 0, stdoutEvent: { message: "hello", color: "never" } }],
  ])("says nothing of %s", (_, event) => {
    expect(tenantEventOf(event, "team", false)).toBeUndefined();
  });
});
