#!/usr/bin/env node
/** The `kubespaces` binary: the command line on the process's streams, the login's door and the browser. */
import { openBrowser } from "./browserOpen";
import type { CommandEnv } from "./commandEnv";
import { packageManifest } from "./packageManifest";
import { runCli } from "./runCli";

const { version } = packageManifest();

const env: CommandEnv = {
  stdout: process.stdout,
  stderr: process.stderr,
  // Loaded when a tenant command runs, not for --help.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  door: (host) => (require("./openDoor") as typeof import("./openDoor")).openDoor(host),
  openBrowser: (url) => void openBrowser(url),
};

void runCli(version, process.argv, env).then((code) => {
  process.exitCode = code;
});
