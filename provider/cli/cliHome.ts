/**
 * Where the `kubespaces` command keeps what it needs between runs: `$KUBESPACES_HOME`, else
 * `~/.kubespaces`. It holds the login settings, the request files of the embedded tenants
 * program, the default file state backend, the passphrase that encrypts its secrets, and the
 * journals of running updates. It is used only once it is trusted (homeTrust): the user's own, and
 * writable by nobody else.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { assertTrustedHome, type TrustOptions } from "./homeTrust";

/** The home folder's path, not checked: `$KUBESPACES_HOME`, else `~/.kubespaces`. */
export function cliHomePath(): string {
  return process.env.KUBESPACES_HOME || path.join(os.homedir(), ".kubespaces");
}

/** The homes already found trusted by this process, by uid and path: each is checked once. */
const trusted = new Set<string>();

/** Where trustedHome looks, and for whom. */
export interface TrustedHomeOptions extends TrustOptions {
  /** The home to check. @default cliHomePath() */
  readonly home?: string;
}

/**
 * The command's home, created (mode 0700) if missing, after checking that it, its passphrase and
 * its login settings belong to the user and are writable by nobody else; a CliError says what is
 * wrong and how to fix it. The command calls it once at start; every use of the home goes through
 * it too (cliHome), checking each home once per process.
 */
export function trustedHome(options: TrustedHomeOptions = {}): string {
  const home = options.home ?? cliHomePath();
  const key = `${options.uid ?? process.getuid?.() ?? ""}:${home}`;
  if (!trusted.has(key)) {
    assertTrustedHome(home, options);
    trusted.add(key);
  }
  return home;
}

/** The command's home folder, once trusted (trustedHome). */
export function cliHome(): string {
  return trustedHome();
}

/** A folder under the home, created if missing (owner-only: it holds requests and state). */
export function homeDir(...parts: string[]): string {
  const dir = path.join(cliHome(), ...parts);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * The passphrase file that encrypts the tenants stack's secrets: random, made once with mode 0600
 * (put another in its place before the first command to choose it). Two commands starting at once
 * both end up with the first one's (exclusive create).
 */
export function passphraseFile(): string {
  const file = path.join(homeDir(), "passphrase");
  try {
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  readFileSync(file); // fail here, with the file's name, if it cannot be read
  return file;
}
