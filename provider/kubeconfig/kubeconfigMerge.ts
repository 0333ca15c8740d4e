/**
 * A tenant's kubeconfig, named and pointed as asked, and merged into the user's kubeconfig file the
 * way kubectl users expect: every other cluster, user and context kept byte for byte, the tenant's
 * own entries replaced, the old file kept as a backup, the new one written in one step with mode
 * 0600 (kubeconfigFile). Every entry kubespaces writes carries a `kubespaces.io/tenant` extension, so
 * that a later merge replaces only its own entries and `tenant delete` removes only those: an entry
 * of the user's that has the same name is refused, never silently replaced.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { isPlainObject } from "../util/plainObject";
import { ProblemError } from "../util/problemError";
import { editKubeconfigFile, resolvedKubeconfigFile } from "./kubeconfigFile";
import {
  editedValue,
  KUBECONFIG_LISTS,
  parseKubeconfigText,
  type KubeconfigDocument,
  type KubeconfigEdit,
  type ListEdit,
  type ListKey,
  type Named,
} from "./kubeconfigText";

export type { KubeconfigDocument, Named } from "./kubeconfigText";

/** The name of the kubeconfig extension that marks an entry as kubespaces' own. */
export const TENANT_EXTENSION = "kubespaces.io/tenant";

/** What the `kubespaces.io/tenant` extension records: whose entry it is. */
export interface TenantMarker {
  /** The tenant the entry reaches. */
  readonly tenant: string;
  /** The tenant's namespace on the host cluster, when known. */
  readonly hostNamespace?: string;
}

/** How to hand the tenant's kubeconfig over. */
export interface Retarget {
  /** The name of the context. */
  readonly contextName: string;
  /**
   * Reach the API server at this URL instead (a port-forward, the test bed's loopback port), still
   * checking its certificate against the original host name (`tls-server-name`).
   */
  readonly server?: string;
  /**
   * The tenant the entries are for: recorded in each entry's `kubespaces.io/tenant` extension and
   * part of the cluster and user entries' names.
   * @default contextName
   */
  readonly tenant?: string;
  /** The tenant's host namespace: recorded beside the tenant and part of the entries' names. */
  readonly hostNamespace?: string;
}

/**
 * The name of the cluster and user entries of a tenant: `kubespaces_<tenant>_<host namespace>`, in
 * the manner of vcluster's `vcluster_<name>_<namespace>_<context>`, so that they cannot collide with
 * the user's own entries (other contexts may refer to those, and must keep reaching them).
 */
export function mergedEntryName(tenant: string, hostNamespace?: string): string {
  return hostNamespace ? `kubespaces_${tenant}_${hostNamespace}` : `kubespaces_${tenant}`;
}

/**
 * Refuses a kubeconfig whose users run a command to get their credentials (`exec`,
 * `auth-provider`): kubectl would run it on the user's machine, and a vCluster never issues one, so
 * such a tenant kubeconfig is neither printed nor merged. `what` names it in the message.
 */
export function refuseCredentialCommands(kubeconfig: KubeconfigDocument, what = "the tenant's kubeconfig"): void {
  for (const entry of kubeconfig.users ?? []) {
    const user = isPlainObject(entry?.user) ? entry.user : {};
    const runs = ["exec", "auth-provider"].filter((field) => user[field] !== undefined && user[field] !== null);
    if (runs.length > 0) {
      throw new ProblemError(
        `${what} has user ${entry.name} get its credentials by running a command (${runs.join(", ")}); a vCluster never issues such a kubeconfig, so kubespaces neither prints nor merges it (the tenants stack's state may have been altered)`,
        "failed",
      );
    }
  }
}

/** The tenant's kubeconfig with its one context renamed, its entries marked and, if asked, pointed elsewhere. */
export function retargeted(
  tenantKubeconfig: string,
  { contextName, server, tenant = contextName, hostNamespace }: Retarget,
): KubeconfigDocument {
  const source = parseKubeconfigText(tenantKubeconfig, "the tenant's kubeconfig").value;
  refuseCredentialCommands(source);
  const context = source.contexts?.find((c) => c.name === source["current-context"]) ?? source.contexts?.[0];
  const details = (context?.context ?? {}) as Record<string, unknown> & { cluster?: string; user?: string };
  const cluster = source.clusters?.find((c) => c.name === details.cluster);
  const user = source.users?.find((u) => u.name === details.user);
  if (!context || !cluster || !user)
    throw new ProblemError("the tenant's kubeconfig has no complete context (cluster, user)", "failed");
  const clusterFields = { ...(cluster.cluster as Record<string, unknown>) };
  if (server) {
    clusterFields["tls-server-name"] = new URL(String(clusterFields.server)).hostname;
    clusterFields.server = server;
  }
  const marker: TenantMarker = hostNamespace ? { tenant, hostNamespace } : { tenant };
  const entryName = mergedEntryName(tenant, hostNamespace);
  return {
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: entryName, cluster: marked(clusterFields, marker) }],
    users: [{ name: entryName, user: marked(user.user, marker) }],
    contexts: [{ name: contextName, context: marked({ ...details, cluster: entryName, user: entryName }, marker) }],
    "current-context": contextName,
  };
}

