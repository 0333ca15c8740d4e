/**
 * An in-process stand-in for the API server's list and watch of single objects, for readiness
 * unit tests. Like the real server it versions every change, sends watch events only for changes
 * after the watched version, and can go down (watches closed with an error, lists refused).
 */
import type { ListResult, ObjectRef, ObjectStream, ObservedObject, WatchEventType } from "../../../provider/lifecycle/readiness/objectStream";

interface Watcher {
  readonly key: string;
  readonly onEvent: (type: WatchEventType, object: ObservedObject) => void;
  readonly onClosed: (error?: Error) => void;
}

export class FakeObjectStream implements ObjectStream {
  private version = 1;
  private readonly objects = new Map<string, ObservedObject>();
  private watchers = new Set<Watcher>();
  private down = false;
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
    this.notify(key, type, stored);
  }

  /** Deletes an object and notifies watchers. */
  remove(kind: ObjectRef["kind"], namespace: string, name: string): void {
    const key = FakeObjectStream.key(kind, namespace, name);
    const object = this.objects.get(key);
    if (!object) return;
    this.objects.delete(key);
    this.version++;
    this.notify(key, "DELETED", object);
  }

  /** Takes the server down: open watches fail, lists are refused until `restart`. */
  crash(): void {
    this.down = true;
    const watchers = [...this.watchers];
    this.watchers.clear();
    watchers.forEach((w) => w.onClosed(new Error("connection reset")));
  }

  /** Brings the server back. */
  restart(): void {
    this.down = false;
  }

  /** Number of open watches. */
  get openWatches(): number {
    return this.watchers.size;
  }

  async list(ref: ObjectRef): Promise<ListResult> {
    this.requests++;
    if (this.down) throw new Error("connect ECONNREFUSED 127.0.0.1:6443");
    return { object: this.objects.get(FakeObjectStream.key(ref.kind, ref.namespace, ref.name)), resourceVersion: String(this.version) };
  }

  async watch(
    ref: ObjectRef,
    _resourceVersion: string,
    onEvent: (type: WatchEventType, object: ObservedObject) => void,
    onClosed: (error?: Error) => void,
  ) {
    this.requests++;
    if (this.down) throw new Error("connect ECONNREFUSED 127.0.0.1:6443");
    const watcher = { key: FakeObjectStream.key(ref.kind, ref.namespace, ref.name), onEvent, onClosed };
    this.watchers.add(watcher);
    return { stop: () => void this.watchers.delete(watcher) };
  }

  private notify(key: string, type: WatchEventType, object: ObservedObject): void {
    for (const watcher of this.watchers) if (watcher.key === key) watcher.onEvent(type, object);
  }
}
