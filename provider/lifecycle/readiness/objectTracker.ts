/**
 * Keeps the latest state of one named object: list, then watch from the list's resourceVersion;
 * when the watch ends or the API server is unreachable, list again after a backoff. This is what
 * lets a wait survive an API server restart.
 */
import type { ObjectRef, ObjectStream, ObservedObject, OpenWatch } from "./objectStream";

/** Reconnect delays, doubled after each failure up to the maximum. */
export interface Backoff {
  /** First delay after a failure, in ms. */
  readonly initialMs: number;
  /** Largest delay, in ms. */
  readonly maxMs: number;
}

/** Default reconnect delays: 250 ms doubling to 4 s. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 250, maxMs: 4000 };

/** Follows one object until stopped. */
export class ObjectTracker {
  private stopped = false;
  private openWatch: OpenWatch | undefined;
  private wakeUp: (() => void) | undefined;

  /**
   * @param onObject gets the object whenever it changes; null when it does not exist.
   * @param onTrouble gets each list or watch failure (the tracker retries by itself).
   */
  constructor(
    private readonly stream: ObjectStream,
    private readonly ref: ObjectRef,
    private readonly onObject: (object: ObservedObject | null) => void,
    private readonly onTrouble: (error: Error) => void,
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
  ) {}

  /** Starts following; returns at once. */
  start(): void {
    void this.follow();
  }

  /** Stops following and closes the open watch. */
  stop(): void {
    this.stopped = true;
    this.openWatch?.stop();
    this.wakeUp?.();
  }

  private async follow(): Promise<void> {
    let delay = this.backoff.initialMs;
    while (!this.stopped) {
      let listed = false;
      try {
        const closedWith = await this.listAndWatch(() => (listed = true));
        if (!closedWith) {
          delay = this.backoff.initialMs;
          continue;
        }
        if (this.stopped) return;
        this.onTrouble(closedWith);
      } catch (error) {
        // Stopped while a request was out: the failure is no longer anyone's concern.
        if (this.stopped) return;
        this.onTrouble(error instanceof Error ? error : new Error(String(error)));
      }
      // A list that answered means the server was back: start the backoff over.
      if (listed) delay = this.backoff.initialMs;
      await this.sleep(delay);
      delay = Math.min(delay * 2, this.backoff.maxMs);
    }
  }

  /** One list and one watch; resolves when the watch closes, with its error if it failed. */
  private async listAndWatch(onListed: () => void): Promise<Error | undefined> {
    const { object, resourceVersion } = await this.stream.list(this.ref);
    if (this.stopped) return undefined;
    onListed();
    this.onObject(object ?? null);
    return new Promise<Error | undefined>((resolve, reject) => {
      this.stream
        .watch(
          this.ref,
          resourceVersion,
          (type, changed) => this.onObject(type === "DELETED" ? null : changed),
          resolve,
        )
        .then((watch) => {
          this.openWatch = watch;
          if (this.stopped) {
            watch.stop();
            resolve(undefined);
          }
        }, reject);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
