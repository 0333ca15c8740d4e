/**
 * Runs a client-node informer until a signal aborts, as the server's watches need it: an informer
 * stops on an error, so a broken one starts again after a pause, and it lists everything again
 * when it does, so that no change is lost.
 */
import type { Informer, KubernetesObject } from "@kubernetes/client-node";

/** How an informer's run reports. */
export interface InformerRunOptions {
  /** A broken watch, before it starts again. */
  readonly onError: (error: unknown) => void;
  /** The informer listed everything and watches for changes (at its start, and at each restart). */
  readonly onSynced?: () => void;
  /** The pause before a broken watch starts again. @default 5000 */
  readonly restartDelayMs?: number;
}

/** Starts `informer` and keeps it running until `signal` aborts. */
export function runInformer<T extends KubernetesObject>(
  informer: Informer<T>,
  options: InformerRunOptions,
  signal: AbortSignal,
): void {
  let restart: NodeJS.Timeout | undefined;
  const start = (): void => {
    if (signal.aborted) return;
    informer.start().then(options.onSynced, (error: unknown) => {
      options.onError(error);
      startLater();
    });
  };
  const startLater = (): void => {
    clearTimeout(restart);
    if (!signal.aborted) restart = setTimeout(start, options.restartDelayMs ?? 5000);
  };
  informer.on("error", (error) => {
    // Stopping the informer aborts its watch: that is no error.
    if (signal.aborted) return;
    options.onError(error);
    startLater();
  });
  signal.addEventListener("abort", () => {
    clearTimeout(restart);
    void informer.stop();
  });
  start();
}
