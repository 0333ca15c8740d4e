/**
 * When each tenant's periodic resync falls: once a period, at an offset of its own within the
 * period that its name decides, so that a fleet's resyncs are spread over the period instead of
 * all queued at one tick, and one tenant's resyncs stay a period apart.
 */
import { createHash } from "node:crypto";

/**
 * How many slices a period is cut into. The tenants are read at the start of each slice, and those
 * whose offsets fall in it are scheduled: a tenant made in the middle of a period is resynced
 * within that period and one slice, not only once the next period's list has seen it.
 */
export const RESYNC_SLICES = 12;

/** Tenant `name`'s offset within a period of `periodMs`: the same for the same name, spread evenly over names. */
export function resyncOffsetMs(name: string, periodMs: number): number {
  // A digest's first 32 bits: similar names (team-1, team-2) land far apart.
  const hash = createHash("sha256").update(name).digest().readUInt32BE(0);
  return Math.floor((hash / 2 ** 32) * periodMs);
}

/**
 * Every `periodMs`, from now, calls `resync` for each tenant of `tenants` at its offset within the
 * period, until `signal` aborts. `tenants` is read once a slice (RESYNC_SLICES), so it should cost
 * nothing: the watch's cache, not a list from the API server.
 */
export function scheduleResyncs(
  periodMs: number,
  tenants: () => Iterable<string>,
  resync: (name: string) => void,
  signal: AbortSignal,
): void {
  const started = Date.now();
  const sliceMs = periodMs / RESYNC_SLICES;
  const pending = new Set<NodeJS.Timeout>();
  // Times are counted from the start, so the slices never drift, however late a timer fires.
  const at = (sinceStartMs: number, run: () => void) => {
    const timer = setTimeout(
      () => {
        pending.delete(timer);
        run();
      },
      Math.max(0, started + sinceStartMs - Date.now()),
    );
    pending.add(timer);
  };
  const slice = (index: number): void => {
    if (signal.aborted) return;
    const periodStart = Math.floor(index / RESYNC_SLICES) * periodMs;
    const from = (index % RESYNC_SLICES) * sliceMs;
    for (const name of tenants()) {
      const offset = resyncOffsetMs(name, periodMs);
      if (offset >= from && offset < from + sliceMs) at(periodStart + offset, () => resync(name));
    }
    at((index + 1) * sliceMs, () => slice(index + 1));
  };
  signal.addEventListener("abort", () => pending.forEach(clearTimeout), { once: true });
  slice(0);
}
