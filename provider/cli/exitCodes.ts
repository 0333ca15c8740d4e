/**
 * The `kubespaces` command's exit codes, documented in the README's self-service section. Scripts
 * branch on them, so a code keeps its meaning once released.
 */
export const EXIT = {
  /** The command did what was asked (a tenant read, created, deleted, a preview printed). */
  ok: 0,
  /** Something unexpected: the engine, the backend or the host cluster failed; the message says what. */
  error: 1,
  /** The request or the command line was refused before anything ran (validation, unknown flag). */
  invalid: 2,
  /** The tenant failed to become ready; the message is the reason. */
  failed: 3,
  /** No tenant of that name is requested or deployed. */
  notFound: 4,
  /** The tenants stack stayed locked by another update for longer than `--lock-timeout`. */
  busy: 5,
  /** Interrupted (Ctrl-C); the request is kept and the message says how to go on. */
  interrupted: 130,
} as const;

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the command reports as its message alone (no stack trace), exiting with `code`. */
export class CliError extends Error {
  /**
   * @param message what went wrong and how to go on, for people.
   * @param code the exit code it means.
   */
  constructor(
    message: string,
    readonly code: ExitCode,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** The error for a tenant that is neither requested nor deployed. */
export function tenantNotFound(name: string): CliError {
  return new CliError(`tenant ${name} not found (\`kubespaces tenant list --all\` shows every tenant)`, EXIT.notFound);
}

/** `read()`, with a missing file (one the user named) refused as bad input naming `what`. */
export function readingUserFile<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new CliError(`${what} does not exist`, EXIT.invalid);
    throw error;
  }
}
