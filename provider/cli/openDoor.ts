/**
 * The door of the recorded login: through the kubespaces server `kubespaces login --server` named
 * (server mode), else into the tenants service over the command's own stacks (local mode), on the
 * host the run names with `--context` / `--kubeconfig`, else the recorded one. Each door's modules
 * are loaded only when it is opened.
 */
import { hostOfRun, type HostNaming } from "../hosts/hostChoice";
import { CliError, EXIT } from "./exitCodes";
import { readLoginSettings, type LoginSettings } from "./loginSettings";
import type { TenantsDoor } from "./tenantsDoor";

/**
 * The login one run goes through: the recorded one, its host replaced by the one `flags` name for
 * this run only (nothing is written). Through a server the host is the server's, so a host flag
 * is a usage error there rather than silently ignored.
 */
export function loginOfRun(flags: HostNaming = {}): LoginSettings {
  const settings = readLoginSettings();
  const named = (["context", "kubeconfig"] as const).filter((flag) => flags[flag] !== undefined);
  if (settings.server && named.length > 0)
    throw new CliError(
      `${named.map((flag) => `--${flag}`).join(", ")} names a host cluster of local mode, and your login goes through the kubespaces server ${settings.server}, which reaches its own host: give no ${named.length > 1 ? "host flags" : `--${named[0]}`}, or switch to local mode (kubespaces login --context NAME)`,
      EXIT.invalid,
    );
  if (named.length === 0) return settings;
  const { context, kubeconfig, ...rest } = settings;
  const host = hostOfRun({ context, kubeconfig }, flags);
  return {
    ...rest,
    ...(host.context !== undefined && { context: host.context }),
    ...(host.kubeconfig !== undefined && { kubeconfig: host.kubeconfig }),
  };
}

/** Opens the door of the recorded login, on the host `flags` name for this run (default: the recorded one). */
export async function openDoor(flags: HostNaming = {}): Promise<TenantsDoor> {
  const settings = loginOfRun(flags);
  if (settings.server) return (await import("./serverMode/serverDoor")).serverDoor(settings.server);
  const { localDoor, localTenantsDoor } = await import("./localMode/localDoor");
  return localTenantsDoor(localDoor(settings));
}