/** `body` with the `kubespaces.io/tenant` extension (any older one of ours replaced). */
function marked(body: unknown, marker: TenantMarker): Record<string, unknown> {
  const fields = isPlainObject(body) ? body : {};
  const others = Array.isArray(fields.extensions)
    ? fields.extensions.filter((e: unknown) => !isPlainObject(e) || e.name !== TENANT_EXTENSION)
    : [];
  return { ...fields, extensions: [...others, { name: TENANT_EXTENSION, extension: { ...marker } }] };
}

/** Whose entry this is, by its `kubespaces.io/tenant` extension; undefined for an entry kubespaces did not write. */
export function markerOf(entry: unknown, list: ListKey): TenantMarker | undefined {
  const body = isPlainObject(entry) ? entry[KUBECONFIG_LISTS[list]] : undefined;
  const extensions: unknown[] = isPlainObject(body) && Array.isArray(body.extensions) ? body.extensions : [];
  const extension = extensions.find((e) => isPlainObject(e) && e.name === TENANT_EXTENSION);
  const marker = isPlainObject(extension) ? extension.extension : undefined;
  if (!isPlainObject(marker) || typeof marker.tenant !== "string") return undefined;
  return typeof marker.hostNamespace === "string"
    ? { tenant: marker.tenant, hostNamespace: marker.hostNamespace }
    : { tenant: marker.tenant };
}

/** How a merge treats the entries already there. */
export interface MergeOptions {
  /**
   * The context's name came from the user (`--context-name NAME`): a context of that name that
   * kubespaces did not write for this tenant is replaced rather than refused. Cluster and user
   * entries are never taken over this way: their names are kubespaces' own (mergedEntryName).
   * @default false
   */
  readonly contextNamedByUser?: boolean;
  /** How to name the kubeconfig in messages. @default "the kubeconfig" */
  readonly what?: string;
}

/**
 * `target` with the entries of `addition` (a retargeted, marked kubeconfig) added, replacing in
 * place the entries of the same names that kubespaces wrote for the same tenant; its current
 * context kept (set only when it has none). Refuses an entry of the same name that is the user's
 * (or another tenant's), unless `options.contextNamedByUser` allows it for the context.
 */
export function mergedKubeconfig(
  target: KubeconfigDocument,
  addition: KubeconfigDocument,
  options: MergeOptions = {},
): KubeconfigDocument {
  return editedValue(target, mergeEdit(target, addition, options));
}

/** The edit that merges `addition` into `target` (see mergedKubeconfig). */
function mergeEdit(target: KubeconfigDocument, addition: KubeconfigDocument, options: MergeOptions): KubeconfigEdit {
  refuseCredentialCommands(addition);
  const marker = markerOf(addition.contexts?.[0], "contexts");
  if (!marker)
    throw new Error("mergedKubeconfig: the addition carries no kubespaces.io/tenant extension (use retargeted)");
  const lists: Partial<Record<ListKey, ListEdit>> = {};
  for (const list of Object.keys(KUBECONFIG_LISTS) as ListKey[])
    lists[list] = listMergeEdit(target[list] ?? [], addition[list] ?? [], list, marker, options);
  const scalars: Record<string, string> = {};
  if (target.apiVersion === undefined) scalars.apiVersion = "v1";
  if (target.kind === undefined) scalars.kind = "Config";
  // A file without a current context gets the tenant's; otherwise `kubectl config use-context` switches.
  if (!target["current-context"] && addition["current-context"])
    scalars["current-context"] = addition["current-context"];
  return { lists, scalars };
}

/** One list's part of a merge: each added entry replaces the first of its name (others of its name removed), or goes at the end. */
function listMergeEdit(
  current: readonly Named[],
  added: readonly Named[],
  list: ListKey,
  marker: TenantMarker,
  options: MergeOptions,
): ListEdit {
  const replace = new Map<number, Named>();
  const remove = new Set<number>();
  const append: Named[] = [];
  for (const entry of added) {
    const same = current.flatMap((existing, index) =>
      isPlainObject(existing) && existing.name === entry.name ? [index] : [],
    );
    for (const index of same) refuseForeign(current[index], list, marker, options);
    if (same.length === 0) append.push(entry);
    else replace.set(same[0], entry);
    for (const index of same.slice(1)) remove.add(index);
  }
  return { replace, remove, append };
}

