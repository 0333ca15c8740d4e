/**
 * Ctrl-C during a long command. The first one stops the operation gracefully: the command's own
 * waits end at once, and the engine finishes the steps in flight, saves the state and stops. A
 * second one stops the command at once.
 *
 * From a terminal the engine (in this command's process group) already gets the same SIGINT and
 * cancels by itself, and a second SIGINT would stop it hard: so it is told through its own signal
 * only when none of this command's streams is a terminal (a `kill -INT` from a supervisor).
 */

import type { OperationOptions } from "../tenants/tenantsService";
import type { ProgressDisplay } from "./progressDisplay";

/** The signals an operation gets. */
export interface Interrupts {
  /** Aborted on the first Ctrl-C. */
  readonly signal: AbortSignal;
  /** Aborted on the first Ctrl-C when the engine does not get the terminal's SIGINT itself. */
  readonly engineSignal: AbortSignal;
  /** Stops listening. */
  readonly dispose: () => void;
  /**
   * Stops the operation as a first Ctrl-C does, saying nothing: for a deadline (`--timeout`). The
   * engine is told through its own signal, as no terminal sends it a SIGINT.
   */
  readonly stop: () => void;
}

/** What the first Ctrl-C does to a run of the command's own engine. */
export const ENGINE_INTERRUPT =
  "interrupted: the engine finishes the steps in flight, saves the state and stops (Ctrl-C again stops at once)";

/**
 * Listens for Ctrl-C; `say` tells the user what the first one does (`whatHappens`) and, at the
 * second, what to run next (`howToGoOn`).
 */
export function listenForInterrupts(say: (line: string) => void, whatHappens: string, howToGoOn: string): Interrupts {
  const operation = new AbortController();
  const engine = new AbortController();
  const fromTerminal = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
  const onSecond = () => {
    say(`stopped at once; ${howToGoOn}`);
    process.exit(130);
  };
  const onFirst = () => {
    say(whatHappens);
    operation.abort();
    if (!fromTerminal) engine.abort();
    process.once("SIGINT", onSecond);
  };
  process.once("SIGINT", onFirst);
  return {
    signal: operation.signal,
    engineSignal: engine.signal,
    dispose: () => {
      process.removeListener("SIGINT", onFirst);
      process.removeListener("SIGINT", onSecond);
    },
    stop: () => {
      operation.abort();
      engine.abort();
    },
  };
}

/**
 * Listens for Ctrl-C for a command that only follows (a watch): the first one aborts `signal`, and
 * the command ends there, as `kubectl get -w` does; it has nothing to stop but itself.
 */
export function watchInterrupts(): Pick<Interrupts, "signal" | "dispose"> {
  const stop = new AbortController();
  const onInterrupt = () => stop.abort();
  process.once("SIGINT", onInterrupt);
  return { signal: stop.signal, dispose: () => process.removeListener("SIGINT", onInterrupt) };
}

/** The options of a long operation: progress to `display`, stopped by `interrupts`. */
export function operationOptions(
  display: ProgressDisplay,
  interrupts: Interrupts,
  lockTimeoutMs: number,
): OperationOptions {
  return {
    onEvent: (event) => display.tenant(event),
    onNote: (line) => display.note(line),
    signal: interrupts.signal,
    engineSignal: interrupts.engineSignal,
    lockTimeoutMs,
  };
}
