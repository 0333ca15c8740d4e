/**
 * Writing a file so that a reader sees the old contents or the new, never half of them, and so that
 * nothing already at a temporary path is written through: the temporary file has a random name, is
 * created exclusively (a file or a symbolic link planted there makes the write fail instead of
 * receiving the text), and only a rename or a hard link puts it in place, which replace or refuse a
 * name without following it.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

/** Create a new file or fail: `O_EXCL` refuses any existing name, `O_NOFOLLOW` says so for links too. */
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes `text` to `file`, which must not exist (not even as a dangling symbolic link): it fails
 * with `EEXIST` rather than open what someone else put there. `mode` applies (less the umask).
 */
export function writeNewFile(file: string, text: string, mode = 0o644): void {
  const fd = openSync(file, CREATE_NEW, mode);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } catch (error) {
    // The name is ours (we created it): a half-written file must not stay behind.
    rmSync(file, { force: true });
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** A name beside `file` that nobody can guess ahead of time, hidden from listings by its dot. */
export function temporaryNameBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(12).toString("hex")}.tmp`);
}

/**
 * Writes `text` to a new temporary file beside `file` (its folder created when missing) and hands
 * its name to `place`, which puts the file at `file`; then the temporary name goes, if it is still
 * there (beside a hard link, or after a failure; a rename has moved it already).
 */
function throughTemporary<T>(file: string, text: string, mode: number, place: (temporary: string) => T): T {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = temporaryNameBeside(file);
  writeNewFile(temporary, text, mode);
  try {
    return place(temporary);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Writes `text` to `file` through a new temporary file beside it and a rename; `mode` applies to
 * the new file. A symbolic link at `file` itself is replaced, not followed: resolve it first when
 * the link must stay.
 */
export function writeAtomically(file: string, text: string, mode = 0o644): void {
  throughTemporary(file, text, mode, (temporary) => renameSync(temporary, file));
}

/**
 * Writes `text` to `file` only if no file is there, whole (through a temporary file and a hard
 * link, which fails when the name is taken); returns whether it wrote.
 */
export function writeExclusively(file: string, text: string, mode = 0o644): boolean {
  return throughTemporary(file, text, mode, (temporary) => {
    try {
      linkSync(temporary, file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw error;
    }
  });
}
