/**
 * The user's kubeconfig file, edited the way kubectl does and safely in a folder other users may
 * write: the path resolved once (a link the user made is followed, the link kept), `<file>.lock`
 * held while editing, the old text kept as `<file>.kubespaces-backup`, the new text written in one
 * step with mode 0600. Nothing at the lock's, the backup's or a temporary file's name is followed:
 * they are created exclusively or put in place by a rename.
 */
import { mkdirSync, readFileSync, readlinkSync, realpathSync, unlinkSync } from "node:fs";
import path from "node:path";
import { writeAtomically, writeNewFile } from "../util/atomicFile";
import { ProblemError } from "../util/problemError";
import { editedText, parseKubeconfigText, type KubeconfigEdit, type KubeconfigText } from "./kubeconfigText";

/** What an edit of a kubeconfig file did. */
export interface KubeconfigFileEdit {
  /** The file edited: the path given, with its symbolic links resolved. */
  readonly file: string;
  /** Where the previous text was kept; undefined when nothing was written or there was no file before. */
  readonly backup?: string;
  /** Whether the file was written (an edit that changes nothing writes nothing). */
  readonly written: boolean;
}

/**
 * Applies the edit that `plan` decides, from the file as it is once locked, to the kubeconfig at
 * `linkOrFile`; only the entries and fields the edit names change (kubeconfigText).
 */
export function editKubeconfigFile(
  linkOrFile: string,
  plan: (current: KubeconfigText) => KubeconfigEdit,
): KubeconfigFileEdit {
  const file = resolvedKubeconfigFile(linkOrFile);
  return whileLocked(file, () => {
    const before = readIfThere(file);
    const current = parseKubeconfigText(before ?? "", `kubeconfig ${file}`);
    const after = editedText(current, plan(current));
    if (after === (before ?? "")) return { file, written: false };
    const backup = before === undefined ? undefined : writeBackup(file, before);
    writeAtomically(file, after, 0o600);
    return { file, backup, written: true };
  });
}

/**
 * The file a kubeconfig path names, resolved once, up front: a symbolic link the user made (to a
 * file in a dotfiles repository, say) is followed, even when its target does not exist yet, so the
 * write replaces the target and the link stays. Everything written after this (lock, backup,
 * temporary file) is beside the target and created without following links.
 */
export function resolvedKubeconfigFile(linkOrFile: string): string {
  let file = path.resolve(linkOrFile);
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    try {
      return realpathSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const target = linkTarget(file);
    if (target === undefined) return file; // a new file: nothing to follow
    file = path.resolve(path.dirname(file), target);
  }
  throw new ProblemError(`${linkOrFile}: too many levels of symbolic links`, "invalid");
}

/** As many links as Linux follows before ELOOP. */
const MAX_LINKS = 40;

/** Where the dangling link `file` points, or undefined when `file` is not a link (or not there). */
function linkTarget(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EINVAL" || code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Runs `edit` holding `<file>.lock`, created exclusively (a planted link there is refused, not followed). */
function whileLocked<T>(file: string, edit: () => T): T {
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  try {
    writeNewFile(lock, String(process.pid), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new ProblemError(
      `${file} is locked by another program (${lock}); try again, or remove the lock if nothing is writing the file`,
      "busy",
    );
  }
  try {
    return edit();
  } finally {
    unlinkSync(lock);
  }
}

/** The backup's name: `<file>.kubespaces-backup`, as docs/self-service.md says. */
export const backupFileOf = (file: string): string => `${file}.kubespaces-backup`;

/**
 * Keeps `text`, the file's contents before the edit, as its backup (mode 0600: it holds the same
 * credentials). Written like the file itself, through a new temporary file and a rename, so a link
 * or a file planted at the backup's name is replaced, never written through or chmod-ed.
 */
function writeBackup(file: string, text: string): string {
  const backup = backupFileOf(file);
  writeAtomically(backup, text, 0o600);
  return backup;
}

/** The file's text, or undefined when there is none yet. */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
