/**
 * The door of the recorded login: into the tenants service over the command's own stacks (local
 * mode). Its modules are loaded only when it is opened.
 */
import { readLoginSettings } from "./loginSettings";
import type { TenantsDoor } from "./tenantsDoor";

/** Opens the recorded login's door. */
export async function openDoor(): Promise<TenantsDoor> {
  const settings = readLoginSettings();
  const { localDoor, localTenantsDoor } = await import("./localDoor");
  return localTenantsDoor(localDoor(settings));
}
