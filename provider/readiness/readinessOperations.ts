/**
 * The readiness resource's operations as plain functions over its properties: what both the
 * TypeScript dynamic provider and the provider plugin's `TenantReadiness` call.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { KUBECONFIG_SECRET_KEY, kubeconfigSecretName } from "../spec/names";
import { kubeObjectStream, type RequestCounter } from "./kubeObjectStream";
import { kubeconfigFromSecret } from "./readinessState";
import { tenantKubeconfig } from "./tenantKubeconfig";
import { waitForReady } from "./waitForReady";

/** Inputs of the readiness resource. */
export interface ReadinessInputs {
  /** Tenant name; names the kubeconfig's cluster, context and user. */
  readonly tenantName: string;
  /** Namespace of the vCluster release. */
  readonly namespace: string;
  /** Helm release name of the vCluster. */
  readonly releaseName: string;
  /** Server URL written into the handed-back kubeconfig. */
  readonly serverUrl: string;
  /** Seconds to wait before failing. */
  readonly timeoutSeconds: number;
  /** Host kubeconfig (secret); absent means the ambient one. */
  readonly hostKubeconfig?: string;
  /** Changes whenever the Helm release changes, so that the wait runs again. */
  readonly releaseRevision?: string;
}

/** Outputs of the readiness resource. */
export interface ReadinessOutputs extends ReadinessInputs {
  /** The tenant's kubeconfig (secret). */
  readonly kubeconfig: string;
  /** When the wait last saw the virtual cluster ready (ISO 8601). */
  readonly readyAt: string;
  /** ms the last wait took. */
  readonly waitedMs: number;
  /** API requests the last wait made. */
  readonly apiRequests: number;
}

/** Properties of a readiness resource that, when changed, mean another virtual cluster. */
export const REPLACE_ON_CHANGE: readonly (keyof ReadinessInputs)[] = ["namespace", "releaseName"];

/** The host cluster's KubeConfig: the given kubeconfig text, else the ambient one. */
export function hostKubeConfig(kubeconfig: string | undefined): KubeConfig {
  const config = new KubeConfig();
  if (kubeconfig) config.loadFromString(kubeconfig);
  else config.loadFromDefault();
  return config;
}

/** Waits for the virtual cluster and returns the resource's outputs. */
export async function awaitTenantReady(inputs: ReadinessInputs, onProgress: (message: string) => void): Promise<ReadinessOutputs> {
  const counter: RequestCounter = { requests: 0 };
  const stream = kubeObjectStream(hostKubeConfig(inputs.hostKubeconfig), counter);
  const ready = await waitForReady(stream, inputs, { timeoutMs: inputs.timeoutSeconds * 1000, onProgress });
  return {
    ...inputs,
    kubeconfig: tenantKubeconfig(ready.kubeconfig, inputs.tenantName, inputs.serverUrl),
    readyAt: new Date().toISOString(),
    waitedMs: ready.elapsedMs,
    apiRequests: counter.requests,
  };
}

/**
 * Re-reads the kubeconfig Secret for `refresh`. Returns undefined when it is gone, so that the
 * engine drops the resource and the next `up` waits again.
 */
export async function rereadTenantKubeconfig(outputs: ReadinessOutputs): Promise<ReadinessOutputs | undefined> {
  const stream = kubeObjectStream(hostKubeConfig(outputs.hostKubeconfig));
  const secretName = kubeconfigSecretName(outputs.releaseName);
  const { object } = await stream.list({ kind: "Secret", namespace: outputs.namespace, name: secretName });
  const raw = object && kubeconfigFromSecret(object, KUBECONFIG_SECRET_KEY);
  if (!raw) return undefined;
  return { ...outputs, kubeconfig: tenantKubeconfig(raw, outputs.tenantName, outputs.serverUrl) };
}

/** Every input property, for diffs. */
export const READINESS_INPUT_KEYS: readonly (keyof ReadinessInputs)[] = [
  "tenantName",
  "namespace",
  "releaseName",
  "serverUrl",
  "timeoutSeconds",
  "hostKubeconfig",
  "releaseRevision",
];
