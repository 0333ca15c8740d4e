/**
 * The errors of the libraries the front ends share (kubeconfig/, hosts/, the server's local identity
 * provider): what went wrong, by kind, for each front end to answer in its own way. The command
 * maps the kinds to exit codes in one place (cli/exitCodes.ts); the libraries know no exit code.
 */

/** What kind of trouble it is. */
export type ProblemKind =
  /** The input a person gave (a file, a flag's value) was refused; nothing was changed. */
  | "invalid"
  /** Something another process holds (a file's lock) stayed held. */
  | "busy"
  /** The person stopped it (Ctrl-C). */
  | "interrupted"
  /** Anything else: a tool, a file or a process failed; the message says what. */
  | "failed";

/** An error of a shared library, with its kind. */
export class ProblemError extends Error {
  /**
   * @param message what went wrong and how to go on, for people.
   * @param kind what kind of trouble it is.
   */
  constructor(
    message: string,
    readonly kind: ProblemKind,
  ) {
    super(message);
    this.name = "ProblemError";
  }
}
