/**
 * `kubespaces tenant kubeconfig NAME [--merge] [--context NAME] [--server URL]`: the tenant's
 * kubeconfig (cluster-admin inside its virtual cluster) on stdout, or merged into `$KUBECONFIG`
 * (else `~/.kube/config`). On the local test bed, whose tenants' API names do not resolve on this
 * machine, the server is the test bed's loopback port for the tenant, and TLS still checks the name.
 */
import { stringify } from "yaml";
import { commandContext, deployedNow, readPlace } from "../commandContext";
import { CliError, EXIT, tenantNotFound } from "../exitCodes";
import { localEndpointOf } from "../hostTarget";
import { mergeIntoFile, retargeted, userKubeconfigFile } from "../kubeconfigMerge";
import { readRequests } from "../requestFiles";

/** `kubeconfig`'s options. */
export interface KubeconfigOptions {
  /** Merge into the user's kubeconfig file instead of printing. */
  readonly merge?: boolean;
  /** The context's name; default: the tenant's. */
  readonly context?: string;
  /** Reach the API server at this URL (a port-forward). */
  readonly server?: string;
}

/** Runs `kubeconfig`. */
export async function tenantKubeconfig(name: string, options: KubeconfigOptions): Promise<number> {
  const context = commandContext();
  const deployed = (await deployedNow(readPlace(context))).get(name);
  if (!deployed?.kubeconfig) {
    if (!deployed && !readRequests(context.tenantsDir).has(name)) throw tenantNotFound(name);
    throw new CliError(`tenant ${name} has no kubeconfig yet: it is not Ready (\`kubespaces tenant get ${name} --wait\`)`, EXIT.error);
  }
  const localEndpoint = localEndpointOf(context.settings);
  const server = options.server ?? (localEndpoint && deployed.namespace ? localEndpoint(deployed.namespace, name) : undefined);
  const contextName = options.context ?? name;
  const kubeconfig = retargeted(deployed.kubeconfig, { contextName, server, tenant: name, hostNamespace: deployed.namespace });
  if (!options.merge) {
    process.stdout.write(stringify(kubeconfig));
    return EXIT.ok;
  }
  const file = userKubeconfigFile();
  const backup = mergeIntoFile(file, kubeconfig, { contextNamedByUser: options.context !== undefined });
  process.stderr.write(
    `merged context ${contextName} into ${file}${backup ? ` (the previous file is kept as ${backup})` : ""}${server && !options.server ? `; it reaches the tenant at ${server}, the test bed's port for it` : ""}\n` +
      `use it with: kubectl config use-context ${contextName}\n`,
  );
  return EXIT.ok;
}
