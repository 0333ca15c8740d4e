/**
 * The `kubespaces` command line, on commander: `tenant create|get|list|kubeconfig|delete` and
 * `login`, each with `--help`. Each command's module is loaded when it runs, so `--help` loads
 * none of them (nor the component, nor the Automation API). Exit codes: exitCodes.ts.
 */
import { TENANT_PHASES } from "../tenants/tenantObject";
import { HELD_PHASES } from "../contracts/tenantResourceNames";
import { Command, InvalidArgumentError, Option } from "commander";
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { DEFAULT_MINIMUM_QUOTA } from "../generated/defaultMinimumQuota";
import type { CommandEnv } from "./commandEnv";
import type { VersionOptions } from "./commands/version";
import { exitCodesHelp } from "./exitCodes";
import { OUTPUT_FORMATS } from "./formatOutput";
import { durationMs } from "./tenantWait";

/** An action that sets the process's exit code to what it returns, its module loaded first. */
function lazy<Args extends unknown[]>(
  env: CommandEnv,
  setCode: (code: number) => void,
  load: () => Promise<(env: CommandEnv, ...args: Args) => Promise<number>>,
) {
  return async (...args: Args) => setCode(await (await load())(env, ...args));
}

const outputOption = () =>
  new Option("-o, --output <format>", "how to print the result (wide: the table with more columns)")
    .choices(OUTPUT_FORMATS)
    .default("table");
const lockTimeoutOption = () =>
  new Option("--lock-timeout <seconds>", "how long to wait while another update holds the tenant's stack")
    .default(600)
    .argParser(wholeSeconds);

/**
 * `command` with kubectl's `--context` and `--kubeconfig`: the host cluster of this run alone, in
 * place of the one `login` recorded (which they never change). Only a tenant command that opens
 * local mode's door has them; through a server the door refuses them (openDoor.ts).
 */
function withHostOptions(command: Command): Command {
  return command
    .option(
      "--context <name>",
      "local mode: kubeconfig context of the host cluster for this run only (default: the one `login` recorded)",
    )
    .option("--kubeconfig <file>", "kubeconfig file of that context (default $KUBECONFIG, else ~/.kube/config)");
}

/** A whole number of seconds, or commander's usage error naming the option. */
function wholeSeconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number of seconds");
  return Number(value);
}

/** `true` or `false`, as `--wait=false` is typed after kubectl's, or commander's usage error. */
function trueOrFalse(value: string): boolean {
  if (value === "true" || value === "false") return value === "true";
  throw new InvalidArgumentError("must be true or false");
}

/** A duration such as kubectl's `--timeout` takes, in milliseconds, or commander's usage error. */
function duration(value: string): number {
  const ms = durationMs(value);
  if (ms === undefined) throw new InvalidArgumentError("must be a duration above zero, such as 90s, 10m or 1h30m");
  return ms;
}

/**
 * `command` with `--wait` (on by default; `--wait=false` or `--no-wait` return once the change is
 * asked for) and `--timeout`, for a command that changes a tenant and waits until `goal`.
 */
function withWaitOptions(command: Command, goal: string): Command {
  return command
    .addOption(
      new Option(
        "--wait [bool]",
        `follow until ${goal}; --wait=false returns once it is asked for (a kubespaces server)`,
      )
        .argParser(trueOrFalse)
        .default(true),
    )
    .option("--no-wait", "the same as --wait=false")
    .addOption(
      new Option(
        "--timeout <duration>",
        `how long to wait (90s, 10m, 1h30m); past it, exit 1 saying how to go on (default: until ${goal})`,
      ).argParser(duration),
    );
}

/** The smallest request a tenant takes under the default policy, for `create --help`. */
function minimumHelp(): string {
  const min = DEFAULT_MINIMUM_QUOTA;
  return `
A tenant's quota must hold its own vCluster (control plane and CoreDNS). Under the default policy
that is at least --cpu ${min.cpu} --memory ${min.memory} --storage ${min.storage}; a smaller request is refused
with the minimum named (a platform's policy can change it).`;
}

/** How `tenant kubeconfig` reads `--context`, which named the written context in earlier releases. */
const KUBECONFIG_CONTEXT_HELP = `
--context names the host cluster, as on every tenant command. For this release, a --context given
without --kubeconfig and --context-name, that names no context of your kubeconfig file other than
one kubespaces merged for a tenant, is still read as the written context's name (its old meaning),
with a note to use --context-name.`;

/**
 * The whole command line.
 * @param version the package's version, for `--version`.
 * @param env where it prints and how it opens its door.
 * @param setCode receives each command's exit code (the binary sets the process's).
 */
