/**
 * The readiness resource's operations as plain functions over its properties: what both the
 * TypeScript dynamic provider and the provider plugin's `TenantReadiness` call.
 */
import { KUBECONFIG_SECRET_KEY, kubeconfigSecretName } from "../../model/names";
import { fieldNames } from "../../util/zodFields";
import { loadHostKubeConfig } from "../hostAccess";
import { assertSameHost } from "../hostIdentity";
import { kubeObjectStream, type RequestCounter } from "./kubeObjectStream";
import { kubeconfigFromSecret } from "./readinessState";
import { tenantKubeconfig } from "./tenantKubeconfig";
import { endSyncedPods } from "./syncedPods";
import { waitForReady } from "./waitForReady";
import { readinessInputsSchema, type ReadinessInputs, type ReadinessOutputs } from "../../contracts/readinessSchema";

export type { ReadinessInputs, ReadinessOutputs };

/** Properties of a readiness resource that, when changed, mean another virtual cluster. */
export const REPLACE_ON_CHANGE: readonly (keyof ReadinessInputs)[] = ["namespace", "releaseName"];

/** Waits for the virtual cluster (running, or asleep when `inputs.asleep`) and returns the resource's outputs. */
export async function awaitTenantReady(
  inputs: ReadinessInputs,
  onProgress: (message: string) => void,
): Promise<ReadinessOutputs> {
  await assertSameHost(inputs.tenantName, "wait for", inputs.hostUid, inputs.hostKubeconfig);
  const counter: RequestCounter = { requests: 0 };
  const kubeConfig = loadHostKubeConfig(inputs.hostKubeconfig);
  const stream = kubeObjectStream(kubeConfig, counter);
  const goal = inputs.asleep ? "asleep" : "ready";
  // A control plane that never started wrote no kubeconfig: the wait for it would end only at its deadline.
  if (inputs.asleep && !(await kubeconfigSecretOf(stream, inputs)))
    throw new Error(
      `tenant ${inputs.tenantName} cannot be made asleep: its control plane never started, so it has no kubeconfig yet; set sleep to false, and put it to sleep once it is Ready`,
    );
  const ready = await waitForReady(stream, inputs, { timeoutMs: inputs.timeoutSeconds * 1000, onProgress, goal });
  if (inputs.asleep) {
    // Only once the control plane is gone: its syncer would make them again.
    const ended = await endSyncedPods(kubeConfig, inputs.namespace, inputs.releaseName);
    counter.requests += 1 + ended;
    onProgress(`asleep: control plane scaled to zero, ${ended} synced pod(s) ended`);
  }
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
  await assertSameHost(outputs.tenantName, "refresh", outputs.hostUid, outputs.hostKubeconfig);
  const raw = await kubeconfigSecretOf(kubeObjectStream(loadHostKubeConfig(outputs.hostKubeconfig)), outputs);
  if (!raw) return undefined;
  return { ...outputs, kubeconfig: tenantKubeconfig(raw, outputs.tenantName, outputs.serverUrl) };
}

/** The kubeconfig the tenant's vCluster wrote into its Secret, if it wrote one. */
async function kubeconfigSecretOf(
  stream: ReturnType<typeof kubeObjectStream>,
  tenant: Pick<ReadinessInputs, "namespace" | "releaseName">,
): Promise<string | undefined> {
  const secretName = kubeconfigSecretName(tenant.releaseName);
  const { object } = await stream.list({ kind: "Secret", namespace: tenant.namespace, name: secretName });
  return object ? kubeconfigFromSecret(object, KUBECONFIG_SECRET_KEY) : undefined;
}

/** Every input property, for diffs. */
export const READINESS_INPUT_KEYS = fieldNames(readinessInputsSchema);
