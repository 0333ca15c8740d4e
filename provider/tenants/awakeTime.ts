/**
 * How long a tenant's control plane was awake over the last days, read from its stack's history:
 * the one record of its sleeps and wakes that outlives every process of every door (each sleep or
 * wake is an update whose recorded request says `sleep`). The portal's tenant page and
 * `kubespaces tenant get -o wide` show it; what a tenant costs follows from it.
 *
 * It errs towards awake, as a bill should not undercount: an update that brings the tenant up
 * counts from its start, one that puts it to sleep until its end, and an update that recorded no
 * request (made before requests were recorded) counts as bringing it up. A failed update changes
 * nothing: the tenant is taken to stand as it did before it.
 */
import type { StackUpdate } from "./ports";

/** The days the portal and the command look back over. */
export const AWAKE_WINDOW_DAYS = 30;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A stretch of time the control plane ran, in epoch milliseconds. */
export interface AwakeInterval {
  /** When it woke. */
  readonly from: number;
  /** When it went to sleep or was torn down; now, while it is awake. */
  readonly to: number;
}

/** The tenant's awake time over a window of whole days ending now. */
export interface AwakeTime {
  /** The hours awake in the window, to one decimal. */
  readonly hours: number;
  /** The same, in whole seconds. */
  readonly seconds: number;
  /** The window's days, oldest first: each UTC day's date (YYYY-MM-DD) and its hours awake, to one decimal. */
  readonly days: readonly { readonly date: string; readonly hours: number }[];
}

/** Whether a succeeded update leaves the control plane running; undefined: it leaves it as it was. */
function leavesAwake(update: StackUpdate): boolean | undefined {
  if (update.kind === "destroy") return false;
  if (update.kind !== "update") return undefined;
  return update.request?.sleep !== true;
}

/** The stretches `updates` (newest first, as the history lists them) kept the tenant awake, up to `now`. */
export function awakeIntervals(updates: readonly StackUpdate[], now: number): AwakeInterval[] {
  const intervals: AwakeInterval[] = [];
  let wokeAt: number | undefined;
  for (const update of [...updates].reverse()) {
    if (update.result !== "succeeded") continue;
    const awake = leavesAwake(update);
    if (awake === true && wokeAt === undefined) wokeAt = Date.parse(update.startedAt);
    if (awake === false && wokeAt !== undefined) {
      intervals.push({ from: wokeAt, to: Date.parse(update.endedAt ?? update.startedAt) });
      wokeAt = undefined;
    }
  }
  if (wokeAt !== undefined) intervals.push({ from: wokeAt, to: now });
  return intervals;
}

/** The milliseconds of `intervals` that fall between `start` and `end`. */
function overlapMs(intervals: readonly AwakeInterval[], start: number, end: number): number {
  return intervals.reduce((sum, i) => sum + Math.max(0, Math.min(i.to, end) - Math.max(i.from, start)), 0);
}

const oneDecimal = (ms: number): number => Math.round((ms / HOUR_MS) * 10) / 10;

/** The tenant's awake time over the `days` UTC days ending with today (today so far), from its history. */
export function awakeTime(updates: readonly StackUpdate[], now: number, days = AWAKE_WINDOW_DAYS): AwakeTime {
  const intervals = awakeIntervals(updates, now);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const perDay = Array.from({ length: days }, (_, index) => {
    const start = today - (days - 1 - index) * DAY_MS;
    const ms = overlapMs(intervals, start, Math.min(start + DAY_MS, now));
    return { date: new Date(start).toISOString().slice(0, 10), ms };
  });
  const totalMs = perDay.reduce((sum, day) => sum + day.ms, 0);
  return {
    hours: oneDecimal(totalMs),
    seconds: Math.round(totalMs / 1000),
    days: perDay.map(({ date, ms }) => ({ date, hours: oneDecimal(ms) })),
  };
}
