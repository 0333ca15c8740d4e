/**
 * The audit log: who did what to which tenant, and when, one JSON line per action. It records
 * the person, the action, the tenant and the outcome, never a token, a cookie, a request body or a
 * kubeconfig.
 */

/** What an audit line records. */
export interface AuditRecord {
  /** Who: the owner identity, or `anonymous` when the request proved no one. */
  readonly actor: string;
  /** What: `tenant.create`, `tenant.delete`, `tenant.kubeconfig`, `sign-in`, `sign-out`. */
  readonly action: string;
  /** Which tenant, when the action is on one. */
  readonly tenant?: string;
  /** `ok`, or why it was refused: the error's kind (`notFound`, `invalid`, `conflict`, ...). */
  readonly outcome: string;
}

/** Where audit lines go. */
export type AuditSink = (line: string) => void;

/** Writes `record`, stamped with the time, as one JSON line. */
export function audit(sink: AuditSink, record: AuditRecord, now: Date = new Date()): void {
  sink(JSON.stringify({ time: now.toISOString(), ...record }));
}
