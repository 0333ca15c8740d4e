/**
 * An in-process stand-in for the API server's list and watch of single objects, for readiness
 * unit tests. Like the real server it versions every change, sends a watch the changes after the
 * version it watches from (none missed between a list and its watch), ends watches, and can go
 * down (watches closed with an error, lists and watches refused). It never uses timers: tests
 * wait for its explicit events (`watching`) and drive time with vitest's fake clock.
 */
import type {
  ListResult,
  ObjectRef,
  ObjectStream,
  ObservedObject,
  WatchEventType,
} from "../../../provider/lifecycle/readiness/objectStream";

interface Watcher {
  readonly key: string;
  readonly onEvent: (type: WatchEventType, object: ObservedObject) => void;
  readonly onClosed: (error?: Error) => void;
}

interface Change {
  readonly version: number;
  readonly key: string;
  readonly type: WatchEventType;
  readonly object: ObservedObject;
}

export class FakeObjectStream implements ObjectStream {
  private version = 1;
  private readonly objects = new Map<string, ObservedObject>();
  private readonly changes: Change[] = [];
  private readonly watchers = new Set<Watcher>();
  private readonly waiters: { readonly count: number; readonly resolve: () => void }[] = [];
  private down = false;
  private readonly refused = new Map<ObjectRef["kind"], string>();
  /** Lists and watches made, like the real stream's request counter. */
  requests = 0;

  private static key(kind: string, namespace: string, name: string): string {
    return `${kind}/${namespace}/${name}`;
  }

  /** Creates or replaces an object and notifies watchers. */
  put(kind: ObjectRef["kind"], namespace: string, name: string, object: ObservedObject): void {
    const key = FakeObjectStream.key(kind, namespace, name);
    const type: WatchEventType = this.objects.has(key) ? "MODIFIED" : "ADDED";
    const stored = { ...object, metadata: { ...object.metadata, name, resourceVersion: String(++this.version) } };
    this.objects.set(key, stored);
    this.record(key, type, stored);
  }

  /** Deletes an object and notifies watchers. */
  remove(kind: ObjectRef["kind"], namespace: string, name: string): void {
    const key = FakeObjectStream.key(kind, namespace, name);
    const object = this.objects.get(key);
    if (!object) return;
    this.objects.delete(key);
    ++this.version;
    this.record(key, "DELETED", object);
  }

  /** Takes the server down: open watches fail, lists and watches are refused until `restart`. */
  crash(): void {
    this.down = true;
    this.closeAll(new Error("connection reset"));
  }

  /** Brings the server back. */
  restart(): void {
    this.down = false;
  }

  /** Refuses every list and watch of `kind` with `message`, as RBAC refuses a kind it does not grant; the other kinds are served. */
  refuse(kind: ObjectRef["kind"], message: string): void {
    this.refused.set(kind, message);
  }

  /** Ends every open watch without an error, as the server does when a watch times out. */
  endWatches(): void {
    this.closeAll(undefined);
  }

  /** Number of open watches. */
  get openWatches(): number {
    return this.watchers.size;
  }

  /** Resolves as soon as `count` watches are open: what a test awaits instead of sleeping. */
  watching(count: number): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ count, resolve });
      this.wakeWaiters();
    });
  }

  async list(ref: ObjectRef): Promise<ListResult> {
    this.requests++;
    this.failIfRefused(ref);
    return {
      object: this.objects.get(FakeObjectStream.key(ref.kind, ref.namespace, ref.name)),
      resourceVersion: String(this.version),
    };
  }

  async watch(
    ref: ObjectRef,
    resourceVersion: string,
    onEvent: (type: WatchEventType, object: ObservedObject) => void,
    onClosed: (error?: Error) => void,
  ) {
    this.requests++;
    this.failIfRefused(ref);
    const watcher = { key: FakeObjectStream.key(ref.kind, ref.namespace, ref.name), onEvent, onClosed };
    // Like the API server, an empty resourceVersion means "from now on": earlier changes are not sent.
    const missed =
      resourceVersion === ""
        ? []
        : this.changes.filter((c) => c.key === watcher.key && c.version > Number(resourceVersion));
    this.watchers.add(watcher);
    // Sent after the watch is returned, as the server sends them after the connection is up.
    queueMicrotask(() => missed.forEach((c) => this.watchers.has(watcher) && onEvent(c.type, c.object)));
    this.wakeWaiters();
    return { stop: () => void this.watchers.delete(watcher) };
  }

  private failIfRefused(ref: ObjectRef): void {
    if (this.down) throw new Error("connect ECONNREFUSED 127.0.0.1:6443");
    const refusal = this.refused.get(ref.kind);
    if (refusal !== undefined) throw new Error(refusal);
  }

  private record(key: string, type: WatchEventType, object: ObservedObject): void {
    this.changes.push({ version: this.version, key, type, object });
    for (const watcher of this.watchers) if (watcher.key === key) watcher.onEvent(type, object);
  }

  private closeAll(error: Error | undefined): void {
    const watchers = [...this.watchers];
    this.watchers.clear();
    watchers.forEach((w) => w.onClosed(error));
  }

  private wakeWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (this.watchers.size < waiter.count) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
