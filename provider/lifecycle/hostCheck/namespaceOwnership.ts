/**
 * Whether a tenant may use a namespace: one that does not exist yet, or one that already carries
 * the tenant's label. The Kubernetes provider creates by server-side apply, which silently takes
 * over an existing object (pulumi-kubernetes #2926), and a later destroy would delete it: so an
 * existing namespace that is not this tenant's is refused before anything is created.
 */
import { CoreV1Api } from "@kubernetes/client-node";
import { TENANT_LABEL } from "../../model/names";
import { hostKubeConfig } from "../hostAccess";

/** The reason `tenant` may not take `namespace`, or undefined when it may. */
export async function namespaceRefusal(tenant: string, namespace: string, kubeconfig: string | undefined): Promise<string | undefined> {
  const core = hostKubeConfig(kubeconfig).makeApiClient(CoreV1Api);
  let labels: Record<string, string> | undefined;
  try {
    labels = (await core.readNamespace({ name: namespace })).metadata?.labels ?? {};
  } catch (error) {
    if ((error as { code?: number }).code === 404) return undefined;
    throw error;
  }
  const owner = labels[TENANT_LABEL];
  if (owner === tenant) return undefined;
  const whose = owner ? `belongs to tenant ${owner}` : `has no ${TENANT_LABEL} label`;
  return `namespace ${namespace} already exists and ${whose}; tenant ${tenant} will not take it over (choose another name or namespace, or delete it first)`;
}
