/**
 * The engine's events, digested per tenant: which tenant a resource belongs to, and what an event
 * means for that tenant's phase (Provisioning, Ready, Failed, Deleting, Deleted). Both the running
 * command's progress display and `get --wait` in another terminal read these digests, the latter
 * through the run journal.
 */
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { TENANT_TOKEN } from "../model/tokens";

/** The operator's phases, plus the two a teardown passes through. */
export type TenantPhase = "Pending" | "Provisioning" | "Ready" | "Failed" | "Deleting" | "Deleted";

/** What one engine event says about one tenant. */
export interface TenantEvent {
  /** The tenant. */
  readonly name: string;
  /** Its phase from now on, when the event changes it. */
  readonly phase?: TenantPhase;
  /** What happened, for people: a resource step, a wait's progress, an error. */
  readonly detail?: string;
}

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

/** The resource name at the end of a URN. */
export const urnName = (urn: string): string => urn.split("::").pop() ?? "";

/** The tenant among `names` that resource `urn` belongs to: the Tenant itself, or a child named `<tenant>-<role>`. */
export function tenantOfUrn(urn: string, names: Iterable<string>): string | undefined {
  const resource = urnName(urn);
  let best: string | undefined;
  for (const name of names) {
    const matches = resource === name || resource.startsWith(`${name}-`);
    if (matches && (best === undefined || name.length > best.length)) best = name;
  }
  return best;
}

/** Whether `type` is a provider resource's (`pulumi:providers:<package>`). */
export const isProviderType = (type: string): boolean => type.startsWith("pulumi:providers:");

/** The resource's kind and name, short: `kubernetes:core/v1:Namespace::x` reads `Namespace x`. */
function resourceLabel(type: string, urn: string): string {
  const name = urnName(urn);
  // `pulumi:providers:kubernetes` is the tenant's own Kubernetes provider, not a Kubernetes kind.
  if (isProviderType(type)) return `${type.split(":").pop()} provider ${name}`;
  return `${type.split(":").pop()?.split("/").pop() ?? type} ${name}`;
}

/** What `event` says about one of the tenants `names`, if anything; `requested` are those that stay. */
export function tenantEventOf(event: EngineEvent, names: ReadonlySet<string>, requested: ReadonlySet<string>): TenantEvent | undefined {
  const pre = event.resourcePreEvent?.metadata;
  if (pre && STEP_WORDS[pre.op]) {
    const name = tenantOfUrn(pre.urn, names);
    if (!name) return undefined;
    const phase = requested.has(name) ? "Provisioning" : "Deleting";
    return { name, phase, detail: `${STEP_WORDS[pre.op]} ${resourceLabel(pre.type, pre.urn)}` };
  }
  const done = event.resOutputsEvent?.metadata;
  if (done && STEP_WORDS[done.op]) {
    const name = tenantOfUrn(done.urn, names);
    if (!name) return undefined;
    const isTenant = done.type === TENANT_TOKEN && done.urn.endsWith(`::${name}`);
    if (isTenant && done.op === "delete") return { name, phase: "Deleted", detail: `deleted ${resourceLabel(done.type, done.urn)}` };
    const ready = isTenant && (done.new?.outputs as { status?: { phase?: string } } | undefined)?.status?.phase === "Ready";
    return { name, ...(ready && { phase: "Ready" as const }), detail: `${done.op === "delete" ? "deleted" : "done:"} ${resourceLabel(done.type, done.urn)}` };
  }
  const diagnostic = event.diagnosticEvent;
  if (diagnostic?.urn) {
    const name = tenantOfUrn(diagnostic.urn, names);
    if (!name) return undefined;
    const message = diagnostic.message.trim();
    if (diagnostic.severity === "error") return { name, phase: "Failed", detail: message };
    // The lifecycle resources' own progress lines ("kubespaces: tenant X: waiting for ...").
    const progress = message.match(/^kubespaces: tenant [^:]+: (.*)$/s);
    if (progress) return { name, detail: progress[1] };
  }
  return undefined;
}
