/**
 * What every command runs with: where it prints, how it opens its door to the tenants, and how it
 * shows a page in a browser. The binary passes the process's streams, the login's door (openDoor.ts)
 * and the machine's browser; tests pass captured streams, a door over stand-ins, and a "browser"
 * of their own that completes a sign-in.
 */
import type { HostNaming } from "../hosts/hostChoice";
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
  /**
   * Opens the door of the recorded login (read when a command runs, not before), on the host the
   * run's `--context` / `--kubeconfig` name, if it names one (a command passes its options).
   */
  readonly door: (host?: HostNaming) => Promise<TenantsDoor>;
  /** Opens a URL in a browser, where there is one (sign-in's page); none: the URL is only printed. */
  readonly openBrowser?: (url: string) => void;
}
