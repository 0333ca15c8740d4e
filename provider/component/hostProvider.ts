/**
 * The Kubernetes provider for the host cluster. Like any component, a Tenant takes it from its
 * resource options (`provider`/`providers`), and its children inherit it; only when the user gives
 * `hostKubeconfig` and no provider does the Tenant create one from that kubeconfig.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { childName, HOST_PROVIDER_ROLE } from "../contracts/childRoles";
import type { InputProblem } from "../model/validationError";
import { waitingFor } from "./childOptions";

/** Options that put Kubernetes children on the host provider. */
export interface HostProviderOptions {
  /** Provider created by the Tenant, if any. */
  readonly provider?: k8s.Provider;
}

/** The provider option for Kubernetes children of tenant `name`; a provider it creates waits for `verdict` like the other children. */
export function hostProviderOptions(
  name: string,
  parent: pulumi.Resource,
  opts: pulumi.ComponentResourceOptions,
  hostKubeconfig: pulumi.Input<string> | undefined,
  verdict?: pulumi.Output<unknown>,
): HostProviderOptions {
  const given = opts.provider !== undefined || hasKubernetesProvider(opts.providers);
  if (given || hostKubeconfig === undefined) return {};
  return {
    provider: new k8s.Provider(
      childName(name, HOST_PROVIDER_ROLE),
      { kubeconfig: pulumi.secret(hostKubeconfig) },
      { parent, ...waitingFor([], verdict) },
    ),
  };
}

/**
 * A Tenant given a Kubernetes provider must also be given the kubeconfig of that provider's
 * cluster: otherwise its host check, readiness wait and cleanup would read the ambient kubeconfig,
 * which may be another cluster. (The provider's own kubeconfig cannot be read back from it.)
 */
export function hostAccessProblems(opts: pulumi.ComponentResourceOptions, hostKubeconfig: unknown): InputProblem[] {
  const given = opts.provider instanceof k8s.Provider || hasKubernetesProvider(opts.providers);
  if (!given || hostKubeconfig !== undefined) return [];
  return [
    {
      path: "platform.hostKubeconfig",
      message:
        "is required when the Tenant is given a Kubernetes provider: the host check, the readiness wait and the cleanup must read that provider's cluster, not the ambient kubeconfig",
    },
  ];
}

function hasKubernetesProvider(providers: pulumi.ComponentResourceOptions["providers"]): boolean {
  const list = Array.isArray(providers) ? providers : Object.values(providers ?? {});
  return list.some((provider) => provider instanceof k8s.Provider);
}
