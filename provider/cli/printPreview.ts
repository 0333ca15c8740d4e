/**
 * `--preview` of `tenant create` and `tenant delete`: the plan the door's previews make of the
 * tenant's stack (here, or on the server), printed for people the same way in both modes. The
 * service's notes (a wait for the stack's lock) go to the progress display; nothing is stored or
 * changed.
 */
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import type { Actor } from "../tenants/ports";
import type { CommandEnv } from "./commandEnv";
import { EXIT } from "./exitCodes";
import { progressDisplay } from "./progressDisplay";
import { previewText } from "./tenantPrint";
import type { TenantPreviews } from "./tenantsDoor";

/**
 * Prints what creating tenant `name` with `request` would change, or, with no request, what
 * deleting it would remove; returns the exit code.
 */
export async function printPreview(
  env: CommandEnv,
  previews: TenantPreviews,
  actor: Actor,
  name: string,
  request: TenantRequestInput | undefined,
  lockTimeoutMs: number,
): Promise<number> {
  const display = progressDisplay(env.stderr);
  try {
    const plan = await previews.preview(name, request, actor, { onNote: (line) => display.note(line), lockTimeoutMs });
    display.close();
    const operation = request ? "creating" : "deleting";
    env.stdout.write(previewText(`Preview of ${operation} tenant ${name}; nothing was changed.`, plan));
    return EXIT.ok;
  } finally {
    display.close();
  }
}
