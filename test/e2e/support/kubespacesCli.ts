/**
 * Runs the real `kubespaces` binary (node_modules/.bin/kubespaces, as `npx kubespaces` does) with
 * its own home and the user's own kubeconfig file, without a terminal (pipes) or in a pseudo-
 * terminal (util-linux `script`), and waits on what it prints, not on time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./testbed";

/** The binary, where `npm ci` (via scripts/linkSelf.mjs) puts it. */
export const KUBESPACES_BIN = path.join(REPO_ROOT, "node_modules", ".bin", "kubespaces");

/** A user's machine for the binary: its home (state, requests) and the user's kubeconfig file. */
export interface CliUser {
  readonly home: string;
  readonly kubeconfig: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A fresh user: empty KUBESPACES_HOME, no kubeconfig yet, no login (so the host is the test bed). */
export function newCliUser(): CliUser {
  const root = mkdtempSync(path.join(os.tmpdir(), "kubespaces-cli-"));
  const home = path.join(root, "home");
  const kubeconfig = path.join(root, "kube", "config");
  // The test process's own PATH is a user's shell: the binary must not need more. Git's identity is
  // left out, so that `login --user` decides who the user is.
  const env = {
    ...process.env,
    KUBESPACES_HOME: home,
    KUBECONFIG: kubeconfig,
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  return { home, kubeconfig, env };
}

/** What a finished command did. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running command, and what it has printed so far. */
export class Running {
  stdout = "";
  stderr = "";
  readonly finished: Promise<Finished>;
  private readonly waiters: { pattern: RegExp; resolve: () => void }[] = [];

  constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (chunk: Buffer) => this.take("stdout", chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.take("stderr", chunk));
    this.finished = new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout: this.stdout, stderr: this.stderr }));
    });
  }

  /** Resolves once the output (stdout and stderr together) matches `pattern`; rejects if the command ends first. */
  printed(pattern: RegExp): Promise<void> {
    if (pattern.test(this.stdout + this.stderr)) return Promise.resolve();
    const seen = new Promise<void>((resolve) => this.waiters.push({ pattern, resolve }));
    const ended = this.finished.then((f) => {
      throw new Error(`command ended (exit ${f.code}) without printing ${pattern}:\n${f.stdout}\n${f.stderr}`);
    });
    return Promise.race([seen, ended]);
  }

  private take(stream: "stdout" | "stderr", chunk: Buffer): void {
    this[stream] += chunk.toString("utf8");
    for (const waiter of [...this.waiters]) {
      if (waiter.pattern.test(this.stdout + this.stderr)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/** Starts `kubespaces ARGS` without a terminal. */
export function startKubespaces(user: CliUser, args: readonly string[]): Running {
  return new Running(spawn(KUBESPACES_BIN, args, { env: user.env, stdio: ["ignore", "pipe", "pipe"] }));
}

/** Runs `kubespaces ARGS` without a terminal, to its end. */
export function kubespaces(user: CliUser, ...args: string[]): Promise<Finished> {
  return startKubespaces(user, args).finished;
}

/**
 * Runs a bash script in a pseudo-terminal (`script`), with `kubespaces` on PATH; stdout is the
 * terminal's transcript. Its stdin is the terminal's keyboard: write "\x03" for Ctrl-C.
 */
export function inTerminal(user: CliUser, script: string): Running {
  const env = {
    ...user.env,
    PATH: `${path.dirname(KUBESPACES_BIN)}${path.delimiter}${user.env.PATH}`,
    TERM: "xterm",
    COLUMNS: "120",
  };
  return new Running(
    spawn("script", ["-qfec", `bash -c ${shellQuote(script)}`, "/dev/null"], { env, stdio: ["pipe", "pipe", "pipe"] }),
  );
}

/** `text` as one single-quoted shell word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The transcript without terminal control sequences and carriage returns. */
export function plainTranscript(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
      .replace(/\r\n/g, "\n")
      .replace(/^.*\r/gm, "")
  );
}
