/**
 * What deleting the Helm release and the namespace leaves behind, and its removal: the apps
 * certificate's Secret in the gateway namespace (cert-manager does not delete it with the
 * Certificate), the vCluster's data PVCs, and cluster-scoped PriorityClasses the vCluster synced.
 * The same ground `vcluster delete` covers.
 */
import { CoreV1Api, KubernetesObjectApi, SchedulingV1Api, type KubeConfig } from "@kubernetes/client-node";
import { gatewayObjectName } from "../../model/names";
import { APPS_CERTIFICATE_TYPE } from "../../contracts/typeMeta";
import { fieldNames } from "../../util/zodFields";
import { loadHostKubeConfig } from "../hostAccess";
import { assertSameHost } from "../hostIdentity";
import { cleanupInputsSchema, type CleanupInputs } from "../../contracts/cleanupSchema";
import { VCLUSTER_MARKER_LABEL, vclusterMarker } from "./vclusterMarker";

export type { CleanupInputs };

/** Every input property, for diffs. */
export const CLEANUP_INPUT_KEYS = fieldNames(cleanupInputsSchema);

/** Names of the vCluster's data PVCs (embedded store and the k8s distro's etcd). */
export const dataVolumeClaims = (release: string): string[] => [`data-${release}-0`, `data-${release}-etcd-0`];

/** Deletes every leftover of the tenant; objects already gone are fine. Returns what it deleted. */
export async function removeLeftovers(inputs: CleanupInputs): Promise<string[]> {
  await assertSameHost(inputs.tenantName, "clean up after", inputs.hostUid, inputs.hostKubeconfig);
  const config = loadHostKubeConfig(inputs.hostKubeconfig);
  const core = config.makeApiClient(CoreV1Api);
  const scheduling = config.makeApiClient(SchedulingV1Api);
  const deleted: string[] = [];
  const attempt = async (what: string, remove: () => Promise<unknown>) => {
    if (await ignoringNotFound(remove)) deleted.push(what);
  };

  if (inputs.certificateSecret) {
    const { namespace, name } = inputs.certificateSecret;
    await attempt(`Secret ${namespace}/${name}`, () => core.deleteNamespacedSecret({ namespace, name }));
  }
  for (const name of dataVolumeClaims(inputs.releaseName)) {
    await attempt(`PersistentVolumeClaim ${inputs.namespace}/${name}`, () =>
      core.deleteNamespacedPersistentVolumeClaim({ namespace: inputs.namespace, name }),
    );
  }
  const labelSelector = `${VCLUSTER_MARKER_LABEL}=${vclusterMarker(inputs.namespace, inputs.releaseName)}`;
  const priorityClasses = await scheduling.listPriorityClass({ labelSelector });
  for (const item of priorityClasses.items) {
    const name = item.metadata?.name ?? "";
    await attempt(`PriorityClass ${name}`, () => scheduling.deletePriorityClass({ name }));
  }
  return deleted;
}

/** How long the stale Certificate may take to go (its CertificateRequests go first). */
const CERTIFICATE_GONE_TIMEOUT_MS = 60_000;

/**
 * Deletes the certificate Secret of `olds` when `news` no longer names the same one (exposure
 * removed, or the gateway namespace changed), and the Certificate that names it first: this runs
 * in the update, before the engine deletes the removed Certificate (removed children go last), and
 * cert-manager issues the Secret again within a second while a Certificate names it. Returns what
 * it deleted.
 */
export async function removeStaleCertificateSecret(olds: CleanupInputs, news: CleanupInputs): Promise<string[]> {
  const stale = olds.certificateSecret;
  if (!stale || (stale.namespace === news.certificateSecret?.namespace && stale.name === news.certificateSecret?.name))
    return [];
  await assertSameHost(news.tenantName, "clean up after", olds.hostUid, news.hostKubeconfig);
  const config = loadHostKubeConfig(news.hostKubeconfig);
  const deleted: string[] = [];
  const certificate = gatewayObjectName(news.tenantName, "apps");
  if (await removeCertificate(config, stale.namespace, certificate))
    deleted.push(`Certificate ${stale.namespace}/${certificate}`);
  const core = config.makeApiClient(CoreV1Api);
  if (await ignoringNotFound(() => core.deleteNamespacedSecret({ namespace: stale.namespace, name: stale.name })))
    deleted.push(`Secret ${stale.namespace}/${stale.name}`);
  return deleted;
}

/**
 * Deletes the apps Certificate and returns once it is gone, its CertificateRequests before it
 * (foreground deletion). True when there was one. The engine's own delete of it then finds it gone,
 * which it takes as deleted.
 */
async function removeCertificate(config: KubeConfig, namespace: string, name: string): Promise<boolean> {
  const objects = KubernetesObjectApi.makeApiClient(config);
  const ref = { ...APPS_CERTIFICATE_TYPE, metadata: { namespace, name } };
  const found = await ignoringNotFound(() =>
    objects.delete(ref, undefined, undefined, undefined, undefined, "Foreground"),
  );
  // True while the read finds it (ignoringNotFound: true when the call succeeded).
  const exists = () => ignoringNotFound(() => objects.read(ref));
  const deadline = Date.now() + CERTIFICATE_GONE_TIMEOUT_MS;
  while (await exists()) {
    if (Date.now() > deadline)
      throw new Error(
        `kubespaces: Certificate ${namespace}/${name} was not gone ${CERTIFICATE_GONE_TIMEOUT_MS / 1000}s after its delete`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return found;
}

/** Runs `remove`; true when it deleted something, false when it was already gone. */
async function ignoringNotFound(remove: () => Promise<unknown>): Promise<boolean> {
  try {
    await remove();
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === 404) return false;
    throw error;
  }
}
