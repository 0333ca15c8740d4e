/** `--output table|json|yaml|name` for the commands that read, as kubectl prints them. */
import { stringify } from "yaml";

/** The formats `--output` takes (commander refuses any other). */
export const OUTPUT_FORMATS = ["table", "json", "yaml", "name"] as const;
/** One of them. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table column: its heading and how to read it from a row. */
export interface Column<Row> {
  /** The heading, upper case as kubectl prints them. */
  readonly heading: string;
  /** The cell; undefined prints as `-`. */
  readonly value: (row: Row) => string | undefined;
}

/** What to print, for each format. */
export interface Printable<Row> {
  /** The table's rows. */
  readonly rows: readonly Row[];
  /** The table's columns. */
  readonly columns: readonly Column<Row>[];
  /** What JSON and YAML print (an object, or a list object). */
  readonly document: unknown;
  /** What `name` prints, one per line (`tenant/<name>`). */
  readonly names: readonly string[];
}

/** `printable` in `format`. */
export function formatted<Row>(printable: Printable<Row>, format: OutputFormat): string {
  if (format === "json") return `${JSON.stringify(printable.document, null, 2)}\n`;
  if (format === "yaml") return stringify(printable.document);
  if (format === "name") return printable.names.map((name) => `${name}\n`).join("");
  return table(printable.rows, printable.columns);
}

/** Rows as a table, columns padded to their widest cell. */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = [columns.map((c) => c.heading), ...rows.map((row) => columns.map((c) => c.value(row) ?? "-"))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return (
    cells
      .map((line) => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]))).join("  "))
      .join("\n") + "\n"
  );
}
