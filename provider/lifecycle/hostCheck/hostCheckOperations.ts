/**
 * The host check's operations: before the namespace is created (it depends on the check), refuse a
 * namespace that is not this stack's tenant's, and record the host's identity and this stack's
 * owner id; on later updates, check that the host is still the same cluster and keep the id.
 */
import { randomUUID } from "node:crypto";
import { assertSameHost, readHostIdentity } from "../hostIdentity";
import type { HostCheckInputs, HostCheckOutputs, StoredHostCheck } from "../../contracts/hostCheckSchema";
import { adoptRefusal, createRefusal, readNamespaceMarks } from "./namespaceOwnership";

/** Generates this stack's owner id, checks the namespace against it and records the host's identity. */
export async function checkNewHost(inputs: HostCheckInputs): Promise<HostCheckOutputs> {
  const ownerId = randomUUID();
  await assertMayCreate(inputs, ownerId);
  return { ...inputs, hostUid: await readHostIdentity(inputs.hostKubeconfig), ownerId };
}

/** The message for an update that would move a tenant, and so delete its old namespace. */
export function namespaceMoveMessage(tenant: string, from: string, to: string): string {
  return `tenant ${tenant}: this update moves it from namespace ${from} to ${to}, which replaces the namespace and deletes ${from} with everything in it, the virtual cluster's data included; stopped before anything changed. Set platform.allowNamespaceMoves: true for this update if that is what you want.`;
}

/**
 * On an update: the same cluster as recorded, and a namespace that is the tenant's (it may have
 * moved). The recorded owner id is kept; a tenant created before owner ids gets one now and adopts
 * its namespace, which then carries it.
 */
export async function recheckHost(olds: StoredHostCheck, news: HostCheckInputs): Promise<HostCheckOutputs> {
  await assertSameHost(news.tenantName, "update", olds.hostUid, news.hostKubeconfig);
  const moved = news.namespace !== olds.namespace;
  if (moved && !news.allowNamespaceMove)
    throw new Error(namespaceMoveMessage(news.tenantName, olds.namespace, news.namespace));
  const ownerId = olds.ownerId ?? randomUUID();
  // The new namespace of a move is created by this update: the rules of a create apply to it.
  if (moved) await assertMayCreate(news, ownerId);
  else if (olds.ownerId === undefined) await assertMayAdopt(news);
  return { ...news, hostUid: olds.hostUid, ownerId };
}

/** Whether an update must run only because the state predates a field the check now records. */
export function needsRecording(olds: StoredHostCheck): boolean {
  return olds.ownerId === undefined;
}

async function assertMayCreate(inputs: HostCheckInputs, ownerId: string): Promise<void> {
  const found = await readNamespaceMarks(inputs.namespace, inputs.hostKubeconfig);
  const refusal = createRefusal(inputs.tenantName, inputs.namespace, found, ownerId);
  if (refusal) throw new Error(refusal);
}

async function assertMayAdopt(inputs: HostCheckInputs): Promise<void> {
  const found = await readNamespaceMarks(inputs.namespace, inputs.hostKubeconfig);
  const refusal = adoptRefusal(inputs.tenantName, inputs.namespace, found);
  if (refusal) throw new Error(refusal);
}
