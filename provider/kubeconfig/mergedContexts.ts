/**
 * The entries `kubespaces tenant kubeconfig --merge` adds to the user's kubeconfig file for a
 * tenant (marked as kubespaces', see kubeconfigMerge.ts), and their removal when the tenant is
 * deleted, as `vcluster delete` removes its context.
 */
import { mergeIntoFile, removeMergedTenant, retargeted, userKubeconfigFile } from "./kubeconfigMerge";

/** What a merge did. */
export interface Merged {
  /** The context's name. */
  readonly context: string;
  /** The previous file's backup, if there was a file. */
  readonly backup?: string;
}

/** How to merge. */
export interface MergeRequest {
  /** The context's name the user gave (`--context-name`); default the tenant's name. */
  readonly contextName?: string;
  /** The API server URL to reach the tenant at (a port-forward, the test bed's port). */
  readonly server?: string;
  /** The tenant's host namespace, recorded in the entries' marker. */
  readonly hostNamespace?: string;
}

/** Merges tenant `name`'s kubeconfig into `file`. */
export function mergeTenantContext(file: string, name: string, kubeconfig: string, request: MergeRequest): Merged {
  const context = request.contextName ?? name;
  const addition = retargeted(kubeconfig, {
    contextName: context,
    server: request.server,
    tenant: name,
    hostNamespace: request.hostNamespace,
  });
  const backup = mergeIntoFile(file, addition, { contextNamedByUser: request.contextName !== undefined });
  return { context, ...(backup && { backup }) };
}

/**
 * Removes what a merge added for tenant `name` (of host namespace `hostNamespace`, when known)
 * from the user's kubeconfig file; says what, or undefined when nothing of it was there.
 */
export function forgetMergedContext(name: string, hostNamespace: string | undefined): string | undefined {
  const removed = removeMergedTenant(userKubeconfigFile(), name, { ...(hostNamespace && { hostNamespace }) });
  if (removed.contexts.length === 0 && removed.clusters.length === 0 && removed.users.length === 0) return undefined;
  const cleared = removed.currentContextCleared ? "; it was the current context, which is now unset" : "";
  return `removed context ${removed.contexts.join(", ") || "(none)"} of tenant ${name} from ${removed.file}${cleared}`;
}
