/** `--output table|wide|json|yaml|name`: what `get`, `list` and `login` print. */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatted, table, type Column, type Printable } from "../../provider/cli/formatOutput";
import { tenantText } from "../../provider/cli/tenantPrint";
import type { TenantView } from "../../provider/tenantResource/tenantReplies";

interface Row {
  readonly name: string;
  readonly phase: string;
  readonly api?: string;
}

const COLUMNS: readonly Column<Row>[] = [
  { heading: "NAME", value: (r) => r.name },
  { heading: "PHASE", value: (r) => r.phase },
  { heading: "API", value: (r) => r.api },
];
const ROWS: readonly Row[] = [
  { name: "team-atlas", phase: "Ready", api: "https://team-atlas.api.example.com:443" },
  { name: "b", phase: "Provisioning" },
];
const PRINTABLE: Printable<Row> = {
  rows: ROWS,
  columns: COLUMNS,
  document: { kind: "List", items: ROWS },
  names: ["tenant/team-atlas", "tenant/b"],
};

describe("table", () => {
  it("aligns a table on the widest cell of each column, shows a missing value as -, and pads no last column", () => {
    expect(table(ROWS, COLUMNS)).toBe(
      [
        "NAME        PHASE         API",
        "team-atlas  Ready         https://team-atlas.api.example.com:443",
        "b           Provisioning  -",
        "",
      ].join("\n"),
    );
  });

  it("prints the headings alone for no rows", () => {
    expect(table([], COLUMNS)).toBe("NAME  PHASE  API\n");
  });
});

describe("formatted", () => {
  it.each([
    ["json", (text: string) => JSON.parse(text)],
    ["yaml", (text: string) => parse(text)],
  ] as const)("prints the document as %s, every field included", (format, read) => {
    const text = formatted(PRINTABLE, format);
    expect(text.endsWith("\n")).toBe(true);
    expect(read(text)).toEqual({ kind: "List", items: ROWS });
  });

  it("prints kind/name lines for name, as kubectl -o name does", () => {
    expect(formatted(PRINTABLE, "name")).toBe("tenant/team-atlas\ntenant/b\n");
  });

  it("prints the table for table", () => {
    expect(formatted(PRINTABLE, "table")).toBe(table(ROWS, COLUMNS));
  });

  it("prints the wide columns for wide, and the table's where a command has none", () => {
    const WIDE = [...COLUMNS, { heading: "EXTRA", value: (r: Row) => r.name.toUpperCase() }];
    expect(formatted({ ...PRINTABLE, wideColumns: WIDE }, "wide")).toBe(table(ROWS, WIDE));
    expect(formatted(PRINTABLE, "wide")).toBe(table(ROWS, COLUMNS));
  });
});

describe("a tenant -o wide", () => {
  const view = (status: Record<string, unknown>, spec: Record<string, unknown> = {}) =>
    ({
      apiVersion: "kubespaces.io/v1alpha1",
      kind: "Tenant",
      metadata: { name: "atlas", generation: 3 },
      spec: { owner: "alice@example.com", expiresAt: "2027-01-01T00:00:00Z", ...spec },
      status: { phase: "Ready", conditions: [], message: "ready", apiServerUrl: "https://atlas", ...status },
    }) as unknown as TenantView;

  it("adds NAMESPACE, REVISION and EXPIRES: the expiry in force, not a newer request's", () => {
    const wide = tenantText(
      view({
        namespace: "kubespaces-tenant-atlas",
        platformRevision: "tighter",
        expiry: { generation: 2, expiresAt: "2026-12-24T00:00:00Z" },
      }),
      "wide",
    );
    expect(wide.split("\n")[0].split(/\s+/)).toEqual(["NAME", "PHASE", "API", "NAMESPACE", "REVISION", "EXPIRES"]);
    expect(wide.split("\n")[1].split(/\s+/)).toEqual([
      "atlas",
      "Ready",
      "https://atlas",
      "kubespaces-tenant-atlas",
      "tighter",
      "2026-12-24T00:00:00Z",
    ]);
  });

  it("adds get's cost last when given: each quota resource used/ceiling, then AWAKE(30D); the table is unchanged", () => {
    const tenant = view({ namespace: "kubespaces-tenant-atlas" });
    const cost = {
      quota: {
        hard: { "requests.cpu": "8", "requests.memory": "16Gi", "limits.cpu": "8" },
        used: { "requests.cpu": "250m" },
      },
      awake: { hours: 12.5, seconds: 45_000, days: [] },
    };
    const [heading, row] = tenantText(tenant, "wide", cost).split("\n");
    expect(heading.split(/\s+/).slice(6)).toEqual(["CPU", "MEMORY", "STORAGE", "AWAKE(30D)"]);
    // Nothing used of memory yet is 0 of its ceiling; no storage ceiling shows as nothing.
    expect(row.split(/\s+/).slice(6)).toEqual(["250m/8", "0/16Gi", "-", "12.5h"]);
    expect(tenantText(tenant, "table", cost)).toBe(tenantText(tenant, "table"));
  });

  it("shows no quota before the tenant's namespace has one", () => {
    const row = tenantText(view({}), "wide", { awake: { hours: 0, seconds: 0, days: [] } }).split("\n")[1];
    expect(row.split(/\s+/).slice(6)).toEqual(["-", "-", "-", "0h"]);
  });

  it("shows the request's expiry before any generation ran, and - for what a tenant has not", () => {
    expect(tenantText(view({}), "wide").split("\n")[1].split(/\s+/).slice(3)).toEqual([
      "-",
      "-",
      "2027-01-01T00:00:00Z",
    ]);
    expect(
      tenantText(view({ expiry: { generation: 2 } }), "wide")
        .split("\n")[1]
        .split(/\s+/)
        .slice(5),
    ).toEqual(["-"]);
  });
});
