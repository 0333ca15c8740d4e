/**
 * The engine's events of one tenant's stack, digested for people: the resource steps (creating,
 * deleting, ...), the lifecycle resources' progress, and the tenant's phase changes. A resource is
 * the tenant's when the Tenant component is among its parents, read from the URN's type chain,
 * never from the resource's name.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { progressMessage } from "../../contracts/progressLine";
import { TENANT_TOKEN } from "../../model/tokens";
import type { ReadyReason, ResourceStep, TenantEvent } from "../tenantObject";

/** The steps that change a resource, as progress words. */
const STEP_WORDS: Readonly<Record<string, string>> = {
  create: "creating",
  update: "updating",
  replace: "replacing",
  "create-replacement": "creating a replacement of",
  "delete-replaced": "deleting the replaced",
  import: "importing",
  delete: "deleting",
};

/** A URN's parts: `urn:pulumi:<stack>::<project>::<parent types $ ... $ type>::<name>`. */
function urnParts(urn: string): { types: string[]; name: string } {
  const parts = urn.split("::");
  return { types: (parts[2] ?? "").split("$"), name: parts.slice(3).join("::") };
}

/** The resource name at the end of a URN. */
export const urnName = (urn: string): string => urnParts(urn).name;

/** Whether the resource at `urn` is the Tenant component or one of its descendants. */
export const isTenantResource = (urn: string): boolean => urnParts(urn).types.includes(TENANT_TOKEN);

/** Whether `urn` is the Tenant component itself. */
const isTenantItself = (urn: string): boolean => urnParts(urn).types.at(-1) === TENANT_TOKEN;

/** Whether `type` is a provider resource's (`pulumi:providers:<package>`). */
export const isProviderType = (type: string): boolean => type.startsWith("pulumi:providers:");

/** The resource's kind and name, short: `kubernetes:core/v1:Namespace::x` reads `Namespace x`. */
function resourceLabel(type: string, urn: string): string {
  const name = urnName(urn);
  if (isProviderType(type)) return `${type.split(":").pop()} provider ${name}`;
  return `${type.split(":").pop()?.split("/").pop() ?? type} ${name}`;
}

/** The operator's reason for a failure of a resource of type `type`. */
export function failureReason(type: string): ReadyReason {
  const kind = type.split(":").pop() ?? "";
  if (/^(ResourceQuota|LimitRange)$/.test(kind)) return "QuotaFailed";
  if (/^(NetworkPolicy|TLSRoute|ReferenceGrant|ListenerSet|Certificate)$/.test(kind)) return "NetworkingFailed";
  return "ProvisioningFailed";
}

/** The type token at the end of a URN's chain. */
const urnType = (urn: string): string => urnParts(urn).types.at(-1) ?? "";

/** The resource step `event` announces, if it changes something. */
export function resourceStepOf(event: EngineEvent): ResourceStep | undefined {
  const step = event.resourcePreEvent?.metadata;
  if (!step || step.op === "same" || step.type === "pulumi:pulumi:Stack" || isProviderType(step.type)) return undefined;
  return { op: step.op, type: step.type, name: urnName(step.urn), diffs: step.diffs ?? [] };
}

/**
 * What `event` says about tenant `name`, if anything. `tearingDown` says whether the run removes
 * the tenant (its steps mean Deleting, not Provisioning).
 */
export function tenantEventOf(event: EngineEvent, name: string, tearingDown: boolean): TenantEvent | undefined {
  const pre = event.resourcePreEvent?.metadata;
  if (pre && STEP_WORDS[pre.op] && isTenantResource(pre.urn)) {
    return {
      name,
      phase: tearingDown ? "Deleting" : "Provisioning",
      detail: `${STEP_WORDS[pre.op]} ${resourceLabel(pre.type, pre.urn)}`,
    };
  }
  const done = event.resOutputsEvent?.metadata;
  if (done && STEP_WORDS[done.op] && isTenantResource(done.urn)) {
    if (isTenantItself(done.urn) && done.op === "delete")
      return { name, phase: "Deleted", detail: `deleted ${resourceLabel(done.type, done.urn)}` };
    const phase = isTenantItself(done.urn)
      ? (done.new?.outputs as { status?: { phase?: string } } | undefined)?.status?.phase
      : undefined;
    return {
      name,
      ...((phase === "Ready" || phase === "Sleeping") && { phase }),
      detail: `${done.op === "delete" ? "deleted" : "done:"} ${resourceLabel(done.type, done.urn)}`,
    };
  }
  const diagnostic = event.diagnosticEvent;
  if (diagnostic?.urn && isTenantResource(diagnostic.urn)) {
    const message = diagnostic.message.trim();
    if (diagnostic.severity === "error")
      return { name, phase: "Failed", reason: failureReason(urnType(diagnostic.urn)), detail: message };
    const progress = progressMessage(message);
    if (progress) return { name, detail: progress };
  }
  return undefined;
}
