/**
 * Each tenant's cost on `/metrics`: its quota's ceiling and use follow the ResourceQuota's status
 * as the drift watch hands it on, whether it is awake follows its phase (and whether anything of it
 * is provisioned), its seconds awake grow only while it is, on a clock the test moves, and every
 * series of a tenant goes when its Tenant does.
 */
import { describe, expect, it } from "vitest";
import { tenantQuotaOf } from "../../provider/server/kube/driftWatch";
import { quotaAmounts } from "../../provider/server/metrics/quotaAmounts";
import { ServerMetrics } from "../../provider/server/metrics/serverMetrics";
import { WatchedTenantCosts } from "../../provider/server/metrics/watchedTenantCosts";

const GI = 2 ** 30;
const LABELS = { "kubespaces.io/tenant": "atlas", "app.kubernetes.io/managed-by": "kubespaces-pulumi" };
const HARD = { "requests.cpu": "8", "limits.cpu": "8", "requests.memory": "16Gi", "requests.storage": "50Gi" };

/** A ResourceQuota of tenant atlas as the drift watch's informer gives it. */
const quotaObject = (used: Record<string, string>, name = "kubespaces-quota", labels = LABELS) => ({
  metadata: { name, namespace: "kubespaces-tenant-atlas", labels },
  spec: { hard: HARD },
  status: { hard: HARD, used },
});

/** The samples of `name` in `text`, as `labels value` lines (labels sorted), so that a whole scrape is compared. */
function samples(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => line.slice(name.length))
    .sort();
}

/** A server's metrics over watched costs, on a clock the test moves. */
function watched() {
  let now = 1_000_000;
  const costs = new WatchedTenantCosts(() => now);
  const metrics = new ServerMetrics({ tenantCosts: () => costs.costs() });
  const scrape = async (name: string) => samples(await metrics.registry.metrics(), name);
  const seen = (object: ReturnType<typeof quotaObject>) => {
    const found = tenantQuotaOf(object)!;
    costs.quotaSeen(found.tenant, found.quota);
  };
  return { costs, scrape, seen, pass: (seconds: number) => (now += seconds * 1000) };
}

describe("a tenant's quota as numbers", () => {
  it.each([
    ["whole cores and binary units", { "requests.cpu": "8", "requests.memory": "16Gi" }, { cpu: 8, memory: 16 * GI }],
    [
      "millicores and decimal units",
      { "requests.cpu": "1500m", "requests.storage": "10G" },
      { cpu: 1.5, storage: 1e10 },
    ],
    ["the requests, not the limits", { "limits.cpu": "4", "limits.memory": "1Gi" }, {}],
    ["no quantity, or one that overflows, left out", { "requests.cpu": "lots", "requests.memory": "1e999" }, {}],
  ])("reads %s", (_what, used, expected) => {
    expect(quotaAmounts({ hard: {}, used })).toEqual({ hard: {}, used: expected });
  });
});

