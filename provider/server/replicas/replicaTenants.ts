/**
 * The tenants this replica owns: the owners of the tenants its watch knows, over the live
 * replicas (tenantOwnership.ts), worked out again once per turn of the event loop after either
 * changed, so that the first list of a thousand Tenants costs one assignment, not a thousand.
 * Each tenant this replica gains is handed on, with whether it has a status yet.
 */
import { assignTenants } from "./tenantOwnership";

/** This replica's share of the tenants. */
export class ReplicaTenants {
  /** The tenants the watch knows, and whether each has a status yet. */
  private readonly known = new Map<string, boolean>();
  private owners = new Map<string, string>();
  private scheduled = false;

  constructor(
    private readonly identity: string,
    private readonly replicas: () => readonly string[],
    private readonly onGained: (name: string, hasStatus: boolean) => void,
  ) {}

  /** Whether this replica owns tenant `name` now. */
  owns(name: string): boolean {
    return this.owners.get(name) === this.identity;
  }

  /** Every tenant the watch knows. */
  names(): ReadonlySet<string> {
    return new Set(this.known.keys());
  }

  /** The tenants this replica owns now. */
  *owned(): Iterable<string> {
    for (const [name, owner] of this.owners) if (owner === this.identity) yield name;
  }

  /** How many tenants this replica owns now. */
  get size(): number {
    return [...this.owned()].length;
  }

  /**
   * Notes tenant `name`, seen by the watch; true when it was not known (its owner is worked out
   * next, and it is handed on then if it is this replica's).
   */
  seen(name: string, hasStatus: boolean): boolean {
    const isNew = !this.known.has(name);
    this.known.set(name, hasStatus);
    if (isNew) this.reassign();
    return isNew;
  }

  /** Forgets tenant `name`, gone from the host. */
  gone(name: string): void {
    if (this.known.delete(name)) this.reassign();
  }

  /** Works the owners out again at the next turn of the event loop (the replicas changed, or the tenants). */
  reassign(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const before = this.owners;
      this.owners = assignTenants(this.known.keys(), this.replicas());
      for (const [name, owner] of this.owners)
        if (owner === this.identity && before.get(name) !== this.identity) this.onGained(name, this.known.get(name)!);
    });
  }
}
