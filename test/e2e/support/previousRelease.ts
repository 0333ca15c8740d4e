/**
 * The previous release of the package, built from the repository's own history, for the upgrade
 * test: the package has no tagged release yet, so "previous" is main as it last landed before the
 * server's rooms and pipeline (PREVIOUS_RELEASE). Move it forward when a release is cut.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./testbed";

const run = promisify(execFile);

/** The commit of the previous release (the landing before this one). */
export const PREVIOUS_RELEASE = "03b837ecac9bb66987827f88a7ca0e7592e97b28";

/** A built checkout of a release: its folder and its `kubespaces` entry point. */
export interface ReleaseBuild {
  /** Where its files are. */
  readonly root: string;
  /** Its command's entry point, run with `node`. */
  readonly bin: string;
}

/**
 * Builds release `commit` in a folder of its own: its files from git (no work tree of this one is
 * touched), installed with `npm ci`, whose `prepare` builds it, as a user's install of that
 * version would be. Prints how long it took.
 */
export async function buildRelease(commit: string = PREVIOUS_RELEASE): Promise<ReleaseBuild> {
  const started = performance.now();
  const root = mkdtempSync(path.join(os.tmpdir(), `kubespaces-release-${commit.slice(0, 7)}-`));
  await run("bash", ["-c", `git -C '${REPO_ROOT}' archive --format=tar '${commit}' | tar -x -C '${root}'`]);
  await run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  process.stderr.write(
    `[upgrade] release ${commit.slice(0, 7)} built in ${Math.round((performance.now() - started) / 1000)}s\n`,
  );
  return { root, bin: path.join(root, "bin", "cli", "main.js") };
}
