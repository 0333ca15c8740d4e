/**
 * Where the `kubespaces` command keeps what it needs between runs: `$KUBESPACES_HOME`, else
 * `~/.kubespaces`. It holds the login settings, the request files of the embedded tenants
 * program, the default file state backend, the passphrase that encrypts its secrets, and the
 * journals of running updates.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** The command's home folder. */
export function cliHome(): string {
  return process.env.KUBESPACES_HOME || path.join(os.homedir(), ".kubespaces");
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
