/**
 * `kubespaces tenant history NAME`: the tenant's updates, newest first, as its stack's history
 * keeps them: the version (what `tenant rollback --to` names), when, the result, the generation of
 * the request it ran, the platform revision, who ran it and what it changed. `-o json|yaml` prints
 * every update with its request.
 */
import type { HostNaming } from "../../hosts/hostChoice";
import type { CommandEnv } from "../commandEnv";
import { EXIT } from "../exitCodes";
import { formatted, isTable, type Column, type OutputFormat } from "../formatOutput";
import type { StackUpdate } from "../../tenants/ports";
import { changesText } from "../../tenants/updateChanges";

/** `history`'s options. */
export interface HistoryOptions extends HostNaming {
  /** How to print. */
  readonly output: OutputFormat;
}

/** Runs `history`. */
export async function tenantHistory(env: CommandEnv, name: string, options: HistoryOptions): Promise<number> {
  const { tenants, actor } = await env.door(options);
  const updates = await tenants.history(name, actor);
  env.stdout.write(
    formatted(
      {
        rows: updates,
        columns: UPDATE_COLUMNS,
        document: { items: updates },
        names: updates.map((update) => `update/${update.version}`),
      },
      options.output,
    ),
  );
  if (updates.length === 0 && isTable(options.output)) env.stderr.write(`tenant ${name} has no updates yet\n`);
  return EXIT.ok;
}

const UPDATE_COLUMNS: readonly Column<StackUpdate>[] = [
  { heading: "VERSION", value: (u) => String(u.version) },
  { heading: "KIND", value: (u) => u.kind },
  { heading: "RESULT", value: (u) => u.result },
  { heading: "STARTED", value: (u) => u.startedAt },
  { heading: "GENERATION", value: (u) => u.record && String(u.record.generation) },
  { heading: "REVISION", value: (u) => u.record?.platformRevision },
  { heading: "BY", value: (u) => u.record?.actor },
  { heading: "CHANGES", value: changesText },
];
