/** Each tenant's phase as `get` and `list` show it, from the requests, the state, earlier failures and running updates. */
import { describe, expect, it } from "vitest";
import { tenantRow, tenantRows, type PhaseSources, type TenantRow } from "../../provider/cli/tenantPhases";
import type { TenantPhase } from "../../provider/cli/tenantEvents";
import type { DeployedTenant } from "../../provider/cli/tenantState";
import type { TenantDocument } from "../../provider/tenantFiles/tenantDocuments";

const API = "https://atlas.api.example.com:443";

/** A request for `name` owned by `owner`, as the tenants folder holds it. */
const requestOf = (name: string, owner = "alice@example.com"): TenantDocument => ({ file: `/tenants/${name}.yaml`, document: 1, name, request: { owner } });
const readyTenant = (name: string): DeployedTenant => ({ name, namespace: `kubespaces-${name}`, apiServerUrl: API, phase: "Ready", message: "the virtual cluster is ready" });

interface Given {
  readonly requested?: boolean;
  readonly deployed?: DeployedTenant;
  readonly failure?: string;
  readonly live?: TenantPhase;
}

/** The sources for one tenant, "atlas". */
function sourcesOf({ requested, deployed, failure, live }: Given): PhaseSources {
  return {
    requests: new Map(requested ? [["atlas", requestOf("atlas")]] : []),
    deployed: new Map(deployed ? [["atlas", deployed]] : []),
    failures: failure ? { atlas: failure } : {},
    live: new Map(live ? [["atlas", live]] : []),
  };
}

describe("tenantRow", () => {
  it.each<[string, Given, Partial<TenantRow>]>([
    ["requested only: Pending", { requested: true }, { phase: "Pending", message: "requested; not provisioned yet", owner: "alice@example.com", api: undefined }],
    ["requested and deployed Ready: Ready with its API", { requested: true, deployed: readyTenant("atlas") }, { phase: "Ready", api: API, namespace: "kubespaces-atlas", message: "the virtual cluster is ready" }],
    ["requested with a failure: Failed with the message", { requested: true, failure: "vcluster did not become ready" }, { phase: "Failed", message: "vcluster did not become ready" }],
    ["a failure outranks an older Ready in the state", { requested: true, deployed: readyTenant("atlas"), failure: "upgrade failed" }, { phase: "Failed", message: "upgrade failed", api: API }],
    ["deployed without status: Pending, and create resumes it", { requested: true, deployed: { name: "atlas" } }, { phase: "Pending", message: expect.stringContaining("`kubespaces tenant create atlas` resumes it") }],
    ["deployed with a phase other than Ready: Pending", { requested: true, deployed: { ...readyTenant("atlas"), phase: "Pending" } }, { phase: "Pending", message: expect.stringContaining("resumes it") }],
    ["deployed without request: Deleting", { deployed: readyTenant("atlas") }, { phase: "Deleting", message: expect.stringContaining("`kubespaces tenant delete atlas` finishes it"), owner: undefined, api: API }],
    ["a failure of a tenant no longer requested: Deleting", { deployed: readyTenant("atlas"), failure: "boom" }, { phase: "Deleting" }],
    ["a running create's Pending outranks an earlier failure (it is resuming)", { requested: true, failure: "boom", live: "Pending" }, { phase: "Pending", message: "a command is about to provision it" }],
    ["a running update's Provisioning outranks Ready", { requested: true, deployed: readyTenant("atlas"), live: "Provisioning" }, { phase: "Provisioning", message: "an update is provisioning it now" }],
    ["a running update's Provisioning outranks a failure", { requested: true, failure: "boom", live: "Provisioning" }, { phase: "Provisioning" }],
    ["a running update's Deleting outranks Ready", { requested: true, deployed: readyTenant("atlas"), live: "Deleting" }, { phase: "Deleting", message: "an update is tearing it down now" }],
  ])("%s", (_, given, expected) => {
    const row = tenantRow("atlas", sourcesOf(given));
    expect(row).toEqual(expect.objectContaining({ name: "atlas", ...expected }));
  });
});

describe("tenantRows", () => {
  it("lists every tenant requested or deployed once, sorted by name, with the request's owner", () => {
    const sources: PhaseSources = {
      requests: new Map([
        ["zeta", requestOf("zeta", "zed@example.com")],
        ["atlas", requestOf("atlas", "alice@example.com")],
      ]),
      deployed: new Map([
        ["atlas", readyTenant("atlas")],
        ["gone", readyTenant("gone")],
      ]),
      failures: { zeta: "quota exceeded" },
      live: new Map(),
    };
    expect(tenantRows(sources).map((row) => [row.name, row.owner, row.phase])).toEqual([
      ["atlas", "alice@example.com", "Ready"],
      ["gone", undefined, "Deleting"],
      ["zeta", "zed@example.com", "Failed"],
    ]);
  });

  it("is empty when nothing is requested or deployed", () => {
    expect(tenantRows({ requests: new Map(), deployed: new Map(), failures: { old: "x" }, live: new Map([["old", "Provisioning"]]) })).toEqual([]);
  });
});
