/**
 * A tenant namespace's ResourceQuota as the host holds it: its ceilings and what is used of them.
 * The server's people host and the command in local mode both read it so, each with its own
 * credentials.
 */
import type { CoreV1Api } from "@kubernetes/client-node";
import type { QuotaUsage } from "../contracts/tenantsApi";
import { RESOURCE_QUOTA_NAME } from "../render/resourceQuota";
import { statusCodeOf } from "../util/kubeClientErrors";

/** The quota of tenant namespace `namespace`; undefined while it has none. */
export async function readTenantQuota(core: CoreV1Api, namespace: string): Promise<QuotaUsage | undefined> {
  const quota = await core
    .readNamespacedResourceQuota({ name: RESOURCE_QUOTA_NAME, namespace })
    .catch((error) => (statusCodeOf(error) === 404 ? undefined : Promise.reject(error)));
  if (!quota) return undefined;
  // Before the quota controller first writes its status, the spec's ceilings are the ones in force.
  return { hard: quota.status?.hard ?? quota.spec?.hard ?? {}, used: quota.status?.used ?? {} };
}
