/** `--output table|json|yaml` for the commands that read: rows as a table, or as JSON or YAML. */
import { stringify } from "yaml";

/** The formats `--output` takes (commander refuses any other). */
export const OUTPUT_FORMATS = ["table", "json", "yaml"] as const;
/** One of them. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table column: its heading and how to read it from a row. */
export interface Column<Row> {
  /** The heading, upper case as kubectl prints them. */
  readonly heading: string;
  /** The cell; undefined prints as `-`. */
  readonly value: (row: Row) => string | undefined;
}

/** `rows` in `format`; `document` is what JSON and YAML print (a list, or one object). */
export function formatRows<Row>(rows: readonly Row[], columns: readonly Column<Row>[], format: OutputFormat, document: unknown = rows): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  if (format === "yaml") return stringify(document);
  const cells = [columns.map((c) => c.heading), ...rows.map((row) => columns.map((c) => c.value(row) ?? "-"))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return cells.map((line) => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]))).join("  ")).join("\n") + "\n";
}
