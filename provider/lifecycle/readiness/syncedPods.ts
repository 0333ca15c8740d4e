/**
 * The pods a tenant's vCluster synced to the host, which a sleeping tenant must not keep: with its
 * control plane gone nothing would end them, and they would hold the quota and the nodes. Ended as
 * `vcluster pause` ends them (its label selector); waking recreates them, since the syncer deletes
 * a virtual pod whose host pod is gone and its owner makes it again.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";

/** The label vCluster puts on every host object it synced, valued with the release's name. */
export const SYNCED_BY_LABEL = "vcluster.loft.sh/managed-by";

/** Deletes the pods release `release` synced into `namespace`; resolves to how many there were. */
export async function endSyncedPods(kubeConfig: KubeConfig, namespace: string, release: string): Promise<number> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const pods = await core.listNamespacedPod({ namespace, labelSelector: `${SYNCED_BY_LABEL}=${release}` });
  // One by one, not as a collection: the server's role holds `delete` on pods, as the chart's Role needs, not `deletecollection`.
  await Promise.all(
    pods.items.map((pod) =>
      core.deleteNamespacedPod({ namespace, name: pod.metadata!.name! }).catch((error: unknown) => {
        if ((error as { code?: number }).code !== 404) throw error;
      }),
    ),
  );
  return pods.items.length;
}
