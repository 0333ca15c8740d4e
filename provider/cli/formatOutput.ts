/**
 * `--output table|wide|json|yaml|name` for the commands that read, as kubectl prints them (`wide`:
 * the table with more columns, where a command has them). A table and
 * names show what others wrote with its control characters made visible (terminalText.ts); JSON
 * and YAML stay the exact data, every control character escaped the format's way.
 */
import { stringify } from "yaml";
import { escapedForSerialized, shownLine } from "../util/terminalText";

/** The formats `--output` takes (commander refuses any other). */
export const OUTPUT_FORMATS = ["table", "wide", "json", "yaml", "name"] as const;
/** One of them. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Whether `format` prints a table (`table`, `wide`): hints for people go beside tables only. */
export const isTable = (format: OutputFormat): boolean => format === "table" || format === "wide";

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
  /** The columns of `wide`; none: the table's. */
  readonly wideColumns?: readonly Column<Row>[];
  /** What JSON and YAML print (an object, or a list object). */
  readonly document: unknown;
  /** What `name` prints, one per line (`tenant/<name>`). */
  readonly names: readonly string[];
}

/** `printable` in `format`. */
export function formatted<Row>(printable: Printable<Row>, format: OutputFormat): string {
  if (format === "json") return jsonText(printable.document);
  if (format === "yaml") return yamlText(printable.document);
  if (format === "name") return printable.names.map((name) => `${shownLine(name)}\n`).join("");
  if (format === "wide") return table(printable.rows, printable.wideColumns ?? printable.columns);
  return table(printable.rows, printable.columns);
}

/** `document` as JSON, `\u`-escaping what JSON.stringify leaves raw (DEL, C1). */
const jsonText = (document: unknown): string =>
  escapedForSerialized(`${JSON.stringify(document, null, 2)}\n`, (code) => `\\u${code.toString(16).padStart(4, "0")}`);

/** `document` as YAML, `\x`-escaping what the yaml library leaves raw in its double quotes (DEL, C1). */
export const yamlText = (document: unknown): string =>
  escapedForSerialized(stringify(document), (code) => `\\x${code.toString(16)}`);

/** Rows as a table, columns padded to their widest cell; each cell one line, its control characters shown. */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
  const cells = [
    columns.map((c) => c.heading),
    ...rows.map((row) => columns.map((c) => shownLine(c.value(row) ?? "-"))),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return (
    cells
      .map((line) => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]))).join("  "))
      .join("\n") + "\n"
  );
}
