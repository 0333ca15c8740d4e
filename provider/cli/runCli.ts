/**
 * One run of the command line, and the one place where what ends it becomes an exit code: the
 * tenants service's errors and the shared libraries' by kind (exitCodes.ts), the command's own
 * CliError by its code,
 * commander's usage errors 2, anything else 1 with the engine's error lines. The message is
 * shown with its control characters made visible: it may quote a server or another person.
 */
import { CommanderError } from "commander";
import { engineErrorSummary } from "../tenants/engineErrors";
import { StackBusyError, TenantsError } from "../tenants/tenantsErrors";
import { cliProgram } from "./cliProgram";
import type { CommandEnv } from "./commandEnv";
import { ProblemError } from "../util/problemError";
import { CliError, EXIT, exitCodeOfKind, exitCodeOfProblem } from "./exitCodes";
import { shownText } from "../util/terminalText";
import type { TenantsDoor } from "./tenantsDoor";

/** Runs `argv` (as `process.argv`: node, script, arguments...); resolves to the exit code, having printed any error. */
export async function runCli(version: string, argv: readonly string[], env: CommandEnv): Promise<number> {
  let code: number = EXIT.ok;
  // The door the command opened, if it did: a busy error says how to recover in its words.
  let door: TenantsDoor | undefined;
  const opening: CommandEnv = { ...env, door: async (host) => (door = await env.door(host)) };
  try {
    await cliProgram(version, opening, (c) => (code = c)).parseAsync([...argv]);
    return code;
  } catch (error) {
    // --help and --version end here with code 0; usage errors were already printed.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalid;
    const { message, exit } = describeFailure(error, door);
    env.stderr.write(`kubespaces: ${shownText(message)}\n`);
    return exit;
  }
}

/** An error's message for people and its exit code; `door`, the door the command opened, says how to recover from a stuck lock. */
function describeFailure(error: unknown, door: TenantsDoor | undefined): { message: string; exit: number } {
  if (error instanceof CliError) return { message: error.message, exit: error.code };
  if (error instanceof ProblemError) return { message: error.message, exit: exitCodeOfProblem(error.kind) };
  if (error instanceof StackBusyError && door?.onStuckLock)
    return { message: `${error.message}\n${door.onStuckLock(error.tenant)}`, exit: exitCodeOfKind(error.kind) };
  if (error instanceof TenantsError) return { message: error.message, exit: exitCodeOfKind(error.kind) };
  return { message: engineErrorSummary(error), exit: EXIT.error };
}
