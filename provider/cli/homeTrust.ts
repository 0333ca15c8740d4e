/**
 * Whether the command's home folder can be trusted, decided as ssh decides for `~/.ssh`
 * (StrictModes): the folder, its passphrase and its login settings must belong to the user who runs
 * the command and be writable by nobody else. Another user who could write them could choose the
 * passphrase, point the login at a backend or host cluster of theirs, or give it a platform policy
 * whose chart is a local path of theirs: the next command would run their chart with the user's
 * credentials; or put their own sign-in in place, so that the user's requests to a server are
 * theirs. A root-owned home is trusted only when root runs the command.
 */
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { CliError, EXIT } from "./exitCodes";

/** The files of the home held to the same rule as the home itself, with what they are for people. */
export const GUARDED_HOME_FILES: Readonly<Record<string, string>> = {
  passphrase: "passphrase file",
  "settings.json": "login settings",
  "sign-in.json": "server sign-in",
};

/** Who must own the home. */
export interface TrustOptions {
  /**
   * The uid the home and its files must belong to (tests name another to see a refusal).
   * @default process.getuid()
   */
  readonly uid?: number;
}

/** What trust reads of a file or folder. */
export interface OwnerAndMode {
  /** The owner's uid. */
  readonly uid: number;
  /** The mode bits (type bits may be there too). */
  readonly mode: number;
}

/**
 * Checks `home` and its guarded files, creating the home (mode 0700) when it is missing; throws a
 * CliError that names the path, the owner and mode found, and the fix. On Windows, which has
 * neither owners nor mode bits as POSIX has, it only creates the home.
 */
export function assertTrustedHome(home: string, options: TrustOptions = {}): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const uid = options.uid ?? process.getuid?.();
  if (uid === undefined) return;
  refuseUntrusted(home, "home folder", statSync(home), uid);
  for (const [name, what] of Object.entries(GUARDED_HOME_FILES)) {
    const file = path.join(home, name);
    const stats = statIfThere(file);
    if (stats) refuseUntrusted(file, what, stats, uid);
  }
}

/**
 * Why `found` (the owner and mode of `target`, the command's `what`) cannot be trusted by `uid`,
 * with the fix; undefined when it can.
 */
export function distrustOf(target: string, what: string, found: OwnerAndMode, uid: number): string | undefined {
  const mode = `0${(found.mode & 0o777).toString(8).padStart(3, "0")}`;
  if (found.uid !== uid) {
    return `kubespaces refuses its ${what} ${target}: it belongs to uid ${found.uid} (mode ${mode}), not to you (uid ${uid}), so another user controls it; use a folder of your own (KUBESPACES_HOME), or, if it is yours after all: sudo chown -R ${uid} ${target}`;
  }
  if ((found.mode & 0o022) !== 0) {
    return `kubespaces refuses its ${what} ${target}: its mode is ${mode}, so other users can write it, as ssh refuses such a ~/.ssh; fix it with: chmod go-w ${target}`;
  }
  return undefined;
}

/** Throws the CliError of distrustOf, if any. */
function refuseUntrusted(target: string, what: string, found: OwnerAndMode, uid: number): void {
  const reason = distrustOf(target, what, found, uid);
  if (reason) throw new CliError(reason, EXIT.invalid);
}

/** The file's owner and mode (through a link, like every reader of it), or undefined when it is not there. */
function statIfThere(file: string): OwnerAndMode | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
