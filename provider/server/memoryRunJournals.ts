/**
 * Run journals kept in the server's memory. The server's runs are followed only inside the process
 * that runs them (the reconciler writes what they mean into each Tenant's status, which is what
 * survives the process), so nothing is written to disk; a replica that takes a tenant over starts
 * with none of its runs and reconciles from the resource's status.
 */
import { EventEmitter, on } from "node:events";
import type { RunJournals, RunOutcome, RunRecord, RunRecorder } from "../tenants/ports";
import type { TenantEvent } from "../tenants/tenantObject";

/** A run as it is being recorded. */
interface LiveRun {
  readonly operation: RunRecord["operation"];
  readonly startedAt: string;
  readonly generation: number;
  readonly events: TenantEvent[];
  outcome?: RunOutcome;
}

/** Journals in memory, one newest run per tenant. */
export class MemoryRunJournals implements RunJournals {
  private readonly runs = new Map<string, LiveRun>();
  private readonly changes = new EventEmitter();

  constructor(private readonly now: () => Date = () => new Date()) {
    // One listener per follower; a busy server may have many followers of one tenant.
    this.changes.setMaxListeners(0);
  }

  start(name: string, operation: RunRecord["operation"], generation: number): RunRecorder {
    const run: LiveRun = { operation, startedAt: this.now().toISOString(), generation, events: [] };
    this.runs.set(name, run);
    return {
      event: (event) => {
        run.events.push(event);
        this.changes.emit(name, event);
      },
      end: (outcome) => {
        run.outcome = outcome;
        this.changes.emit(name, undefined);
      },
    };
  }

  async latest(name: string): Promise<RunRecord | undefined> {
    const run = this.runs.get(name);
    return run && { ...run, events: [...run.events], running: run.outcome === undefined };
  }

  async *follow(name: string, signal?: AbortSignal): AsyncIterable<TenantEvent> {
    const run = this.runs.get(name);
    if (!run || run.outcome) return;
    // Listening starts (synchronously) before the events so far are copied: every later event
    // is buffered by the listener, so none is lost or seen twice.
    const changes = on(this.changes, name, { signal });
    yield* run.events.slice();
    try {
      for await (const [event] of changes) {
        if (event === undefined) return;
        yield event as TenantEvent;
      }
    } catch (error) {
      if ((error as Error).name !== "AbortError") throw error;
    }
  }

  async forget(name: string): Promise<void> {
    this.runs.delete(name);
  }
}
