/** `--preview` of `create` and `delete`: a preview of the tenants stack over a proposed copy of the folder. */
import type { CommandContext } from "../commandContext";
import { EXIT } from "../exitCodes";
import type { ProgressDisplay } from "../progressDisplay";
import { proposedFolder, readRequests } from "../requestFiles";
import { refuseStrayTeardowns, runTenantsUpdate, type UpdateTarget } from "../tenantsUpdate";
import { printPreview } from "./shared";

/**
 * Previews the tenants folder with tenant `name`'s request set to `text` (a create) or removed
 * (`undefined`, a delete), and prints the resources that would change. Nothing is written.
 */
export async function previewProposal(context: CommandContext, target: UpdateTarget, name: string, text: string | undefined, display: ProgressDisplay): Promise<number> {
  const proposed = proposedFolder(context.tenantsDir, name, text);
  try {
    const requested = new Set(readRequests(proposed.dir).keys());
    refuseStrayTeardowns(context, target, requested, text === undefined ? name : undefined);
    const outcome = await runTenantsUpdate({ context, target, tenantsDir: proposed.dir, requested, display, preview: true, lockTimeoutMs: 0 });
    display.close();
    printPreview(`Preview of ${text === undefined ? "deleting" : "creating"} tenant ${name}; nothing was changed.`, outcome.steps);
    return EXIT.ok;
  } finally {
    proposed.dispose();
  }
}
