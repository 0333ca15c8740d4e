/**
 * Text that someone else wrote, made safe to print on a terminal. A tenant's status, its events,
 * a server's error or an identity provider's answer can carry characters a terminal acts on
 * instead of showing: ESC starts sequences that set the clipboard (OSC 52), the window's title or
 * clear the screen, C1 controls such as U+009B (CSI) do the same without ESC, and BEL, backspace
 * or a carriage return change what the line seems to say. Each such character is shown as its
 * escape (`\x1b`, `\x9b`), so what follows it is inert text, and the person sees that it was
 * there. The command's printing and formatting functions pass every such text through here.
 */

/** The characters a terminal acts on: the C0 controls, DEL and the C1 controls (U+0080 to U+009F). */
// eslint-disable-next-line no-control-regex -- these are the characters to find
const TERMINAL_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/** DEL and the C1 controls: JSON.stringify and the yaml library leave these unescaped inside a string's quotes. */
const UNESCAPED_BY_SERIALIZERS = /[\u007f-\u009f]/g;

/** The escapes people know, for the controls they are likely to meet. */
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\t": "\\t", "\r": "\\r" };

/** A control character as text: `\n`, `\t`, `\r`, else `\xNN`. */
const visible = (char: string): string => NAMED[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** `text` for a terminal, its line breaks and tabs kept (a message of several lines). */
export function shownText(text: string): string {
  return text.replace(TERMINAL_CONTROLS, (char) => (char === "\n" || char === "\t" ? char : visible(char)));
}

/** `text` for a terminal as one line (a table cell, a status line): line breaks and tabs shown as escapes too. */
export function shownLine(text: string): string {
  return text.replace(TERMINAL_CONTROLS, visible);
}

/**
 * Serialized data (JSON, YAML) with DEL and the C1 controls escaped as the format's own escape
 * (`\u009b` in JSON, `\x9b` in YAML), so that it parses to the same data and reaches a terminal
 * inert. Serializers escape the C0 controls themselves; these are left raw, and they can only be
 * inside a quoted string there (the yaml library double-quotes every string that holds one).
 */
export function escapedForSerialized(text: string, escape: (code: number) => string): string {
  return text.replace(UNESCAPED_BY_SERIALIZERS, (char) => escape(char.charCodeAt(0)));
}