export function cliProgram(version: string, env: CommandEnv, setCode: (code: number) => void): Command {
  const program = new Command("kubespaces")
    .description(
      "Self-service virtual clusters: request a tenant, wait for it, use its kubeconfig.\nEach tenant is a Pulumi stack of its own, driven through the Pulumi Automation API.",
    )
    .version(version)
    .showHelpAfterError()
    .addHelpText("after", exitCodesHelp())
    .configureOutput({ writeOut: (text) => env.stdout.write(text), writeErr: (text) => env.stderr.write(text) })
    // Usage errors throw (main.ts exits 2 on them) instead of exiting 1. Set before the subcommands
    // are added: each copies it when created, and a subcommand's unknown option is its own error.
    .exitOverride();
  const action = <Args extends unknown[]>(load: () => Promise<(env: CommandEnv, ...args: Args) => Promise<number>>) =>
    lazy(env, setCode, load);

  program
    .command("login")
    .description(
      "sign in to a kubespaces server (--server), or record where the tenants' stacks live and which host cluster they use (local mode); with no flags, show it",
    )
    .option(
      "--server <url>",
      "sign in to this kubespaces server (device flow in your browser); every tenant command then goes through it",
    )
    .option(
      "--backend <url>",
      "local mode: Pulumi state backend URL (file://, s3://, https://api.pulumi.com, ...); default file://~/.kubespaces/state",
    )
    .option(
      "--project <name>",
      "local mode: the Pulumi project that holds a stack per tenant (default kubespaces-self-service)",
    )
    .option("--context <name>", "local mode: kubeconfig context of the host cluster; none means the local test bed")
    .option("--kubeconfig <file>", "kubeconfig file of that context (default $KUBECONFIG, else ~/.kube/config)")
    .option(
      "--user <email>",
      "local mode: who you are, the owner of what you create and what `list` shows (default git's user.email)",
    )
    .option("--platform <file>", "local mode: the platform's policy (YAML) that every request is held to")
    .option("--reset", "forget what was recorded before, the server's sign-in included (back to local mode)")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/login")).login));

  const tenant = program.command("tenant").description("create, read and delete tenants (virtual clusters)");
  withWaitOptions(
    withHostOptions(tenant.command("create"))
      .description("request a tenant and provision it, showing progress until it is Ready (or Failed)")
      .argument("[name]", "the tenant's name (a DNS label starting with a letter); optional with --file")
      .option("--cpu <quantity>", "CPU quota, e.g. 8")
      .option("--memory <quantity>", "memory quota, e.g. 16Gi")
      .option("--storage <quantity>", "storage quota, e.g. 50Gi")
      .option("--owner <email>", "the tenant's owner (default: you)")
      .option("--pod-security <level>", "Pod Security level inside the policy's allowed ones")
      .option("--kubernetes-version <version>", "the virtual cluster's Kubernetes version")
      .option("-f, --file <manifest>", "take the request from a kubespaces.io/v1alpha1 Tenant manifest")
      .option(
        "--defaults",
        "request the platform's defaults (no request flags); without a request, NAME's stored request is resumed, and a NAME with none is refused",
      )
      .option("--preview", "only show what would change")
      .addOption(lockTimeoutOption())
      .addOption(outputOption())
      .addHelpText("after", minimumHelp),
    "the tenant is Ready (or Failed)",
  ).action(action(async () => (await import("./commands/create")).createTenant));
  withHostOptions(tenant.command("get"))
    .description(`show a tenant's NAME, PHASE (${[...TENANT_PHASES, ...HELD_PHASES].join(", ")}) and API`)
    .argument("<name>", "the tenant")
    .option("--wait", "follow a running create until the tenant is Ready or Sleeping, or Failed (exit 3)")
    .option(
      "-w, --watch",
      "print the tenant again at each phase change, following it until Ctrl-C (exit 130) or its deletion",
    )
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/get")).getTenant));
  withHostOptions(tenant.command("list"))
    .description("list the tenants you own")
    .option("-A, --all", "list every tenant")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/list")).listTenants));
  withHostOptions(tenant.command("kubeconfig"))
    .description("print a tenant's kubeconfig, or merge it into $KUBECONFIG (else ~/.kube/config)")
    .addHelpText("after", KUBECONFIG_CONTEXT_HELP)
    .argument("<name>", "the tenant")
    .option("--merge", "merge into the kubeconfig file (keeps the rest, writes atomically, keeps a backup, mode 0600)")
    .option("--context-name <name>", "the name of the context printed or merged (default: the tenant's)")
    .option("--server <url>", "reach the API server at this URL (e.g. a port-forward); TLS still checks its name")
    .action(action(async () => (await import("./commands/kubeconfig")).tenantKubeconfig));
  withWaitOptions(
    withHostOptions(tenant.command("delete"))
      .description("tear a tenant down completely and remove its request (and the context --merge added)")
      .argument("<name>", "the tenant")
      .option("--preview", "only show what would be removed")
      .addOption(lockTimeoutOption()),
    "the tenant is gone",
  ).action(action(async () => (await import("./commands/delete")).deleteTenant));
  withHostOptions(tenant.command("history"))
    .description(
      "list a tenant's updates, newest first: when, the result, its request's generation, the platform revision, who",
    )
    .argument("<name>", "the tenant")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/history")).tenantHistory));
  tenant
    .command("rollback")
    .description(
      "ask again for the request an earlier update ran (a kubespaces server previews and approves it as any change)",
    )
    .argument("<name>", "the tenant")
    .requiredOption("--to <version>", "the update's VERSION in `tenant history`")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/rollback")).rollbackTenant));
  withWaitOptions(
    tenant
      .command("sleep")
      .description(
        "put a tenant to sleep: its control plane and synced pods scaled to zero, its data and kubeconfig kept (a kubespaces server)",
      )
      .argument("<name>", "the tenant")
      .addOption(outputOption()),
    "the tenant is Sleeping",
  ).action(action(async () => (await import("./commands/sleep")).sleepTenant));
  withWaitOptions(
    tenant
      .command("wake")
      .description("wake a sleeping tenant: Ready again with the same data and kubeconfig (a kubespaces server)")
      .argument("<name>", "the tenant")
      .addOption(outputOption()),
    "the tenant is Ready",
  ).action(action(async () => (await import("./commands/sleep")).wakeTenant));
  tenant
    .command("snapshot")
    .description(
      "ask for a snapshot of a tenant's virtual cluster, kept in the server's store and listed in its status (a kubespaces server)",
    )
    .argument("<name>", "the tenant")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/snapshot")).snapshotTenant));
  withWaitOptions(
    tenant
      .command("restore")
      .description(
        "restore a tenant's virtual cluster from one of its owner's snapshots: down, written back, up again (a kubespaces server)",
      )
      .argument("<name>", "the tenant")
      .requiredOption("--from <snapshot>", "the snapshot's name, as the tenant's status.snapshots lists it")
      .addOption(outputOption()),
    "the restore is done and the tenant Ready",
  ).action(action(async () => (await import("./commands/snapshot")).restoreTenant));
  program
    .command("version")
    .description(
      "print the command's version, the versions it pins (Pulumi SDK, Kubernetes provider, vCluster chart) and the server it goes through",
    )
    .addOption(new Option("-o, --output <format>", "print them as a document").choices(["json", "yaml"]))
    .action(
      action(async () => {
        const { showVersion } = await import("./commands/version");
        return (commandEnv: CommandEnv, options: VersionOptions) => showVersion(commandEnv, version, options);
      }),
    );
  program
    .command("completion")
    .description(
      "print a completion script for bash, zsh or fish, made from this command's own commands and flags (e.g. source <(kubespaces completion bash))",
    )
    .argument("<shell>", "bash, zsh or fish")
    .action(action(async () => (await import("./commands/completion")).printCompletion));
  const fleet = program
    .command("fleet")
    .description("the platform's revisions, previewed on every tenant (a kubespaces server's admins)");
  fleet
    .command("preview")
    .description("list the PlatformRevisions, or show what revision NAME would do to each tenant")
    .argument("[name]", "the revision")
    .addOption(outputOption())
    .action(action(async () => (await import("./commands/fleet")).fleetPreview));
  program
    .command("server")
    .description(
      "reconcile Tenant resources on the host (kubectl and GitOps apply them) and serve the API and portal with OpenID Connect sign-in, until SIGINT or SIGTERM; with no --context, on the local test bed, where it installs the Tenant API first and starts the local Dex",
    )
    .option("--context <name>", "kubeconfig context of the host cluster, with the server's own credentials")
    .option("--kubeconfig <file>", "kubeconfig file of that context (default $KUBECONFIG, else ~/.kube/config)")
    .option("--config <file>", "the server's configuration (YAML): platform policy, admin group, approval, ...")
    .option("--backend <url>", "Pulumi state backend URL; default file://~/.kubespaces/server/state")
    .option("--id <identity>", "this replica's identity among the replicas (default host name and pid)")
    .option(
      "--listen <host:port>",
      "where the API and portal listen (default http.listen, 127.0.0.1:8080; port 0: a free one)",
    )
    .option(
      "--metrics-listen <host:port>",
      `where /metrics is served, apart from the API (default metricsListen, 127.0.0.1:${METRICS_PORT}; port 0: a free one)`,
    )
    .action(action(async () => (await import("./commands/server")).runServerCommand));

  return program;
}
