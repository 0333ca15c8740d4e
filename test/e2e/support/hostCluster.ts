/** Reads and writes the test bed's host cluster for e2e assertions, with @kubernetes/client-node. */
import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, type KubernetesObject } from "@kubernetes/client-node";
import { testbedEnv } from "./testbed";

/** Clients for the test bed's API server. */
export function hostClients() {
  const config = new KubeConfig();
  config.loadFromFile(testbedEnv().KUBECONFIG);
  return {
    config,
    core: config.makeApiClient(CoreV1Api),
    apps: config.makeApiClient(AppsV1Api),
    objects: KubernetesObjectApi.makeApiClient(config),
  };
}

/** The object, or undefined when the API says 404. */
export async function readOrUndefined<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
}

/** Every object of `kinds` labelled `kubespaces.io/tenant=<tenant>`, in any namespace. */
export async function objectsLabelledFor(
  tenant: string,
  kinds: readonly { apiVersion: string; kind: string }[],
): Promise<string[]> {
  const { objects } = hostClients();
  const found: string[] = [];
  for (const { apiVersion, kind } of kinds) {
    const list = await objects.list(
      apiVersion,
      kind,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      `kubespaces.io/tenant=${tenant}`,
    );
    for (const item of list.items as KubernetesObject[])
      found.push(`${kind} ${item.metadata?.namespace ?? ""}/${item.metadata?.name}`);
  }
  return found;
}

/** Waits until `check` holds, polling every 250 ms, up to `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
