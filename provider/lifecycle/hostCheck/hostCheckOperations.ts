/**
 * The host check's operations: before the namespace is created (it depends on the check), refuse a
 * namespace that is not the tenant's, and record the host's identity; on later updates, check that
 * the host is still the same cluster.
 */
import { assertSameHost, readHostIdentity } from "../hostIdentity";
import type { HostCheckInputs, HostCheckOutputs } from "./hostCheckSchema";
import { namespaceRefusal } from "./namespaceOwnership";

/** Checks the namespace and records the host's identity. */
export async function checkNewHost(inputs: HostCheckInputs): Promise<HostCheckOutputs> {
  const refusal = await namespaceRefusal(inputs.tenantName, inputs.namespace, inputs.hostKubeconfig);
  if (refusal) throw new Error(refusal);
  return { ...inputs, hostUid: await readHostIdentity(inputs.hostKubeconfig) };
}

/** The message for an update that would move a tenant, and so delete its old namespace. */
export function namespaceMoveMessage(tenant: string, from: string, to: string): string {
  return `tenant ${tenant}: this update moves it from namespace ${from} to ${to}, which replaces the namespace and deletes ${from} with everything in it, the virtual cluster's data included; stopped before anything changed. Set platform.allowNamespaceMoves: true for this update if that is what you want.`;
}

/** On an update: the same cluster as recorded, and a namespace that is the tenant's (it may have moved). */
export async function recheckHost(olds: HostCheckOutputs, news: HostCheckInputs): Promise<HostCheckOutputs> {
  await assertSameHost(news.tenantName, "update", olds.hostUid, news.hostKubeconfig);
  if (news.namespace !== olds.namespace) {
    if (!news.allowNamespaceMove) throw new Error(namespaceMoveMessage(news.tenantName, olds.namespace, news.namespace));
    const refusal = await namespaceRefusal(news.tenantName, news.namespace, news.hostKubeconfig);
    if (refusal) throw new Error(refusal);
  }
  return { ...news, hostUid: olds.hostUid };
}
