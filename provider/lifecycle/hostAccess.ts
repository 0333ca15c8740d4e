/**
 * How the lifecycle operations (host check, readiness, cleanup, CRD preflight) reach the host
 * cluster: with the kubeconfig the Tenant was given, else the ambient one, as the Kubernetes
 * provider does.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { parsingSecret } from "../util/redactedErrors";

/** The host cluster's KubeConfig: the given kubeconfig text, else the ambient one. */
export function loadHostKubeConfig(kubeconfig: string | undefined): KubeConfig {
  const config = new KubeConfig();
  if (kubeconfig) parsingSecret("the host kubeconfig", () => config.loadFromString(kubeconfig));
  else config.loadFromDefault();
  return config;
}
