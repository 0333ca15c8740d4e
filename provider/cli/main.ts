#!/usr/bin/env node
/**
 * The `kubespaces` binary. Expected failures (CliError) print their message alone and exit with
 * their code; anything else prints its message and exits 1.
 */
import { CommanderError } from "commander";
import { readFileSync } from "node:fs";
import path from "node:path";
import { cliProgram } from "./cliProgram";
import { engineErrorSummary } from "./engineErrors";
import { CliError, EXIT } from "./exitCodes";

const { version } = JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string };

cliProgram(version)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors were already printed.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.invalid;
      return;
    }
    const message = error instanceof CliError ? error.message : engineErrorSummary(error);
    process.stderr.write(`kubespaces: ${message}\n`);
    process.exitCode = error instanceof CliError ? error.code : EXIT.error;
  });
