/**
 * The bound on the previews one replica runs at once. Each preview is a whole Pulumi engine with
 * the Kubernetes provider (a few hundred MiB), and people ask for them at will (the API's limit is
 * per person): without a bound a few people would run a replica out of memory, and the updates it
 * runs with it. Past the bound a preview waits a short time in a short queue, so that a burst is
 * smoothed; past that it is refused at once, busy, so that no request hangs on a replica that
 * cannot serve it and the person (or the command) knows to try again.
 */

/** How long a preview waits for a place before it is answered busy (and the Retry-After it is answered with). */
export const PREVIEW_QUEUE_WAIT_MS = 15_000;

/** A preview refused because the replica runs as many as it may and no place came free; nothing of it ran. */
export class PreviewsBusyError extends Error {
  /** The API's kind for it (http/httpErrors.ts maps it, once). */
  readonly kind = "overloaded";

  /**
   * @param running the previews the replica runs (its bound).
   * @param why what else kept this one out: the queue, or the wait.
   * @param retryAfterSeconds when to try again, for the answer's Retry-After.
   */
  constructor(
    readonly running: number,
    why: string,
    readonly retryAfterSeconds: number,
  ) {
    super(
      `this replica is running ${running} ${running === 1 ? "preview" : "previews"} already, as many as it runs at once, ${why}; nothing was run: try again in ${retryAfterSeconds} s`,
    );
    this.name = new.target.name;
  }
}

/**
 * A semaphore of `size` places with a queue as long as the pool: a queue no longer than the pool is
 * what keeps each wait short, since the waiters are served as the running previews end.
 */
export class PreviewPool {
  /** The places taken: a place an ending preview hands to a waiter stays taken. */
  private taken = 0;
  /** The waiters, first come first served: each takes the place handed to it. */
  private readonly waiting: (() => void)[] = [];

  /**
   * @param size how many previews run at once.
   * @param waitMs how long one waits for a place.
   */
  constructor(
    private readonly size: number,
    private readonly waitMs = PREVIEW_QUEUE_WAIT_MS,
  ) {}

  /** Runs `task` in a place, once there is one; PreviewsBusyError when none comes free in time. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // Taken at once when free, so that a preview starts in the same turn as it is asked for.
    if (this.taken < this.size) this.taken++;
    else await this.place();
    try {
      return await task();
    } finally {
      this.leave();
    }
  }

  /** Hands the place to the first waiter, or frees it. */
  private leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.taken--;
  }

  /** A place handed on by an ending preview, within the wait; refused at once when the queue is full. */
  private place(): Promise<void> {
    if (this.waiting.length >= this.size) return Promise.reject(this.busy(`and ${this.waiting.length} more wait`));
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(this.busy(`and none ended in the ${this.retryAfterSeconds()} s this one waited`));
      }, this.waitMs);
      this.waiting.push(take);
    });
  }

  /** The refusal of a preview kept out by `why`. */
  private busy(why: string): PreviewsBusyError {
    return new PreviewsBusyError(this.size, why, this.retryAfterSeconds());
  }

  // As long again as a refused preview waited (or would have): a place that stayed taken that long is not likely free sooner.
  private retryAfterSeconds(): number {
    return Math.ceil(this.waitMs / 1000);
  }
}
