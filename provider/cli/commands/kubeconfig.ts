/**
 * `kubespaces tenant kubeconfig NAME [--merge] [--context-name NAME] [--server URL] [--context NAME]
 * [--kubeconfig FILE]`: the tenant's kubeconfig (cluster-admin inside its virtual cluster) on
 * stdout, or merged into `$KUBECONFIG` (else `~/.kube/config`) as context `--context-name` (default
 * the tenant's name). The only command that decrypts it. On the local test bed (in local mode),
 * whose tenants' API names do not resolve on this machine, the server is the test bed's loopback
 * port for the tenant, and TLS still checks the name. `--context` / `--kubeconfig` name the host
 * cluster, as on every tenant command; `--context` named the written context before, and keeps that
 * meaning for one release where it cannot be a host (writtenContextRule).
 */
import type { HostNaming } from "../../hosts/hostChoice";
import { isHostContext } from "../../kubeconfig/hostKubeconfig";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { yamlText } from "../formatOutput";
import { retargeted, userKubeconfigFile } from "../../kubeconfig/kubeconfigMerge";
import { mergeTenantContext } from "../../kubeconfig/mergedContexts";

/** `kubeconfig`'s options. */
export interface KubeconfigOptions extends HostNaming {
  /** Merge into the user's kubeconfig file instead of printing. */
  readonly merge?: boolean;
  /** The name of the context printed or merged; default: the tenant's. */
  readonly contextName?: string;
  /** Reach the API server at this URL (a port-forward). */
  readonly server?: string;
}

/** How a run reads its flags: the host it goes to, and the name of the context it writes. */
interface ReadFlags {
  /** The run's host flags. */
  readonly host: HostNaming;
  /** The written context's name; none: the tenant's. */
  readonly contextName?: string;
}

/**
 * `--context X` names the host cluster, unless it can only mean the written context's name, its
 * meaning before `--context-name`: given without `--context-name` and `--kubeconfig`, and X is no
 * context of `$KUBECONFIG` (else `~/.kube/config`) but, at most, one kubespaces merged for a
 * tenant (which a repeated old-style merge finds there, and which is never a host). That old use
 * goes on working for this release, with a note on stderr.
 */
function writtenContextRule(env: CommandEnv, options: KubeconfigOptions): ReadFlags {
  const { context, kubeconfig, contextName } = options;
  const file = userKubeconfigFile();
  if (context === undefined || contextName !== undefined || kubeconfig !== undefined || isHostContext(file, context))
    return { host: { context, kubeconfig }, contextName };
  env.stderr.write(
    `--context ${context} is no context of ${file}, so it is read as the name of the context to write, its meaning in earlier releases; that reading goes away: use --context-name ${context} (--context names the host cluster, as kubectl's does)\n`,
  );
  return { host: {}, contextName: context };
}

/** Runs `kubeconfig`. */
export async function tenantKubeconfig(env: CommandEnv, name: string, options: KubeconfigOptions): Promise<number> {
  const { host, contextName } = writtenContextRule(env, options);
  const door = await env.door(host);
  const { tenants, actor } = door;
  const kubeconfig = await tenants.kubeconfig(name, actor);
  const { status } = await tenants.get(name, actor);
  const server =
    options.server ?? (door.localEndpoint && status.namespace ? door.localEndpoint(name, status.namespace) : undefined);
  if (!options.merge) {
    env.stdout.write(
      yamlText(
        retargeted(kubeconfig, {
          contextName: contextName ?? name,
          server,
          tenant: name,
          hostNamespace: status.namespace,
        }),
      ),
    );
    return EXIT.ok;
  }
  const file = userKubeconfigFile();
  const merged = mergeTenantContext(file, name, kubeconfig, {
    contextName,
    server,
    hostNamespace: status.namespace,
  });
  env.stderr.write(
    `merged context ${merged.context} into ${file}${merged.backup ? ` (the previous file is kept as ${merged.backup})` : ""}${server && !options.server ? `; it reaches the tenant at ${server}, the test bed's port for it` : ""}\n` +
      `use it with: kubectl config use-context ${merged.context}\n`,
  );
  return EXIT.ok;
}
