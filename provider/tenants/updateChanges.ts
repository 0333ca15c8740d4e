/** What one update of a tenant's stack changed, in a few words, as every door shows it. */
import type { StackUpdate } from "./ports";

/** `2 create, 1 update`: the resources it changed by kind of change (left as they were: not counted); none when it changed nothing. */
export function changesText(update: StackUpdate): string | undefined {
  const counted = Object.entries(update.changes).filter(([kind, count]) => kind !== "same" && count > 0);
  return counted.length === 0 ? undefined : counted.map(([kind, count]) => `${count} ${kind}`).join(", ");
}
