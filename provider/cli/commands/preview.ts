/** `--preview` of `create` and `delete`: a preview of the tenants stack over a proposed copy of the folder. */
import type { CommandContext } from "../commandContext";
import { EXIT } from "../exitCodes";
import type { ProgressDisplay } from "../progressDisplay";
import { proposedFolder, readRequests } from "../requestFiles";
import { refuseStrayTeardowns } from "../strayTeardowns";
import { runTenantsUpdate, type UpdateTarget } from "../tenantsUpdate";
import { printPreview } from "./shared";

/**
 * Previews the tenants folder with tenant `name`'s request set to `text` (a create) or removed
 * (`undefined`, a delete), and prints the resources that would change. Nothing is written.
 */
export async function previewProposal(
  context: CommandContext,
  target: UpdateTarget,
  name: string,
  text: string | undefined,
  lockTimeoutSeconds: number,
  display: ProgressDisplay,
): Promise<number> {
  const proposed = proposedFolder(context.tenantsDir, name, text);
  try {
    const requested = new Set(readRequests(proposed.dir).keys());
    const deleting = text === undefined ? name : undefined;
    refuseStrayTeardowns(context.runs, target.deployed.keys(), requested, deleting);
    const outcome = await runTenantsUpdate({ context, target, tenantsDir: proposed.dir, requested, deleting, display, preview: true, lockTimeoutMs: lockTimeoutSeconds * 1000 });
    display.close();
    printPreview(`Preview of ${deleting ? "deleting" : "creating"} tenant ${name}; nothing was changed.`, outcome.steps);
    return EXIT.ok;
  } finally {
    proposed.dispose();
  }
}
