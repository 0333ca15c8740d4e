/**
 * The reconciler's work queue: each tenant is reconciled by one worker at a time (a change that
 * arrives while it runs is run again after it), different tenants run side by side up to a limit,
 * and a reconcile that asks to be retried comes back after an exponential backoff. A reconcile
 * that names a time to be looked at again (an expiry) comes back then. Nothing is polled: work
 * arrives from the watch, from the periodic resync and from those timers.
 */

/** One reconcile of one tenant. */
export type ReconcileWork = (
  name: string,
  options: { readonly resync: boolean; readonly signal: AbortSignal },
) => Promise<{ readonly retry: boolean; readonly revisitAt?: number }>;

/** The longest a timer waits (setTimeout's limit, about 24.8 days); a later visit is set again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How the queue runs. */
export interface ReconcileQueueOptions {
  /** How many tenants are reconciled at once. */
  readonly concurrency: number;
  /** The first retry's delay; each further retry doubles it. */
  readonly initialBackoffMs: number;
  /** The longest delay between retries. */
  readonly maxBackoffMs: number;
  /** Called with a reconcile that threw (it is retried like one that asked to be). */
  readonly onError?: (name: string, error: unknown) => void;
  /** Called as a reconcile starts, with how long its tenant waited since it was asked for (or its retry fell due). */
  readonly onStart?: (name: string, waitedMs: number) => void;
}

/** A tenant waiting for its turn. */
interface Pending {
  resync: boolean;
  /** When it was first asked for (Date.now()). */
  since: number;
}

/** The queue. */
export class ReconcileQueue {
  private readonly waiting = new Map<string, Pending>();
  private readonly running = new Map<string, Promise<void>>();
  /** Tenants changed while they ran: they go again when their run ends. */
  private readonly again = new Map<string, Pending>();
  private readonly retries = new Map<string, { attempts: number; timer?: NodeJS.Timeout }>();
  /** Tenants to look at again at a time their reconcile named. */
  private readonly visits = new Map<string, NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly work: ReconcileWork,
    private readonly options: ReconcileQueueOptions,
  ) {}

  /** Asks for a reconcile of `name` (a resync also brings up a tenant that looks done). */
  add(name: string, resync = false): void {
    if (this.stopping.signal.aborted) return;
    const target = this.running.has(name) ? this.again : this.waiting;
    const pending = target.get(name);
    if (pending) pending.resync ||= resync;
    else target.set(name, { resync, since: Date.now() });
    this.pump();
  }

  /** Forgets `name`'s backoff: its next reconcile comes when it is asked for. */
  forget(name: string): void {
    clearTimeout(this.retries.get(name)?.timer);
    this.retries.delete(name);
  }

  /** How many tenants are running, waiting, and waiting to retry. */
  get size(): { readonly running: number; readonly waiting: number; readonly retrying: number } {
    return { running: this.running.size, waiting: this.waiting.size, retrying: this.retries.size };
  }

  /** Resolves once nothing runs or waits (retries whose timers are set do not count). */
  idle(): Promise<void> {
    if (this.running.size === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops: running reconciles are signalled, no new one starts, timers are cleared; resolves when the running ones end. */
  async stop(): Promise<void> {
    this.stopping.abort();
    for (const retry of this.retries.values()) clearTimeout(retry.timer);
    this.retries.clear();
    for (const visit of this.visits.values()) clearTimeout(visit);
    this.visits.clear();
    this.waiting.clear();
    this.again.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private pump(): void {
    for (const [name, pending] of this.waiting) {
      if (this.running.size >= this.options.concurrency) return;
      if (this.running.has(name)) continue;
      this.waiting.delete(name);
      this.running.set(name, this.run(name, pending));
    }
    if (this.running.size === 0 && this.waiting.size === 0) this.wakeIdle();
  }

  private async run(name: string, pending: Pending): Promise<void> {
    let retry: boolean;
    let revisitAt: number | undefined;
    this.options.onStart?.(name, Date.now() - pending.since);
    try {
      ({ retry, revisitAt } = await this.work(name, { resync: pending.resync, signal: this.stopping.signal }));
    } catch (error) {
      this.options.onError?.(name, error);
      retry = true;
    }
    this.running.delete(name);
    if (this.stopping.signal.aborted) return this.wakeIdle();
    this.revisit(name, revisitAt);
    const again = this.again.get(name);
    this.again.delete(name);
    if (again) this.waiting.set(name, again);
    else if (retry) this.retryLater(name);
    else this.forget(name);
    this.pump();
  }

  /** Sets (or clears) the one timer that brings `name` back at `at`. */
  private revisit(name: string, at: number | undefined): void {
    clearTimeout(this.visits.get(name));
    this.visits.delete(name);
    if (at === undefined) return;
    const timer = setTimeout(
      () => {
        this.visits.delete(name);
        this.add(name);
      },
      Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS),
    );
    timer.unref?.();
    this.visits.set(name, timer);
  }

  private retryLater(name: string): void {
    const retry = this.retries.get(name) ?? { attempts: 0 };
    const delay = Math.min(this.options.initialBackoffMs * 2 ** retry.attempts, this.options.maxBackoffMs);
    retry.attempts += 1;
    clearTimeout(retry.timer);
    retry.timer = setTimeout(() => this.add(name), delay);
    retry.timer.unref?.();
    this.retries.set(name, retry);
  }

  private wakeIdle(): void {
    if (this.running.size > 0 || this.waiting.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
