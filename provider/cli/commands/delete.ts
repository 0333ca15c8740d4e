/**
 * `kubespaces tenant delete NAME`: the tenants service tears the tenant's stack down completely (in
 * the edge table's order, objects outside its namespace included) and removes its request; the
 * kubeconfig context `kubeconfig --merge` added for it is removed too. `--preview` prints the steps
 * (local mode only). Through a server, the server tears it down and the command follows until it is gone.
 */
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { listenForInterrupts, operationOptions } from "../interrupts";
import { forgetMergedContext } from "../../kubeconfig/mergedContexts";
import { progressDisplay } from "../progressDisplay";
import { printPreview } from "../printPreview";
import { deletedText } from "../tenantPrint";

/** `delete`'s options. */
export interface DeleteOptions {
  /** Only show what would be removed. */
  readonly preview?: boolean;
  /** Seconds to wait for another update's stack lock. */
  readonly lockTimeout: number;
}

/** Runs `delete`. */
export async function deleteTenant(env: CommandEnv, name: string, options: DeleteOptions): Promise<number> {
  const door = await env.door();
  const { tenants, actor } = door;
  const lockTimeoutMs = options.lockTimeout * 1000;
  if (options.preview) return printPreview(env, door.previews, actor, name, undefined, lockTimeoutMs);
  const display = progressDisplay(env.stderr);
  try {
    // Read before the teardown: the merged entries are matched on the tenant's namespace too.
    const namespace = (await tenants.get(name, actor).catch(() => undefined))?.status.namespace;
    const interrupts = listenForInterrupts(
      (line) => display.note(line),
      door.onInterrupt,
      `run \`kubespaces tenant delete ${name}\` again to finish the teardown`,
    );
    try {
      const result = await tenants.delete(name, actor, operationOptions(display, interrupts, lockTimeoutMs));
      display.close();
      env.stdout.write(deletedText(name, result));
    } finally {
      interrupts.dispose();
    }
    const forgotten = forgetMergedContext(name, namespace);
    if (forgotten) env.stderr.write(`${forgotten}\n`);
    return EXIT.ok;
  } finally {
    display.close();
  }
}
