/**
 * The ceilings the server publishes for the ceiling admission policy: the policy new tenants get,
 * each ceiling as text, written only when the TenantCeilings object says something else, one write
 * at a time.
 */
import { describe, expect, it } from "vitest";
import {
  ceilingParameters,
  CeilingPublisher,
  type CeilingParameters,
  type CeilingParametersStore,
} from "../../provider/server/admission/ceilingPublisher";

/** The TenantCeilings object in memory, with the writes it took and a failure to give once. */
class MemoryParameters implements CeilingParametersStore {
  data: CeilingParameters | undefined;
  readonly writes: { data: CeilingParameters; exists: boolean }[] = [];
  failNext: Error | undefined;

  async read() {
    return this.data && structuredClone(this.data);
  }

  async write(data: CeilingParameters, exists: boolean) {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    expect(exists).toBe(this.data !== undefined);
    this.writes.push({ data, exists });
    this.data = structuredClone(data);
  }
}

const publisher = () => {
  const store = new MemoryParameters();
  const lines: string[] = [];
  return { store, lines, publisher: new CeilingPublisher(store, (line) => lines.push(line)) };
};

describe("ceilingParameters", () => {
  it("writes each ceiling the policy sets as text, and the revision it comes from", () => {
    expect(
      ceilingParameters({
        policy: { quota: { ceilings: { cpu: "8", memory: "32Gi", pods: 40, servicesNodePorts: 0 } } },
        revision: "rev-2",
      }),
    ).toEqual({
      platformRevision: "rev-2",
      ceilings: { cpu: "8", memory: "32Gi", pods: "40", servicesNodePorts: "0" },
    });
  });

  it("says the server's configuration with an empty revision, and nothing of ceilings it does not set", () => {
    expect(ceilingParameters({ policy: {} })).toEqual({ platformRevision: "", ceilings: {} });
    expect(ceilingParameters({ policy: { quota: { ceilings: { storage: "100Gi" } } } })).toEqual({
      platformRevision: "",
      ceilings: { storage: "100Gi" },
    });
  });
});

describe("CeilingPublisher", () => {
  it("makes the object, then rewrites it only when the ceilings or their revision change", async () => {
    const { store, lines, publisher: ceilings } = publisher();
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "8" } } } });
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "8" } } } });
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "8" } } }, revision: "rev-3" });
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "16" } } }, revision: "rev-3" });
    expect(store.writes).toEqual([
      { data: { platformRevision: "", ceilings: { cpu: "8" } }, exists: false },
      { data: { platformRevision: "rev-3", ceilings: { cpu: "8" } }, exists: true },
      { data: { platformRevision: "rev-3", ceilings: { cpu: "16" } }, exists: true },
    ]);
    expect(lines).toEqual([
      "published the ceilings of the configuration for admission",
      "published the ceilings of platform revision rev-3 for admission",
      "published the ceilings of platform revision rev-3 for admission",
    ]);
  });

  it("removes a ceiling the policy no longer sets", async () => {
    const { store, publisher: ceilings } = publisher();
    store.data = { platformRevision: "", ceilings: { cpu: "8", memory: "16Gi" } };
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "8" } } } });
    expect(store.data).toEqual({ platformRevision: "", ceilings: { cpu: "8" } });
  });

  it("publishes in the order asked: the last change stands", async () => {
    const { store, publisher: ceilings } = publisher();
    const first = ceilings.publish({ policy: { quota: { ceilings: { cpu: "4" } } } });
    const second = ceilings.publish({ policy: { quota: { ceilings: { cpu: "6" } } } });
    await Promise.all([first, second]);
    expect(store.data).toEqual({ platformRevision: "", ceilings: { cpu: "6" } });
  });

  it("logs a failed write without throwing, and writes at the next change", async () => {
    const { store, lines, publisher: ceilings } = publisher();
    store.failNext = new Error('configmaps is forbidden: User "system:serviceaccount:x:y" cannot create');
    await expect(ceilings.publish({ policy: { quota: { ceilings: { cpu: "4" } } } })).resolves.toBeUndefined();
    expect(lines[0]).toMatch(/^the ceilings for admission were not published: configmaps is forbidden/);
    await ceilings.publish({ policy: { quota: { ceilings: { cpu: "4" } } } });
    expect(store.data).toEqual({ platformRevision: "", ceilings: { cpu: "4" } });
  });
});
