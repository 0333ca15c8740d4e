/**
 * The memory of a process and everything it started (a server replica and its Pulumi engines,
 * language hosts and providers), read from `ps`: the sum of their resident set sizes.
 */
import { execFileSync } from "node:child_process";

/** The resident memory of `pid` and its descendants, in MiB. */
export function treeRssMiB(pid: number): number {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number));
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const [child, parent, kib] of rows) {
    rss.set(child, kib);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  let total = 0;
  const pending = [pid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    total += rss.get(next) ?? 0;
    pending.push(...(children.get(next) ?? []));
  }
  return total / 1024;
}

/** Samples `treeRssMiB(pid)` every `ms`; the function returned stops the sampling and gives the peak. */
export function peakRss(pid: number, ms = 1000): () => number {
  let peak = treeRssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMiB(pid))), ms);
  return () => {
    clearInterval(timer);
    return Math.max(peak, treeRssMiB(pid));
  };
}
