/**
 * The door of the recorded login: through the kubespaces server `kubespaces login --server` named
 * (server mode), else into the tenants service over the command's own stacks (local mode). Each
 * door's modules are loaded only when it is opened.
 */
import { readLoginSettings } from "./loginSettings";
import type { TenantsDoor } from "./tenantsDoor";

/** Opens the recorded login's door. */
export async function openDoor(): Promise<TenantsDoor> {
  const settings = readLoginSettings();
  if (settings.server) return (await import("./serverMode/serverDoor")).serverDoor(settings.server);
  const { localDoor, localTenantsDoor } = await import("./localMode/localDoor");
  return localTenantsDoor(localDoor(settings));
}
