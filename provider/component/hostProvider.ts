/**
 * The Kubernetes provider for the host cluster. Like any component, a Tenant takes it from its
 * resource options (`provider`/`providers`), and its children inherit it; only when the user gives
 * `hostKubeconfig` and no provider does the Tenant create one from that kubeconfig.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";

/** Options that put Kubernetes children on the host provider. */
export interface HostProviderOptions {
  /** Provider created by the Tenant, if any. */
  readonly provider?: k8s.Provider;
}

/** The provider option for Kubernetes children of tenant `name`. */
export function hostProviderOptions(
  name: string,
  parent: pulumi.Resource,
  opts: pulumi.ComponentResourceOptions,
  hostKubeconfig: pulumi.Input<string> | undefined,
): HostProviderOptions {
  const given = opts.provider !== undefined || hasKubernetesProvider(opts.providers);
  if (given || hostKubeconfig === undefined) return {};
  return { provider: new k8s.Provider(`${name}-host`, { kubeconfig: pulumi.secret(hostKubeconfig) }, { parent }) };
}

function hasKubernetesProvider(providers: pulumi.ComponentResourceOptions["providers"]): boolean {
  const list = Array.isArray(providers) ? providers : Object.values(providers ?? {});
  return list.some((provider) => provider instanceof k8s.Provider);
}
