/** Paths into ../shared/reference, read at test time and never copied into the repo. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** Root of the shared folder: KUBESPACES_SHARED_DIR, else ../shared beside the repo. */
export const SHARED_DIR = process.env.KUBESPACES_SHARED_DIR ?? path.resolve(__dirname, "../../../../shared");

/** Reads a JSON file under shared/reference. */
export function readReferenceJson(relative: string): any {
  const file = path.join(SHARED_DIR, "reference", relative);
  if (!existsSync(file)) throw new Error(`${file} is missing: set KUBESPACES_SHARED_DIR to the shared folder`);
  return JSON.parse(readFileSync(file, "utf8"));
}
