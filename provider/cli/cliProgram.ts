/**
 * The `kubespaces` command line, on commander: `tenant create|get|list|kubeconfig|delete` and
 * `login`, each with `--help`. The exit codes are in exitCodes.ts and the README.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { createTenant } from "./commands/create";
import { deleteTenant } from "./commands/delete";
import { getTenant } from "./commands/get";
import { tenantKubeconfig } from "./commands/kubeconfig";
import { listTenants } from "./commands/list";
import { login } from "./commands/login";
import { OUTPUT_FORMATS } from "./formatOutput";

/** The action, setting the process's exit code to what it returns. */
type Action<Args extends unknown[]> = (...args: Args) => Promise<number>;
const settingExitCode =
  <Args extends unknown[]>(action: Action<Args>) =>
  async (...args: Args) => {
    process.exitCode = await action(...args);
  };

const outputOption = () => new Option("-o, --output <format>", "how to print the result").choices(OUTPUT_FORMATS).default("table");
const lockTimeoutOption = () =>
  new Option("--lock-timeout <seconds>", "how long to wait while another update holds the tenants stack's lock").default(600).argParser(wholeSeconds);

/** A whole number of seconds, or commander's usage error naming the option. */
function wholeSeconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("must be a whole number of seconds");
  return Number(value);
}

const EXIT_CODES_HELP = `
Exit codes:
  0    done (a tenant read, Ready, deleted; a preview printed)
  1    the engine, the backend or the host cluster failed (the message says what)
  2    the request or the command line was refused before anything ran
  3    the tenant failed to become ready (the message is the reason)
  4    no such tenant
  5    the tenants stack stayed locked by another update past --lock-timeout
  130  interrupted (Ctrl-C); the request is kept and the message says how to go on`;

/** The whole command line. */
export function cliProgram(version: string): Command {
  const program = new Command("kubespaces")
    .description("Self-service virtual clusters: request a tenant, wait for it, use its kubeconfig.\nDrives the tenants stack (a Pulumi program) through the Pulumi Automation API.")
    .version(version)
    .showHelpAfterError()
    .addHelpText("after", EXIT_CODES_HELP)
    // Usage errors throw (main.ts exits 2 on them) instead of exiting 1. Set before the subcommands
    // are added: each copies it when created, and a subcommand's unknown option is its own error.
    .exitOverride();

  program
    .command("login")
    .description("record where the tenants stack lives and which host cluster it uses; with no flags, show it")
    .option("--server <url>", "Pulumi state backend URL (file://, s3://, https://api.pulumi.com, ...); default file://~/.kubespaces/state")
    .option("--context <name>", "kubeconfig context of the host cluster; none means the local test bed")
    .option("--kubeconfig <file>", "kubeconfig file of that context (default $KUBECONFIG, else ~/.kube/config)")
    .option("--stack <name>", "the tenants stack's name (default tenants)")
    .option("--user <email>", "who you are: the owner of what you create, and what `list` shows (default git's user.email)")
    .option("--platform <file>", "the platform's policy (YAML) that every request is held to")
    .option("--reset", "forget what was recorded before")
    .addOption(outputOption())
    .action(settingExitCode(login));

  const tenant = program.command("tenant").description("create, read and delete tenants (virtual clusters)");
  tenant
    .command("create")
    .description("request a tenant and provision it, showing progress until it is Ready (or Failed)")
    .argument("[name]", "the tenant's name (a DNS label starting with a letter); optional with --file")
    .option("--cpu <quantity>", "CPU quota, e.g. 8")
    .option("--memory <quantity>", "memory quota, e.g. 16Gi")
    .option("--storage <quantity>", "storage quota, e.g. 50Gi")
    .option("--owner <email>", "the tenant's owner (default: you)")
    .option("--pod-security <level>", "Pod Security level inside the policy's allowed ones")
    .option("--kubernetes-version <version>", "the virtual cluster's Kubernetes version")
    .option("-f, --file <manifest>", "take the request from a kubespaces.io/v1alpha1 Tenant manifest")
    .option("--preview", "only show what would change")
    .addOption(lockTimeoutOption())
    .addOption(outputOption())
    .action(settingExitCode(createTenant));
  tenant
    .command("get")
    .description("show a tenant's NAME, PHASE and API")
    .argument("<name>", "the tenant")
    .option("-w, --wait", "follow a running update until the tenant is Ready or Failed (exit 3)")
    .addOption(outputOption())
    .action(settingExitCode(getTenant));
  tenant
    .command("list")
    .description("list the tenants you own")
    .option("-A, --all", "list every tenant")
    .addOption(outputOption())
    .action(settingExitCode(listTenants));
  tenant
    .command("kubeconfig")
    .description("print a tenant's kubeconfig, or merge it into $KUBECONFIG (else ~/.kube/config)")
    .argument("<name>", "the tenant")
    .option("--merge", "merge into the kubeconfig file (keeps the rest, writes atomically, keeps a backup, mode 0600)")
    .option("--context <name>", "the context's name (default: the tenant's)")
    .option("--server <url>", "reach the API server at this URL (e.g. a port-forward); TLS still checks its name")
    .action(settingExitCode(tenantKubeconfig));
  tenant
    .command("delete")
    .description("remove a tenant's request and tear the tenant down completely")
    .argument("<name>", "the tenant")
    .option("--preview", "only show what would be removed")
    .addOption(lockTimeoutOption())
    .action(settingExitCode(deleteTenant));
  return program;
}
