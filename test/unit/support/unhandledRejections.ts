/**
 * The process's unhandled rejections during one test. The test runner's own listeners (which would
 * fail the run on the first one) step aside while it runs, so that a test can look at what a
 * program leaves unhandled: a Pulumi program fails through exactly such rejections.
 */

/** Runs `run` and returns every reason the process reported as an unhandled rejection meanwhile. */
export async function unhandledRejectionsOf(run: () => Promise<void>): Promise<unknown[]> {
  const reasons: unknown[] = [];
  const collect = (reason: unknown) => void reasons.push(reason);
  const runners = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  process.on("unhandledRejection", collect);
  try {
    await run();
    // Node reports a rejection as unhandled after the microtasks of its turn: let one more turn pass.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off("unhandledRejection", collect);
    for (const listener of runners) process.on("unhandledRejection", listener);
  }
  return reasons;
}
