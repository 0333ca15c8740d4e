/** What each update records of itself in its stack's settings, and how the history gives it back (tenants/automation/updateRecord.ts). */
import { describe, expect, it } from "vitest";
import type { UpdateSummary } from "@pulumi/pulumi/automation";
import { stackUpdateOf, withRecord } from "../../provider/tenants/automation/updateRecord";

const REQUEST = { owner: "alice@example.com", resources: { cpu: "3", memory: "4Gi" } };

describe("an update's record", () => {
  it("goes into the stack's configuration, keeping the encryption salt and the rest, and dropping a revision no longer run", () => {
    const settings = {
      secretsprovider: "passphrase",
      encryptionsalt: "v1:salt",
      config: { "other:key": "kept", "kubespaces:platformRevision": "r1" },
    };
    const recorded = withRecord(settings, { generation: 3, actor: "system:kubespaces-server:a" }, REQUEST);
    expect(recorded).toEqual({
      secretsprovider: "passphrase",
      encryptionsalt: "v1:salt",
      config: {
        "other:key": "kept",
        "kubespaces:generation": "3",
        "kubespaces:actor": "system:kubespaces-server:a",
        "kubespaces:request": JSON.stringify(REQUEST),
      },
    });
    const onRevision = withRecord(recorded, { generation: 3, actor: "a", platformRevision: "r2" }, REQUEST);
    expect(onRevision.config?.["kubespaces:platformRevision"]).toBe("r2");
    // An update that records nothing leaves nothing of the one before.
    expect(withRecord(onRevision, undefined, REQUEST).config).toEqual({ "other:key": "kept" });
  });

  it("comes back with its update from the history; an update that recorded nothing, or something not JSON, has none", () => {
    const summary = (config: UpdateSummary["config"]): UpdateSummary => ({
      version: 4,
      kind: "update",
      startTime: new Date("2026-12-05T01:00:00Z"),
      endTime: new Date("2026-12-05T01:00:30Z"),
      message: "",
      environment: {},
      config,
      result: "succeeded",
      resourceChanges: { update: 1, same: 10 },
    });
    expect(
      stackUpdateOf(
        summary({
          "kubespaces:generation": { value: "2", secret: false },
          "kubespaces:actor": { value: "alice@example.com", secret: false },
          "kubespaces:platformRevision": { value: "tighter", secret: false },
          "kubespaces:request": { value: JSON.stringify(REQUEST), secret: false },
        }),
      ),
    ).toEqual({
      version: 4,
      kind: "update",
      startedAt: "2026-12-05T01:00:00.000Z",
      endedAt: "2026-12-05T01:00:30.000Z",
      result: "succeeded",
      changes: { update: 1, same: 10 },
      record: { generation: 2, actor: "alice@example.com", platformRevision: "tighter" },
      request: REQUEST,
    });
    const bare = stackUpdateOf(summary({ "kubespaces:request": { value: "{not json", secret: false } }));
    expect(bare.record).toBeUndefined();
    expect(bare.request).toBeUndefined();
  });
});
