/** Writing a file so that a reader sees the old contents or the new, never half of them. */
import { linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Writes `text` to `file` through a temporary file beside it and a rename; `mode` applies to the new file. */
export function writeAtomically(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, file);
}

/**
 * Writes `text` to `file` only if no file is there, whole (through a temporary file and a hard
 * link, which fails when the name is taken); returns whether it wrote.
 */
export function writeExclusively(file: string, text: string, mode = 0o644): boolean {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}
