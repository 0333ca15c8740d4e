/**
 * A file state backend (`file://` URL) and its folder, read as Pulumi reads the URL
 * (pkg/backend/diy, massageBlobPath): the query is not part of the path, `file://~` is the home,
 * and any other path is taken as it is. Unless the URL asks for it (gocloud's fileblob
 * `create_dir`), the engine does not create that folder, nor name it when it is missing (its error
 * is "unable to open bucket ...: stat ...: no such file or directory"), so the stacks check for it
 * before each engine call, and `kubespaces login` before recording it.
 */
import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { redactedBackendUrl } from "./backendUrlPassword";

const FILE_PREFIX = "file://";

/** Whether `backendUrl` is a file backend. */
export const isFileBackend = (backendUrl: string): boolean => backendUrl.startsWith(FILE_PREFIX);

/**
 * The absolute folder of file backend `backendUrl`; undefined for any other backend, and for a
 * relative path (Pulumi resolves one against the engine's working folder, not the caller's).
 */
export function fileBackendFolder(backendUrl: string): string | undefined {
  if (!isFileBackend(backendUrl)) return undefined;
  const raw = backendUrl.slice(FILE_PREFIX.length).split("?")[0];
  const trimmed = raw.length > 1 ? raw.replace(/\/+$/, "") : raw;
  try {
    if (trimmed === "~" || trimmed.startsWith("~/"))
      return path.join(os.homedir(), decodeURIComponent(trimmed.slice(1)));
    return trimmed.startsWith("/") ? fileURLToPath(`${FILE_PREFIX}${trimmed}`) : undefined;
  } catch {
    return undefined; // a path no folder can have (an encoded '/', bad percent-encoding)
  }
}

/** The folder of file backend `backendUrl` when there is no folder there and the engine would not create one; undefined otherwise. */
export function missingBackendFolder(backendUrl: string): string | undefined {
  const folder = fileBackendFolder(backendUrl);
  if (folder === undefined || new URLSearchParams(backendUrl.split("?")[1] ?? "").get("create_dir")) return undefined;
  try {
    return statSync(folder).isDirectory() ? undefined : folder;
  } catch {
    return folder;
  }
}

/**
 * Throws, naming the folder, when file backend `backendUrl`'s folder is gone (removed after it was
 * chosen): the engine would fail with its own words, or, created empty, the stacks kept there
 * would look like none.
 */
export function assertBackendFolder(backendUrl: string): void {
  const folder = missingBackendFolder(backendUrl);
  if (folder === undefined) return;
  throw new Error(
    `the state backend's folder ${folder} (${redactedBackendUrl(backendUrl)}) is not there, and the tenants' stacks are kept in it: was it removed? Put it back, or create it empty (mkdir -p ${folder}) to start with no stacks`,
  );
}
