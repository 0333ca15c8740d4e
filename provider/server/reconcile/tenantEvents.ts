/**
 * The Kubernetes Events the server records on Tenants (events.k8s.io/v1), for `kubectl describe
 * tenant`: what happened to a tenant over time, where its status shows only the latest. Repeats of
 * one event (same tenant, reason and note) within six minutes of the last one join a series on
 * the first Event (`series.count`, shown by kubectl as `(xN over M)`) instead of making new ones, as
 * client-go's recorder does. An Event names the Tenant, a reason and a note of the server's own
 * words or the service's error message, scrubbed of anything shaped like a credential; never its
 * spec, its owner or a kubeconfig, since Events are read by whoever may list Events, not only by
 * the Tenant's owner. Recording never fails a reconcile: a refused write is reported and dropped.
 */
import { TENANT_MANIFEST } from "../../contracts/tenantManifest";
import type { TenantResource } from "../tenantResourcePort";

/** What each Event reason means: its type and the action it reports (events.k8s.io/v1 fields). */
export const TENANT_EVENT_REASONS = {
  Accepted: { type: "Normal", action: "Accept", note: "accepted; waiting for its turn" },
  Provisioning: { type: "Normal", action: "Provision", note: "provisioning started" },
  Ready: { type: "Normal", action: "Provision", note: "the virtual cluster is ready" },
  AwaitingApproval: { type: "Normal", action: "Hold", note: "the change waits for an admin's approval" },
  Previewed: {
    type: "Normal",
    action: "Preview",
    note: "the change was previewed only; nothing is provisioned until the preview-only annotation goes",
  },
  Approved: { type: "Normal", action: "Approve", note: "an admin approved this generation; provisioning it" },
  KubeconfigChanged: {
    type: "Normal",
    action: "Provision",
    note: "the tenant's kubeconfig changed (its endpoint or certificates): fetch it again",
  },
  Sleeping: {
    type: "Normal",
    action: "Sleep",
    note: "put to sleep: its control plane and synced pods are scaled to zero, its data and kubeconfig kept",
  },
  ExpiringSoon: {
    type: "Warning",
    action: "Expire",
    note: "the tenant expires soon; extend spec.expiresAt to keep it",
  },
  Expired: { type: "Normal", action: "Expire", note: "the tenant reached its spec.expiresAt; deleting it" },
  SnapshotTaken: { type: "Normal", action: "Snapshot", note: "a snapshot of the virtual cluster was taken" },
  SnapshotFailed: { type: "Warning", action: "Snapshot", note: "the snapshot failed" },
  Restoring: { type: "Normal", action: "Restore", note: "restoring a snapshot: the control plane goes down first" },
  Restored: { type: "Normal", action: "Restore", note: "the virtual cluster was restored from a snapshot" },
  RestoreFailed: { type: "Warning", action: "Restore", note: "the restore failed" },
  DriftRepaired: { type: "Normal", action: "Resync", note: "the resync put back what had changed on the host" },
  InvalidRequest: { type: "Warning", action: "Provision", note: "the request breaks a rule" },
  QuotaFailed: { type: "Warning", action: "Provision", note: "the quota could not be put in place" },
  NetworkingFailed: { type: "Warning", action: "Provision", note: "the network fence could not be put in place" },
  ProvisioningFailed: { type: "Warning", action: "Provision", note: "provisioning failed" },
  Interrupted: { type: "Warning", action: "Provision", note: "the run stopped before it finished" },
  Deleting: { type: "Normal", action: "Delete", note: "tearing the tenant down" },
  DeleteFailed: { type: "Warning", action: "Delete", note: "the teardown failed and is tried again" },
  Deleted: { type: "Normal", action: "Delete", note: "torn down; nothing of it is left" },
} as const satisfies Record<string, { type: "Normal" | "Warning"; action: string; note: string }>;

/** One Event reason. */
export type TenantEventReason = keyof typeof TENANT_EVENT_REASONS;

/** Which reason records a failure whose Ready condition gives `reason` (any other: ProvisioningFailed). */
export function failureEventReason(reason: string | undefined): TenantEventReason {
  const failures: readonly string[] = ["InvalidRequest", "QuotaFailed", "NetworkingFailed", "Interrupted"];
  return reason !== undefined && failures.includes(reason) ? (reason as TenantEventReason) : "ProvisioningFailed";
}

/** Records Events on Tenants; what the reconciler calls. */
export interface TenantEvents {
  /** Records `reason` on `tenant`, with `note` (default: the reason's own words). Never rejects. */
  record(tenant: TenantResource, reason: TenantEventReason, note?: string): Promise<void>;
}

/** An events.k8s.io/v1 Event, as the recorder writes it. */
export interface EventBody {
  readonly metadata: { readonly name: string; readonly namespace: string };
  readonly eventTime: string;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: TenantEventReason;
  readonly type: "Normal" | "Warning";
  readonly note: string;
  readonly regarding: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly name: string;
    readonly uid?: string;
  };
}

/** The Events API the recorder writes through (the Kubernetes adapter is kubeTenantEvents.ts). */
export interface EventsPort {
  /** Creates `event`. */
  create(event: EventBody): Promise<void>;
  /** Sets Event `name`'s series: how often it happened, and when last. */
  setSeries(namespace: string, name: string, series: { count: number; lastObservedTime: string }): Promise<void>;
}

