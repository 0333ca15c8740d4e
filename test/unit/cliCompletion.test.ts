/**
 * `kubespaces completion bash|zsh|fish`: the scripts are made from the program's own command tree.
 * The bash script is run in bash (no startup files) with the words a user would have typed, and
 * must offer every subcommand of the program, read from the program itself, and every flag.
 */
import { spawnSync } from "node:child_process";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { cliProgram } from "../../provider/cli/cliProgram";
import type { CommandEnv, OutputStream } from "../../provider/cli/commandEnv";
import { EXIT } from "../../provider/cli/exitCodes";
import { runCli } from "../../provider/cli/runCli";

class Captured implements OutputStream {
  text = "";
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

const env: CommandEnv = {
  stdout: new Captured(),
  stderr: new Captured(),
  door: () => {
    throw new Error("completion opened a door");
  },
};

/** Runs `kubespaces ...args` in-process. */
async function kubespaces(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Captured();
  const stderr = new Captured();
  const code = await runCli("0.0.0-test", ["node", "kubespaces", ...args], { ...env, stdout, stderr });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Every command path under `command` (`["tenant", "create"]`), read from the program. */
const commandPaths = (command: Command, parent: readonly string[] = []): string[][] =>
  command.commands.flatMap((sub) => [[...parent, sub.name()], ...commandPaths(sub, [...parent, sub.name()])]);

const program = cliProgram("0.0.0-test", env, () => {});
/** The program's command at `path`. */
const commandAt = (path: readonly string[]): Command =>
  path.reduce<Command>((command, name) => command.commands.find((c) => c.name() === name)!, program);

/** What the bash script offers after each line of typed words (the last one the word being completed). */
function offeredByBash(script: string, typed: readonly (readonly string[])[]): string[][] {
  const calls = typed.map(
    (words) =>
      `COMP_WORDS=(kubespaces ${words.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${words.length}; _kubespaces; echo "\${COMPREPLY[*]}"`,
  );
  const run = spawnSync("bash", ["--norc", "--noprofile", "-c", [script, ...calls].join("\n")], { encoding: "utf8" });
  expect(run.stderr).toBe("");
  return run.stdout
    .split("\n")
    .slice(0, typed.length)
    .map((line) => line.split(" "));
}

describe("kubespaces completion bash", () => {
  it("offers every subcommand of the program after its parent's words", async () => {
    const script = (await kubespaces("completion", "bash")).stdout;
    const paths = commandPaths(program);
    expect(paths).toContainEqual(["tenant", "create"]);
    const offered = offeredByBash(
      script,
      paths.map((path) => [...path.slice(0, -1), ""]),
    );
    paths.forEach((path, i) => expect(offered[i], path.join(" ")).toContain(path.at(-1)));
  });

  it("offers each command's flags, past a NAME and a flag's value, and completes a prefix", async () => {
    const script = (await kubespaces("completion", "bash")).stdout;
    const create = commandAt(["tenant", "create"]).options.map((o) => o.long!);
    const [afterName, prefix] = offeredByBash(script, [
      ["tenant", "create", "team-atlas", "--cpu", "8", "-"],
      ["tenant", "cr"],
    ]);
    expect(afterName).toEqual(expect.arrayContaining([...create, "--no-wait", "--timeout", "--defaults"]));
    expect(prefix).toEqual(["create"]);
  });
});

describe("kubespaces completion zsh and fish", () => {
  it.each([["zsh"], ["fish"]])("%s: the script names every subcommand of the program", async (shell) => {
    const run = await kubespaces("completion", shell);
    expect(run.code, run.stderr).toBe(EXIT.ok);
    for (const path of commandPaths(program)) expect(run.stdout).toContain(`'${path.join(" ")}'`);
  });

  it("refuses another shell", async () => {
    const run = await kubespaces("completion", "powershell");
    expect(run.code).toBe(EXIT.invalid);
    expect(run.stderr).toContain("no completion for powershell: name one of bash, zsh, fish");
  });
});
