/**
 * One run of the command line, and the one place where what ends it becomes an exit code: the
 * tenants service's errors by kind (exitCodes.ts), the command's own CliError by its code,
 * commander's usage errors 2, anything else 1 with the engine's error lines.
 */
import { CommanderError } from "commander";
import { engineErrorSummary } from "../tenants/engineErrors";
import { TenantsError } from "../tenants/tenantsErrors";
import { cliProgram } from "./cliProgram";
import type { CommandEnv } from "./commandEnv";
import { CliError, EXIT, exitCodeOfKind } from "./exitCodes";

/** Runs `argv` (as `process.argv`: node, script, arguments...); resolves to the exit code, having printed any error. */
export async function runCli(version: string, argv: readonly string[], env: CommandEnv): Promise<number> {
  let code: number = EXIT.ok;
  try {
    await cliProgram(version, env, (c) => (code = c)).parseAsync([...argv]);
    return code;
  } catch (error) {
    // --help and --version end here with code 0; usage errors were already printed.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalid;
    const { message, exit } = describeFailure(error);
    env.stderr.write(`kubespaces: ${message}\n`);
    return exit;
  }
}

/** An error's message for people and its exit code. */
function describeFailure(error: unknown): { message: string; exit: number } {
  if (error instanceof CliError) return { message: error.message, exit: error.code };
  if (error instanceof TenantsError) return { message: error.message, exit: exitCodeOfKind(error.kind) };
  return { message: engineErrorSummary(error), exit: EXIT.error };
}
