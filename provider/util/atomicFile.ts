/** Writing a file so that a reader sees the old contents or the new, never half of them. */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Writes `text` to `file` through a temporary file beside it and a rename; `mode` applies to the new file. */
export function writeAtomically(file: string, text: string, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, file);
}
