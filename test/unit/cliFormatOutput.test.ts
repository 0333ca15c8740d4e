/** `--output table|json|yaml`: what `get`, `list` and `login` print. */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { formatRows, type Column } from "../../provider/cli/formatOutput";

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

describe("formatRows", () => {
  it("aligns a table on the widest cell of each column, shows a missing value as -, and pads no last column", () => {
    expect(formatRows(ROWS, COLUMNS, "table")).toBe(
      ["NAME        PHASE         API", "team-atlas  Ready         https://team-atlas.api.example.com:443", "b           Provisioning  -", ""].join("\n"),
    );
  });

  it("prints the headings alone for no rows", () => {
    expect(formatRows([], COLUMNS, "table")).toBe("NAME  PHASE  API\n");
  });

  it.each([
    ["json", (text: string) => JSON.parse(text)],
    ["yaml", (text: string) => parse(text)],
  ] as const)("prints the rows as %s, every field included", (format, read) => {
    const text = formatRows(ROWS, COLUMNS, format);
    expect(text.endsWith("\n")).toBe(true);
    expect(read(text)).toEqual(ROWS);
  });

  it.each(["json", "yaml"] as const)("prints the document given instead of the rows as %s", (format) => {
    const text = formatRows([ROWS[0]], COLUMNS, format, ROWS[0]);
    expect(format === "json" ? JSON.parse(text) : parse(text)).toEqual(ROWS[0]);
  });
});
