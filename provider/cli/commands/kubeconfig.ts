/**
 * `kubespaces tenant kubeconfig NAME [--merge] [--context NAME] [--server URL]`: the tenant's
 * kubeconfig (cluster-admin inside its virtual cluster) on stdout, or merged into `$KUBECONFIG`
 * (else `~/.kube/config`). The only command that decrypts it. On the local test bed (in local
 * mode), whose tenants' API names do not resolve on this machine, the server is the test bed's
 * loopback port for the tenant, and TLS still checks the name.
 */
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { yamlText } from "../formatOutput";
import { retargeted, userKubeconfigFile } from "../../kubeconfig/kubeconfigMerge";
import { mergeTenantContext } from "../../kubeconfig/mergedContexts";

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
export async function tenantKubeconfig(env: CommandEnv, name: string, options: KubeconfigOptions): Promise<number> {
  const door = await env.door();
  const { tenants, actor } = door;
  const kubeconfig = await tenants.kubeconfig(name, actor);
  const { status } = await tenants.get(name, actor);
  const server =
    options.server ?? (door.localEndpoint && status.namespace ? door.localEndpoint(name, status.namespace) : undefined);
  if (!options.merge) {
    env.stdout.write(
      yamlText(
        retargeted(kubeconfig, {
          contextName: options.context ?? name,
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
    contextName: options.context,
    server,
    hostNamespace: status.namespace,
  });
  env.stderr.write(
    `merged context ${merged.context} into ${file}${merged.backup ? ` (the previous file is kept as ${merged.backup})` : ""}${server && !options.server ? `; it reaches the tenant at ${server}, the test bed's port for it` : ""}\n` +
      `use it with: kubectl config use-context ${merged.context}\n`,
  );
  return EXIT.ok;
}