describe("each tenant's cost on /metrics", () => {
  it("follows the quota's status as it changes, and drops the quota's series when the quota goes", async () => {
    const { costs, scrape, seen } = watched();
    costs.phaseSeen("atlas", "Ready");
    seen(quotaObject({ "requests.cpu": "500m", "requests.memory": "1Gi", "requests.storage": "0" }));
    expect(await scrape("kubespaces_tenant_quota_hard")).toEqual([
      `{tenant="atlas",resource="cpu"} 8`,
      `{tenant="atlas",resource="memory"} ${16 * GI}`,
      `{tenant="atlas",resource="storage"} ${50 * GI}`,
    ]);
    expect(await scrape("kubespaces_tenant_quota_used")).toEqual([
      `{tenant="atlas",resource="cpu"} 0.5`,
      `{tenant="atlas",resource="memory"} ${GI}`,
      `{tenant="atlas",resource="storage"} 0`,
    ]);

    seen(quotaObject({ "requests.cpu": "6", "requests.memory": "12Gi", "requests.storage": "20Gi" }));
    expect(await scrape("kubespaces_tenant_quota_used")).toEqual([
      `{tenant="atlas",resource="cpu"} 6`,
      `{tenant="atlas",resource="memory"} ${12 * GI}`,
      `{tenant="atlas",resource="storage"} ${20 * GI}`,
    ]);

    costs.quotaGone("atlas");
    expect(await scrape("kubespaces_tenant_quota_hard")).toEqual([]);
    expect(await scrape("kubespaces_tenant_quota_used")).toEqual([]);
    expect(await scrape("kubespaces_tenant_awake")).toEqual([`{tenant="atlas"} 0`]);
  });

  it("counts seconds awake only while the tenant is awake, and shows 0 while it sleeps", async () => {
    const { costs, scrape, seen, pass } = watched();
    costs.phaseSeen("atlas", "Provisioning");
    seen(quotaObject({}));
    pass(30);
    costs.phaseSeen("atlas", "Ready");
    pass(90);
    expect(await scrape("kubespaces_tenant_awake")).toEqual([`{tenant="atlas"} 1`]);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([`{tenant="atlas"} 120`]);

    costs.phaseSeen("atlas", "Sleeping");
    pass(3600);
    expect(await scrape("kubespaces_tenant_awake")).toEqual([`{tenant="atlas"} 0`]);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([`{tenant="atlas"} 120`]);

    costs.phaseSeen("atlas", "Ready");
    pass(60);
    expect(await scrape("kubespaces_tenant_awake")).toEqual([`{tenant="atlas"} 1`]);
    // Scraping twice adds nothing: the counter is the total, not what was added since the last scrape.
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([`{tenant="atlas"} 180`]);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([`{tenant="atlas"} 180`]);
  });

  it("counts a Tenant with nothing provisioned (no quota in its namespace) as asleep, whatever its phase", async () => {
    const { costs, scrape, pass } = watched();
    costs.phaseSeen("preview", "Previewed");
    costs.phaseSeen("fresh", undefined);
    pass(600);
    expect(await scrape("kubespaces_tenant_awake")).toEqual([`{tenant="fresh"} 0`, `{tenant="preview"} 0`]);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([
      `{tenant="fresh"} 0`,
      `{tenant="preview"} 0`,
    ]);
  });

  it("starts counting a quota seen before its Tenant once the Tenant is seen, and shows no quota of a Tenant it does not hold", async () => {
    const { costs, scrape, seen, pass } = watched();
    seen(quotaObject({ "requests.cpu": "1" }));
    pass(100);
    expect(await scrape("kubespaces_tenant_quota_hard")).toEqual([]);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([]);
    costs.phaseSeen("atlas", "Ready");
    pass(5);
    expect(await scrape("kubespaces_tenant_awake_seconds_total")).toEqual([`{tenant="atlas"} 5`]);
  });

  it("removes every series of a deleted tenant, and keeps the others'", async () => {
    const { costs, scrape, seen, pass } = watched();
    for (const tenant of ["atlas", "borealis"]) {
      costs.phaseSeen(tenant, "Ready");
      seen(quotaObject({ "requests.cpu": "1" }, "kubespaces-quota", { ...LABELS, "kubespaces.io/tenant": tenant }));
    }
    pass(10);
    const names = [
      "kubespaces_tenant_quota_hard",
      "kubespaces_tenant_quota_used",
      "kubespaces_tenant_awake",
      "kubespaces_tenant_awake_seconds_total",
    ];
    for (const name of names) expect((await scrape(name)).join()).toContain('tenant="atlas"');

    costs.phaseSeen("atlas", "Deleting");
    costs.gone("atlas");
    for (const name of names) {
      const left = await scrape(name);
      expect(left.join(), name).not.toContain('tenant="atlas"');
      expect(left.length, name).toBeGreaterThan(0);
    }
    // Its quota's removal, which comes after the Tenant's, brings none back.
    costs.quotaGone("atlas");
    expect((await scrape("kubespaces_tenant_awake")).join()).not.toContain('tenant="atlas"');
  });
});