/** Throws unless `existing` may be replaced: kubespaces wrote it for this tenant, or the user named this context. */
function refuseForeign(existing: Named, list: ListKey, marker: TenantMarker, options: MergeOptions): void {
  const owner = markerOf(existing, list);
  if (owner?.tenant === marker.tenant) return;
  if (list === "contexts" && options.contextNamedByUser) return;
  const kind = KUBECONFIG_LISTS[list];
  const whose = owner ? `that kubespaces wrote for tenant ${owner.tenant}` : "that kubespaces did not write";
  const fix =
    list === "contexts"
      ? `merge under another name with --context-name NAME, or replace it by naming it: --context-name ${existing.name}`
      : `rename or remove that ${kind} entry`;
  throw new ProblemError(
    `${options.what ?? "the kubeconfig"} already has a ${kind} named ${existing.name} ${whose}; it was left as it is: ${fix}`,
    "invalid",
  );
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
 * changed. Refuses, changing nothing, when an entry of the same name is not kubespaces' own for the
 * tenant (see MergeOptions).
 */
export function mergeIntoFile(
  linkOrFile: string,
  addition: KubeconfigDocument,
  options: MergeOptions = {},
): string | undefined {
  const edit = editKubeconfigFile(linkOrFile, (current) =>
    mergeEdit(current.value, addition, { what: current.what, ...options }),
  );
  return edit.backup;
}

/** What removeMergedTenant removed, so that the command can say so. */
export interface RemovedTenantEntries {
  /** The kubeconfig file, its links resolved. */
  readonly file: string;
  /** The names of the contexts removed. */
  readonly contexts: readonly string[];
  /** The names of the cluster entries removed. */
  readonly clusters: readonly string[];
  /** The names of the user entries removed. */
  readonly users: readonly string[];
  /** Whether `current-context` named a removed context, and was cleared (`""`). */
  readonly currentContextCleared: boolean;
  /** Where the previous file was kept; undefined when nothing was removed. */
  readonly backup?: string;
}

/** Which of the tenant's entries to remove. */
export interface RemoveOptions {
  /** Remove only entries recorded for this host namespace (another tenants stack may use the same tenant name). */
  readonly hostNamespace?: string;
}

/**
 * Removes from the kubeconfig `kubeconfigFile` what `kubespaces tenant kubeconfig --merge` added for
 * tenant `tenantName`, as `vcluster delete` does: only the contexts, clusters and users that carry
 * kubespaces' `kubespaces.io/tenant` extension for that tenant, never an entry kubespaces did not
 * write (even one named like the tenant). `current-context` is cleared when it named a removed
 * context. Every other byte stays; the file is written like a merge writes it (locked, backed up,
 * atomically, mode 0600), and not at all when nothing is removed or there is no file.
 *
 * @param kubeconfigFile the kubeconfig (a symbolic link to it is followed), e.g. userKubeconfigFile().
 * @param tenantName the tenant whose entries go.
 * @returns what was removed, for the command's message.
 */
export function removeMergedTenant(
  kubeconfigFile: string,
  tenantName: string,
  options: RemoveOptions = {},
): RemovedTenantEntries {
  let removed: Omit<RemovedTenantEntries, "file" | "backup"> = {
    contexts: [],
    clusters: [],
    users: [],
    currentContextCleared: false,
  };
  const file = resolvedKubeconfigFile(kubeconfigFile);
  if (!existsSync(file)) return { file, ...removed }; // nothing to remove, and no folder to create for a lock
  const edit = editKubeconfigFile(file, (current) => {
    const plan = removalEdit(current.value, { tenant: tenantName, ...options });
    removed = plan.removed;
    return plan.edit;
  });
  return { ...removed, file: edit.file, backup: edit.backup };
}

/** The edit that removes the marked entries of `match`'s tenant, and the names it removes. */
function removalEdit(
  target: KubeconfigDocument,
  match: RemoveOptions & { tenant: string },
): { edit: KubeconfigEdit; removed: Omit<RemovedTenantEntries, "file" | "backup"> } {
  const names: Record<ListKey, string[]> = { clusters: [], users: [], contexts: [] };
  const lists: Partial<Record<ListKey, ListEdit>> = {};
  for (const list of Object.keys(KUBECONFIG_LISTS) as ListKey[]) {
    const remove = new Set<number>();
    (target[list] ?? []).forEach((entry, index) => {
      const marker = markerOf(entry, list);
      if (
        marker?.tenant !== match.tenant ||
        (match.hostNamespace !== undefined && marker.hostNamespace !== match.hostNamespace)
      )
        return;
      remove.add(index);
      names[list].push(entry.name);
    });
    lists[list] = { remove };
  }
  const current = target["current-context"];
  const currentContextCleared = current !== undefined && names.contexts.includes(current);
  const edit: KubeconfigEdit = { lists, scalars: currentContextCleared ? { "current-context": "" } : {} };
  return { edit, removed: { ...names, currentContextCleared } };
}