/** Who records: the controller and this replica (events.k8s.io/v1's reportingController and reportingInstance). */
export interface EventReporter {
  readonly controller: string;
  /** This replica's identity; at most 128 characters are kept. */
  readonly instance: string;
}

/** Where Events on a cluster-scoped object go: `default`, as client-go's recorder puts them. */
export const EVENTS_NAMESPACE = "default";
/** How long after its last occurrence a repeat still joins an Event's series (client-go's). */
const SERIES_WINDOW_MS = 6 * 60_000;
/** The longest note events.k8s.io/v1 takes (1 kB). */
const MAX_NOTE_BYTES = 1024;

/** An Event already written, and its series so far. */
interface Written {
  readonly name: string;
  count: number;
  lastMs: number;
}

/** Records Events on Tenants through `port`. */
export class TenantEventRecorder implements TenantEvents {
  private readonly written = new Map<string, Written>();
  /** One write at a time per key, in order, so that a series never races its Event's creation. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Added to the nanoseconds of an Event's name, so that two in one millisecond never share one. */
  private sequence = 0;

  constructor(
    private readonly port: EventsPort,
    private readonly reporter: EventReporter,
    private readonly onError: (error: unknown) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(tenant: TenantResource, reason: TenantEventReason, note?: string): Promise<void> {
    const text = safeNote(note ?? TENANT_EVENT_REASONS[reason].note);
    const key = JSON.stringify([tenant.metadata.uid ?? tenant.metadata.name, reason, text]);
    const done = (this.queues.get(key) ?? Promise.resolve())
      .then(() => this.write(key, tenant, reason, text))
      .catch((error: unknown) => this.onError(error))
      .then(() => undefined);
    this.queues.set(key, done);
    void done.then(() => this.queues.get(key) === done && this.queues.delete(key));
    return done;
  }

  private async write(key: string, tenant: TenantResource, reason: TenantEventReason, note: string): Promise<void> {
    const now = this.now();
    this.forgetOld(now.getTime());
    const seen = this.written.get(key);
    if (seen) {
      seen.count += 1;
      seen.lastMs = now.getTime();
      await this.port.setSeries(EVENTS_NAMESPACE, seen.name, { count: seen.count, lastObservedTime: microTime(now) });
      return;
    }
    const { name, uid } = tenant.metadata;
    const event: EventBody = {
      metadata: { name: `${name}.${this.nanosHex(now)}`, namespace: EVENTS_NAMESPACE },
      eventTime: microTime(now),
      reportingController: this.reporter.controller,
      reportingInstance: this.reporter.instance.slice(0, 128),
      action: TENANT_EVENT_REASONS[reason].action,
      reason,
      type: TENANT_EVENT_REASONS[reason].type,
      note,
      regarding: { apiVersion: TENANT_MANIFEST.apiVersion, kind: TENANT_MANIFEST.kind, name, ...(uid && { uid }) },
    };
    await this.port.create(event);
    this.written.set(key, { name: event.metadata.name, count: 1, lastMs: now.getTime() });
  }

  /** The time in nanoseconds, in hex, as client-go names Events (the last digits a sequence number). */
  private nanosHex(now: Date): string {
    this.sequence = (this.sequence + 1) % 1_000_000;
    return (BigInt(now.getTime()) * 1_000_000n + BigInt(this.sequence)).toString(16);
  }

  /** Forgets Events whose last occurrence is older than the series window: a repeat after that is new. */
  private forgetOld(nowMs: number): void {
    for (const [key, seen] of this.written) if (nowMs - seen.lastMs > SERIES_WINDOW_MS) this.written.delete(key);
  }
}

/** A time as metav1.MicroTime writes it (RFC 3339 with six fractional digits). */
const microTime = (date: Date): string => date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

/** What stands in a note for a value shaped like a credential. */
export const REDACTED = "[redacted]";

/**
 * `text` fit for an Event: anything shaped like a credential (a PEM block, a JWT, a bearer token,
 * a long base64 run, a `password=`/`token:` value) replaced, and cut to 1 kB.
 */
export function safeNote(text: string): string {
  const scrubbed = text
    .replace(/-----BEGIN [A-Z ]+-----[\s\S]*?(-----END [A-Z ]+-----|$)/g, REDACTED)
    .replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, REDACTED)
    .replace(/\b(bearer)\s+[\w.~+/-]+=*/gi, `$1 ${REDACTED}`)
    .replace(
      /\b(password|passwd|secret|token|client-key-data|client-certificate-data|certificate-authority-data)(["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
      `$1$2${REDACTED}`,
    )
    .replace(/[A-Za-z0-9+/]{40,}={0,2}/g, REDACTED);
  return cutToBytes(scrubbed, MAX_NOTE_BYTES);
}

/** `text` cut to at most `bytes` bytes of UTF-8, on a character boundary, with an ellipsis when cut. */
function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let cut = text.slice(0, bytes);
  while (Buffer.byteLength(`${cut}…`) > bytes) cut = cut.slice(0, -1);
  return `${cut}…`;
}
