/** `--output table|json|yaml|name`: what `get`, `list` and `login` print. */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatted, table, type Column, type Printable } from "../../provider/cli/formatOutput";

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
});
