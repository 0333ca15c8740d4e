/**
 * A stand-in for the tenants' stack histories as the people's door reads them (StackHistories):
 * each tenant's updates as a test puts them, newest first, as the engine's history lists them.
 */
import type { StackHistories } from "../../../provider/server/people/ownedTenants";
import type { TenantRequestInput } from "../../../provider/model/tenantRequestSchema";
import type { StackUpdate } from "../../../provider/tenants/ports";

/** The stand-in histories. */
export class StandInStackHistories implements StackHistories {
  private readonly updates = new Map<string, StackUpdate[]>();

  /** Records an update of tenant `name` that ran `request` at `generation`: the next version. */
  add(name: string, generation: number, request: TenantRequestInput, platformRevision?: string): StackUpdate {
    const list = this.updates.get(name) ?? [];
    const update: StackUpdate = {
      version: list.length + 1,
      kind: "update",
      startedAt: new Date(Date.UTC(2026, 11, 1, list.length)).toISOString(),
      result: "succeeded",
      changes: { update: 1 },
      record: { generation, actor: "system:kubespaces-server:test", ...(platformRevision && { platformRevision }) },
      request,
    };
    this.updates.set(name, [...list, update]);
    return update;
  }

  async history(name: string): Promise<StackUpdate[]> {
    return [...(this.updates.get(name) ?? [])].reverse();
  }
}
