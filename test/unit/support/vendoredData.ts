/** Upstream data vendored under third_party/ (see third_party/README.md for where each file comes from). */
import { readFileSync } from "node:fs";
import path from "node:path";

const THIRD_PARTY = path.resolve(__dirname, "../../../third_party");

/** Reads a vendored JSON file, by its path under third_party/. */
export function readVendoredJson(relative: string): unknown {
  return JSON.parse(readFileSync(path.join(THIRD_PARTY, relative), "utf8"));
}
