/**
 * What each update of a tenant's stack records of itself, and how the stack's history gives it
 * back. The record goes into the stack's configuration before the update: the engine keeps each
 * update's configuration in the stack's history (every state backend does), so the request, its
 * generation, the platform revision and who ran it come back with the update, and nothing else
 * needs to be kept. The inline program never reads these keys.
 */
import type { StackSettings, UpdateSummary } from "@pulumi/pulumi/automation";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import type { StackUpdate, UpdateRecord } from "../ports";

/** The configuration keys of the record, in the package's own namespace. */
const KEYS = {
  generation: "kubespaces:generation",
  platformRevision: "kubespaces:platformRevision",
  actor: "kubespaces:actor",
  request: "kubespaces:request",
} as const;

/**
 * The stack's settings (its Pulumi.<stack>.yaml) with `record` and `request` as its configuration
 * (a request holds no secret); everything else kept, the encryption salt too. A key the record
 * does not set (no platform revision) is removed, so that nothing of the update before lingers.
 */
export function withRecord(
  settings: StackSettings,
  record: UpdateRecord | undefined,
  request: TenantRequestInput,
): StackSettings {
  const kept = Object.entries(settings.config ?? {}).filter(([key]) => !Object.values<string>(KEYS).includes(key));
  if (!record) return { ...settings, config: Object.fromEntries(kept) };
  const recorded = {
    [KEYS.generation]: String(record.generation),
    [KEYS.actor]: record.actor,
    [KEYS.request]: JSON.stringify(request),
    ...(record.platformRevision !== undefined && { [KEYS.platformRevision]: record.platformRevision }),
  };
  return { ...settings, config: { ...Object.fromEntries(kept), ...recorded } };
}

/** One update of the stack's history, with what it recorded. */
export function stackUpdateOf(summary: UpdateSummary): StackUpdate {
  const config = summary.config ?? {};
  const value = (key: string): string | undefined => {
    const entry = config[key];
    return entry && !entry.secret ? entry.value : undefined;
  };
  const generation = Number(value(KEYS.generation));
  const actor = value(KEYS.actor);
  const platformRevision = value(KEYS.platformRevision);
  const record: UpdateRecord | undefined =
    Number.isInteger(generation) && actor !== undefined
      ? { generation, actor, ...(platformRevision !== undefined && { platformRevision }) }
      : undefined;
  const request = requestOf(value(KEYS.request));
  return {
    version: summary.version,
    kind: summary.kind,
    startedAt: new Date(summary.startTime).toISOString(),
    ...(summary.endTime && { endedAt: new Date(summary.endTime).toISOString() }),
    result: summary.result,
    changes: { ...(summary.resourceChanges ?? {}) },
    ...(record && { record }),
    ...(request && { request }),
  };
}

/** The recorded request; none when there is none or it is not JSON (a rollback then has nothing to apply). */
function requestOf(text: string | undefined): TenantRequestInput | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null ? (parsed as TenantRequestInput) : undefined;
  } catch {
    return undefined;
  }
}
