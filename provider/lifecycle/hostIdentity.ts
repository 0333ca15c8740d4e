/**
 * Which cluster the lifecycle operations are talking to: the UID of its `kube-system` namespace,
 * which every cluster has and no two clusters share. Recorded when a tenant is created, and checked
 * before anything acts on the host again, so that a kubeconfig pointed at another cluster (an
 * ambient one, in another shell) cannot make the wait read it or a destroy delete from it.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { loadHostKubeConfig } from "./hostAccess";

/** The identity of the cluster `kubeconfig` (or the ambient one) reaches. */
export async function readHostIdentity(kubeconfig: string | undefined): Promise<string> {
  const core = loadHostKubeConfig(kubeconfig).makeApiClient(CoreV1Api);
  const kubeSystem = await core.readNamespace({ name: "kube-system" });
  const uid = kubeSystem.metadata?.uid;
  if (!uid) throw new Error("the host cluster's kube-system namespace has no UID");
  return uid;
}

/** The message for acting on a cluster other than the tenant's. */
export function otherClusterMessage(tenant: string, action: string, recorded: string, found: string): string {
  return `refusing to ${action} tenant ${tenant}: the host cluster reached now is not the one the tenant was created on (kube-system UID ${found}, recorded ${recorded}). Point the kubeconfig (or the Tenant's hostKubeconfig) at the tenant's cluster.`;
}

/** Throws unless the cluster `kubeconfig` reaches is the one recorded as `recorded`; no record, no check. */
export async function assertSameHost(
  tenant: string,
  action: string,
  recorded: string | undefined,
  kubeconfig: string | undefined,
): Promise<void> {
  if (!recorded) return;
  const found = await readHostIdentity(kubeconfig);
  if (found !== recorded) throw new Error(otherClusterMessage(tenant, action, recorded, found));
}
