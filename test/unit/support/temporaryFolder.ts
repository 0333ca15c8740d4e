/** Temporary folders for tests that write files: one per test, removed after it. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * A fresh temporary folder named `prefix…` for each test of the enclosing suite, removed after it.
 * Call it before the hooks that use the folder: `beforeEach` hooks run in the order they are added.
 */
export function temporaryFolderEach(prefix: string): () => string {
  let dir = "";
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
