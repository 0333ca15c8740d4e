/** The benchmarks' one stopwatch. */

/** How long `action` took, in ms (performance.now(), monotonic). */
export async function timed(action: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}
