/**
 * A working copy of a repository on the test bed's Git server (`testbed.sh flux`), changed as a
 * person changes one: files written or removed, a commit under their name, a push over HTTP. The
 * git command line does it all, as it would for them.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Who commits: the name and email a commit carries as its author and committer. */
export interface GitAuthor {
  readonly name: string;
  readonly email: string;
}

/** A change to commit: each path (relative to the repository's root) written, or removed when `undefined`. */
export type FileChanges = Readonly<Record<string, string | undefined>>;

/** A working copy of the repository at `url`, starting empty on branch `main`. */
export class GitWorkingCopy {
  /** The working copy's folder. */
  readonly dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-gitops-"));

  constructor(readonly url: string) {
    this.git("init", "--quiet", "--initial-branch=main");
    this.git("remote", "add", "origin", url);
  }

  /** Runs git in the working copy; its output, trimmed. */
  git(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  }

  /** Switches to `branch`, made from the current commit when it does not exist yet. */
  checkout(branch: string): void {
    const exists = this.git("branch", "--list", branch) !== "";
    this.git("checkout", "--quiet", ...(exists ? [branch] : ["-b", branch]));
  }

  /** Commits `changes` as `author` on the current branch and pushes it; returns the commit's id. */
  commitAndPush(author: GitAuthor, message: string, changes: FileChanges): string {
    for (const [file, content] of Object.entries(changes)) {
      const full = path.join(this.dir, file);
      if (content === undefined) {
        this.git("rm", "--quiet", file);
      } else {
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, content);
        this.git("add", file);
      }
    }
    const identity = ["-c", `user.name=${author.name}`, "-c", `user.email=${author.email}`];
    this.git(...identity, "commit", "--quiet", "-m", message);
    this.git("push", "--quiet", "origin", "HEAD");
    return this.git("rev-parse", "HEAD");
  }

  /** The paths `branch` adds to or changes from `base`: what a pull request's diff names. */
  changedFiles(base: string, branch: string): string[] {
    return this.git("diff", "--name-only", `${base}...${branch}`).split("\n").filter(Boolean);
  }

  /** Removes the working copy. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
