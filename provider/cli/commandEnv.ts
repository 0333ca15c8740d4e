/**
 * What every command runs with: where it prints, and how it opens its door to the tenants. The
 * binary passes the process's streams and the login's door (openDoor.ts); tests pass captured
 * streams and a door over stand-ins.
 */
import type { TenantsDoor } from "./tenantsDoor";

/** A stream a command prints to. */
export interface OutputStream {
  /** Writes text. */
  write(text: string): unknown;
  /** Whether it is a terminal (live progress is drawn only there). */
  readonly isTTY?: boolean;
  /** Its width, on a terminal. */
  readonly columns?: number;
}

/** The command's environment. */
export interface CommandEnv {
  /** Results (what `--output` formats). */
  readonly stdout: OutputStream;
  /** Progress, hints and errors. */
  readonly stderr: OutputStream;
  /** Opens the door of the recorded login (read when a command runs, not before). */
  readonly door: () => Promise<TenantsDoor>;
}
