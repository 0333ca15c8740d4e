/**
 * Tenants made by the command before it gave each tenant a stack of its own: their requests are in
 * `<home>/tenants/<stack>/` (stack `tenants` unless `login --stack` named another) and they live
 * in that one stack. The command leaves them running and untouched, and says where they are;
 * docs/self-service.md says how to move them.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { cliHome } from "../cliHome";
import type { LoginSettings } from "../loginSettings";

/** The single-stack layout's request folder, when it holds requests. */
export function legacyRequestsFolder(settings: LoginSettings): string | undefined {
  const folder = path.join(cliHome(), "tenants", settings.stack ?? "tenants");
  if (!existsSync(folder)) return undefined;
  return readdirSync(folder).some((file) => file.endsWith(".yaml")) ? folder : undefined;
}

/** The note for people, when there are such tenants. */
export function legacyNote(settings: LoginSettings): string | undefined {
  const folder = legacyRequestsFolder(settings);
  if (!folder) return undefined;
  return `note: tenants made before each tenant had a stack of its own are requested in ${folder} and live in the single stack \`${settings.stack ?? "tenants"}\` of project kubespaces-tenants; they keep running untouched and are not listed here (see docs: "Tenants made before a stack per tenant")`;
}
