/**
 * When each tenant's periodic resync falls: once a period, at an offset of its own within the
 * period that its name decides, so that a fleet's resyncs are spread over the period instead of
 * all queued at one tick, and one tenant's resyncs stay a period apart.
 */
import { createHash } from "node:crypto";

/** Tenant `name`'s offset within a period of `periodMs`: the same for the same name, spread evenly over names. */
export function resyncOffsetMs(name: string, periodMs: number): number {
  // A digest's first 32 bits: similar names (team-1, team-2) land far apart.
  const hash = createHash("sha256").update(name).digest().readUInt32BE(0);
  return Math.floor((hash / 2 ** 32) * periodMs);
}

/**
 * Every `periodMs`, lists the tenants and calls `resync` for each at its offset within the period,
 * until `signal` aborts. A failed list is reported and tried at the next period.
 */
export function scheduleResyncs(
  periodMs: number,
  list: () => Promise<readonly string[]>,
  resync: (name: string) => void,
  onError: (error: unknown) => void,
  signal: AbortSignal,
): void {
  const pending = new Set<NodeJS.Timeout>();
  const at = (delayMs: number, run: () => void) => {
    const timer = setTimeout(() => {
      pending.delete(timer);
      run();
    }, delayMs);
    pending.add(timer);
  };
  const period = (): void => {
    if (signal.aborted) return;
    const started = Date.now();
    list()
      .then((names) => {
        for (const name of names)
          at(Math.max(0, resyncOffsetMs(name, periodMs) - (Date.now() - started)), () => resync(name));
      })
      .catch(onError);
    at(periodMs, period);
  };
  signal.addEventListener("abort", () => pending.forEach(clearTimeout), { once: true });
  at(0, period);
}
