/**
 * A tenant's kubeconfig, named and pointed as asked, and merged into the user's kubeconfig file the
 * way kubectl users expect: every other cluster, user and context kept byte for byte, the tenant's
 * entries replaced, the old file kept as a backup, the new one written in one step with mode 0600
 * (kubeconfigFile).
 */
import os from "node:os";
import path from "node:path";
import { CliError, EXIT } from "./exitCodes";
import { editKubeconfigFile } from "./kubeconfigFile";
import { editedValue, KUBECONFIG_LISTS, parseKubeconfigText, type KubeconfigDocument, type KubeconfigEdit, type ListEdit, type ListKey, type Named } from "./kubeconfigText";

export type { KubeconfigDocument, Named } from "./kubeconfigText";

/** How to hand the tenant's kubeconfig over. */
export interface Retarget {
  /** The name of the context (and of its cluster and user entries). */
  readonly contextName: string;
  /**
   * Reach the API server at this URL instead (a port-forward, the test bed's loopback port), still
   * checking its certificate against the original host name (`tls-server-name`).
   */
  readonly server?: string;
}

/** The tenant's kubeconfig with its one context renamed and, if asked, pointed elsewhere. */
export function retargeted(tenantKubeconfig: string, { contextName, server }: Retarget): KubeconfigDocument {
  const source = parseKubeconfigText(tenantKubeconfig, "the tenant's kubeconfig").value;
  const context = source.contexts?.find((c) => c.name === source["current-context"]) ?? source.contexts?.[0];
  const details = (context?.context ?? {}) as Record<string, unknown> & { cluster?: string; user?: string };
  const cluster = source.clusters?.find((c) => c.name === details.cluster);
  const user = source.users?.find((u) => u.name === details.user);
  if (!context || !cluster || !user) throw new CliError("the tenant's kubeconfig has no complete context (cluster, user)", EXIT.error);
  const clusterFields = { ...(cluster.cluster as Record<string, unknown>) };
  if (server) {
    clusterFields["tls-server-name"] = new URL(String(clusterFields.server)).hostname;
    clusterFields.server = server;
  }
  return {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: contextName, cluster: clusterFields }],
    users: [{ name: contextName, user: user.user }],
    contexts: [{ name: contextName, context: { ...details, cluster: contextName, user: contextName } }],
    "current-context": contextName,
  };
}

/** `target` with the entries of `addition` added, replacing in place those of the same names; its current context kept. */
export function mergedKubeconfig(target: KubeconfigDocument, addition: KubeconfigDocument): KubeconfigDocument {
  return editedValue(target, mergeEdit(target, addition));
}

/** The edit that merges `addition` into `target` (see mergedKubeconfig). */
function mergeEdit(target: KubeconfigDocument, addition: KubeconfigDocument): KubeconfigEdit {
  const lists: Partial<Record<ListKey, ListEdit>> = {};
  for (const list of Object.keys(KUBECONFIG_LISTS) as ListKey[]) lists[list] = listMergeEdit(target[list] ?? [], addition[list] ?? []);
  const scalars: Record<string, string> = {};
  if (target.apiVersion === undefined) scalars.apiVersion = "v1";
  if (target.kind === undefined) scalars.kind = "Config";
  // A file without a current context gets the tenant's; otherwise `kubectl config use-context` switches.
  if (!target["current-context"] && addition["current-context"]) scalars["current-context"] = addition["current-context"];
  return { lists, scalars };
}

/** One list's part of a merge: each added entry replaces the first of its name (others of its name removed), or goes at the end. */
function listMergeEdit(current: readonly Named[], added: readonly Named[]): ListEdit {
  const replace = new Map<number, Named>();
  const remove = new Set<number>();
  const append: Named[] = [];
  for (const entry of added) {
    const same = current.flatMap((existing, index) => (existing?.name === entry.name ? [index] : []));
    if (same.length === 0) append.push(entry);
    else replace.set(same[0], entry);
    for (const index of same.slice(1)) remove.add(index);
  }
  return { replace, remove, append };
}

/** The kubeconfig file kubectl writes to: the first of `$KUBECONFIG`, else `~/.kube/config`. */
export function userKubeconfigFile(): string {
  const first = process.env.KUBECONFIG?.split(path.delimiter).find((entry) => entry !== "");
  return first ?? path.join(os.homedir(), ".kube", "config");
}

/**
 * Merges `addition` (from retargeted) into `file` (through a symbolic link to the file it names),
 * holding `<file>.lock` as kubectl does so that neither loses the other's change, and changing no
 * byte of the other entries; returns the backup's path, if there was a file to back up and it
 * changed.
 */
export function mergeIntoFile(linkOrFile: string, addition: KubeconfigDocument): string | undefined {
  return editKubeconfigFile(linkOrFile, (current) => mergeEdit(current.value, addition)).backup;
}
