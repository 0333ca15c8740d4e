/**
 * `kubespaces completion bash|zsh|fish`: a completion script for the shell, made from the program's
 * own command tree, so that it offers every command and flag the program has and nothing else.
 * The script holds, for each command path (`tenant create`), the words that may follow it: its
 * subcommands and its flags. It walks the words typed so far, following subcommands (anything else,
 * a NAME or a flag's value, is skipped), and offers the words of the path it reached; with none
 * left, bash and zsh fall back to file names. zsh runs the bash script through bashcompinit.
 */
import type { Command } from "commander";
import type { CommandEnv } from "../commandEnv";
import { CliError, EXIT } from "../exitCodes";

/** The shells a script is made for. */
const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];

/** Runs `completion`: prints the script for `shell`, made from the program `command` belongs to. */
export async function printCompletion(
  env: CommandEnv,
  shell: string,
  _options: unknown,
  command: Command,
): Promise<number> {
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new CliError(`no completion for ${shell}: name one of ${SHELLS.join(", ")}`, EXIT.invalid);
  let program = command;
  while (program.parent) program = program.parent;
  env.stdout.write(completionScript(program, shell as Shell));
  return EXIT.ok;
}

/** The completion script of `program` for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const words = wordsByPath(program);
  return shell === "fish" ? fishScript(words) : shell === "zsh" ? zshScript(words) : bashScript(words);
}

/** For each command path ("" for the program), the words that may follow: subcommands, then flags. */
function wordsByPath(program: Command): ReadonlyMap<string, string> {
  const words = new Map<string, string>();
  const visit = (command: Command, path: readonly string[]) => {
    const flags = command.options.flatMap((option) => [option.short, option.long]).filter(Boolean);
    words.set(path.join(" "), [...command.commands.map((c) => c.name()), ...flags, "--help"].join(" "));
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return words;
}

/** The bash script (zsh's too). Names avoid zsh's special `path` and `words`. */
function bashScript(words: ReadonlyMap<string, string>): string {
  const cases = [...words].map(([path, list]) => `    '${path}') echo '${list}' ;;`).join("\n");
  return `# kubespaces completion for bash; load it with: source <(kubespaces completion bash)
_kubespaces_words() {
  case "$1" in
${cases}
  esac
}
_kubespaces() {
  local cmdpath='' word choices
  for word in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    [[ $word == -* ]] && continue
    choices=" $(_kubespaces_words "$cmdpath") "
    [[ $choices == *" $word "* ]] && cmdpath="\${cmdpath:+$cmdpath }$word"
  done
  COMPREPLY=($(compgen -W "$(_kubespaces_words "$cmdpath")" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _kubespaces kubespaces
`;
}

/** The zsh script: the bash one, through zsh's bash completion layer. */
function zshScript(words: ReadonlyMap<string, string>): string {
  return `#compdef kubespaces
# kubespaces completion for zsh; load it with: source <(kubespaces completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashScript(words).split("\n").slice(1).join("\n")}`;
}

/** The fish script. */
function fishScript(words: ReadonlyMap<string, string>): string {
  const cases = [...words].map(([path, list]) => `        case '${path}'\n            echo '${list}'`).join("\n");
  return `# kubespaces completion for fish; load it with: kubespaces completion fish | source
function __kubespaces_words
    switch "$argv"
${cases}
    end
end
function __kubespaces_complete
    set -l cmdpath
    set -l typed (commandline -opc)
    set -e typed[1]
    for word in $typed
        string match -q -- '-*' $word; and continue
        if contains -- $word (string split ' ' (__kubespaces_words "$cmdpath"))
            set cmdpath $cmdpath $word
        end
    end
    string split ' ' (__kubespaces_words "$cmdpath")
end
complete -c kubespaces -a '(__kubespaces_complete)'
`;
}
