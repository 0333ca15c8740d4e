/**
 * A tenant's kubeconfig, named and pointed as asked, and merged into the user's kubeconfig file the
 * way kubectl users expect: every other cluster, user and context kept, the tenant's entries
 * replaced, the old file kept as a backup, the new one written in one step with mode 0600.
 */
import { mkdirSync, readFileSync, readlinkSync, realpathSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse, stringify } from "yaml";
import { isPlainObject } from "../util/plainObject";
import { redactedParseError } from "../util/redactedErrors";
import { CliError, EXIT } from "./exitCodes";
import { writeAtomically, writeNewFile } from "../util/atomicFile";

/** A named entry of a kubeconfig list (cluster, user, context). */
interface Named {
  readonly name: string;
  readonly [field: string]: unknown;
}

/** A kubeconfig file's contents, as far as merging reads them. */
export interface KubeconfigDocument {
  /** `v1`. */
  apiVersion?: string;
  kind?: string;
  clusters?: Named[];
  users?: Named[];
  contexts?: Named[];
  "current-context"?: string;
  [field: string]: unknown;
}

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

function parseKubeconfig(text: string, what: string): KubeconfigDocument {
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw redactedParseError(what, error);
  }
  if (parsed === null || parsed === undefined) return {};
  if (!isPlainObject(parsed)) throw new CliError(`${what} is not a kubeconfig (a YAML mapping); it was left as it is`, EXIT.invalid);
  return parsed as KubeconfigDocument;
}

/** The tenant's kubeconfig with its one context renamed and, if asked, pointed elsewhere. */
export function retargeted(tenantKubeconfig: string, { contextName, server }: Retarget): KubeconfigDocument {
  const source = parseKubeconfig(tenantKubeconfig, "the tenant's kubeconfig");
  const context = source.contexts?.find((c) => c.name === source["current-context"]) ?? source.contexts?.[0];
  const details = (context?.context ?? {}) as { cluster?: string; user?: string; namespace?: string };
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

/** `target` with the entries of `addition` added, replacing those of the same names; its current context kept. */
export function mergedKubeconfig(target: KubeconfigDocument, addition: KubeconfigDocument): KubeconfigDocument {
  const merge = (mine: Named[] | undefined, theirs: Named[] | undefined): Named[] => {
    const replaced = new Set((theirs ?? []).map((entry) => entry.name));
    return [...(mine ?? []).filter((entry) => !replaced.has(entry.name)), ...(theirs ?? [])];
  };
  return {
    apiVersion: "v1",
    kind: "Config",
    ...target,
    clusters: merge(target.clusters, addition.clusters),
    users: merge(target.users, addition.users),
    contexts: merge(target.contexts, addition.contexts),
    // A file without a current context gets the tenant's; otherwise `kubectl config use-context` switches.
    "current-context": target["current-context"] || addition["current-context"],
  };
}

/** The kubeconfig file kubectl writes to: the first of `$KUBECONFIG`, else `~/.kube/config`. */
export function userKubeconfigFile(): string {
  const first = process.env.KUBECONFIG?.split(path.delimiter).find((entry) => entry !== "");
  return first ?? path.join(os.homedir(), ".kube", "config");
}

/**
 * The file a kubeconfig path names, resolved once, up front: a symbolic link the user made (to a
 * file in a dotfiles repository, say) is followed, even when its target does not exist yet, so the
 * write replaces the target and the link stays. Everything written after this (lock, backup,
 * temporary file) is beside the target and created without following links.
 */
export function resolvedKubeconfigFile(linkOrFile: string): string {
  let file = path.resolve(linkOrFile);
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    try {
      return realpathSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    const target = linkTarget(file);
    if (target === undefined) return file; // a new file: nothing to follow
    file = path.resolve(path.dirname(file), target);
  }
  throw new CliError(`${linkOrFile}: too many levels of symbolic links`, EXIT.invalid);
}

/** As many links as Linux follows before ELOOP. */
const MAX_LINKS = 40;

/** Where the dangling link `file` points, or undefined when `file` is not a link (or not there). */
function linkTarget(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EINVAL" || code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

/**
 * Merges `addition` into `file` (through a symbolic link to the file it names), holding
 * `<file>.lock` as kubectl does so that neither loses the other's change; returns the backup's
 * path, if there was a file to back up.
 */
export function mergeIntoFile(linkOrFile: string, addition: KubeconfigDocument): string | undefined {
  const file = resolvedKubeconfigFile(linkOrFile);
  return whileLocked(file, () => mergeLocked(file, addition));
}

/** Runs `edit` holding `<file>.lock`, created exclusively (a planted link there is refused, not followed). */
function whileLocked<T>(file: string, edit: () => T): T {
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  try {
    writeNewFile(lock, String(process.pid), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    throw new CliError(`${file} is locked by another program (${lock}); try again, or remove the lock if nothing is writing the file`, EXIT.busy);
  }
  try {
    return edit();
  } finally {
    unlinkSync(lock);
  }
}

/** The backup's name: `<file>.kubespaces-backup`, as the README says. */
export const backupFileOf = (file: string): string => `${file}.kubespaces-backup`;

/**
 * Keeps `text`, the file's contents before the edit, as its backup (mode 0600: it holds the same
 * credentials). Written like the file itself, through a new temporary file and a rename, so a link
 * or a file planted at the backup's name is replaced, never written through or chmod-ed.
 */
function writeBackup(file: string, text: string): string {
  const backup = backupFileOf(file);
  writeAtomically(backup, text, 0o600);
  return backup;
}

/** The file's text, or undefined when there is none yet. */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function mergeLocked(file: string, addition: KubeconfigDocument): string | undefined {
  const before = readIfThere(file);
  const current = before === undefined ? {} : parseKubeconfig(before, `kubeconfig ${file}`);
  const merged = stringify(mergedKubeconfig(current, addition));
  const backup = before === undefined ? undefined : writeBackup(file, before);
  writeAtomically(file, merged, 0o600);
  return backup;
}
