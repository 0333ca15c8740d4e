/**
 * Edits of a kubeconfig file's text that change only the bytes they must. The `yaml` package's
 * Document API finds each entry and where it sits in the text; an edit replaces, removes or appends
 * whole entries and sets top-level scalars, and every other byte is copied as it was: comments,
 * quoting, `0123`-like tokens that a parse and re-stringify would rewrite as numbers, the file's
 * own indentation. The edited text is parsed again and must mean what the edit says, or nothing is
 * written.
 */
import { isDeepStrictEqual } from "node:util";
import { isMap, isScalar, isSeq, parseDocument, stringify, type Node, type Pair, type YAMLMap } from "yaml";
import { isPlainObject } from "../util/plainObject";
import { redactedParseError } from "../util/redactedErrors";
import { ProblemError } from "../util/problemError";

/** A named entry of a kubeconfig list (cluster, user, context). */
export interface Named {
  /** The entry's name, which contexts refer to. */
  readonly name: string;
  /** The entry's body (`cluster`, `user` or `context`) and anything else it holds. */
  readonly [field: string]: unknown;
}

/** A kubeconfig file's contents, as far as merging reads them. */
export interface KubeconfigDocument {
  /** `v1`. */
  apiVersion?: string;
  /** `Config`. */
  kind?: string;
  /** The API servers, by name. */
  clusters?: Named[];
  /** The credentials, by name. */
  users?: Named[];
  /** The pairs of a cluster and a user (and a namespace), by name. */
  contexts?: Named[];
  /** The context kubectl uses when none is named. */
  "current-context"?: string;
  /** Anything else (`preferences`, `extensions`), kept as it is. */
  [field: string]: unknown;
}

/** The three lists of a kubeconfig, each with the field that holds an entry's body. */
export const KUBECONFIG_LISTS = { clusters: "cluster", users: "user", contexts: "context" } as const;

/** One of the three lists. */
export type ListKey = keyof typeof KUBECONFIG_LISTS;

/** A kubeconfig's text with its parsed document, ready for edits that keep the bytes they do not change. */
export interface KubeconfigText {
  /** The file's text. */
  readonly text: string;
  /** What the text means. */
  readonly value: KubeconfigDocument;
  /** The top-level mapping; undefined for a file with no content (empty, comments only, `null`). */
  readonly root?: YAMLMap;
  /** The node to replace when there is no mapping (a top-level `null`). */
  readonly nullRoot?: Node;
  /** How to name the file in messages. */
  readonly what: string;
}

/** What to do to one list; indexes are positions in the list as it is now. */
export interface ListEdit {
  /** Entries replaced in place by new ones. */
  readonly replace?: ReadonlyMap<number, Named>;
  /** Entries removed. */
  readonly remove?: ReadonlySet<number>;
  /** Entries added at the end. */
  readonly append?: readonly Named[];
}

/** An edit of a kubeconfig. */
export interface KubeconfigEdit {
  /** Changes to the lists. */
  readonly lists?: Partial<Record<ListKey, ListEdit>>;
  /** Top-level string fields to set (`current-context`, `apiVersion`, `kind`). */
  readonly scalars?: Readonly<Record<string, string>>;
}

/** Parses a kubeconfig's text (errors do not quote it: it holds credentials). */
export function parseKubeconfigText(text: string, what: string): KubeconfigText {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw redactedParseError(what, doc.errors[0]);
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { text, value: {}, what, nullRoot: doc.contents ?? undefined };
  if (!isPlainObject(value) || !isMap(doc.contents))
    throw new ProblemError(`${what} is not a kubeconfig (a YAML mapping); it was left as it is`, "invalid");
  for (const key of Object.keys(KUBECONFIG_LISTS)) {
    const list = value[key];
    if (list !== null && list !== undefined && !Array.isArray(list))
      throw new ProblemError(`${what}: ${key} is not a list; it was left as it is`, "invalid");
  }
  return { text, value: value as KubeconfigDocument, root: doc.contents, what };
}

/** What `value` becomes under `edit`: the meaning the edited text must have. */
export function editedValue(value: KubeconfigDocument, edit: KubeconfigEdit): KubeconfigDocument {
  const next: KubeconfigDocument = { ...value, ...edit.scalars };
  for (const [key, listEdit] of listEdits(edit)) {
    const current = Array.isArray(value[key]) ? (value[key] as Named[]) : [];
    const kept = current.flatMap((entry, index) =>
      listEdit.remove?.has(index) ? [] : [listEdit.replace?.get(index) ?? entry],
    );
    next[key] = [...kept, ...(listEdit.append ?? [])];
  }
  return next;
}

/** The edits that change something, by list. */
function listEdits(edit: KubeconfigEdit): [ListKey, ListEdit][] {
  return (Object.entries(edit.lists ?? {}) as [ListKey, ListEdit][]).filter(
    ([, e]) => (e.replace?.size ?? 0) + (e.remove?.size ?? 0) + (e.append?.length ?? 0) > 0,
  );
}

/**
 * The text of `parsed` with `edit` applied, every byte outside the edited entries and fields as it
 * was. Refuses (changing nothing) a layout it cannot edit in place so that it means the edit.
 */
export function editedText(parsed: KubeconfigText, edit: KubeconfigEdit): string {
  if (listEdits(edit).length === 0 && Object.keys(edit.scalars ?? {}).length === 0) return parsed.text;
  const text = parsed.root ? spliced(parsed.text, editSplices(parsed, parsed.root, edit)) : wholeNewText(parsed, edit);
  if (!means(text, editedValue(parsed.value, edit))) throw cannotEditInPlace(parsed.what);
  return text;
}

/** Whether `text` parses, and to `value`. */
function means(text: string, value: KubeconfigDocument): boolean {
  try {
    return isDeepStrictEqual(parseKubeconfigText(text, "the edited kubeconfig").value, value);
  } catch {
    return false;
  }
}

/** The refusal for a layout the edits do not handle: nothing is written. */
function cannotEditInPlace(what: string): ProblemError {
  return new ProblemError(
    `${what} is laid out in a way kubespaces cannot edit in place without changing other entries; it was left as it is (print the kubeconfig without --merge and merge it by hand)`,
    "failed",
  );
}

/** A file with no mapping yet: its comments kept, the whole kubeconfig written after them. */
function wholeNewText(parsed: KubeconfigText, edit: KubeconfigEdit): string {
  const body = stringify(editedValue(parsed.value, edit), { lineWidth: 0 });
  const node = parsed.nullRoot;
  if (node?.range) return spliced(parsed.text, [{ start: node.range[0], end: node.range[1], text: body.trimEnd() }]);
  const text = parsed.text;
  return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${body}`;
}

/** A change to a text: `[start, end)` replaced by `text`. */
interface Splice {
  /** Where the replaced text starts. */
  readonly start: number;
  /** Where it ends (`start` for an insertion). */
  readonly end: number;
  /** What goes there. */
  readonly text: string;
  /** `text` must start a line: a newline goes before it when the text before does not end one (a file without a final newline). */
  readonly ownLine?: boolean;
  /** A new top-level key: after any other edit at the same place (the last list's new entries belong to that list). */
  readonly newKey?: boolean;
}

/** `text` with the splices (which do not overlap) applied; insertions at one place keep their order. */
function spliced(text: string, splices: readonly Splice[]): string {
  const ordered = splices
    .map((splice, index) => ({ splice, index }))
    .sort(
      (a, b) =>
        a.splice.start - b.splice.start ||
        a.splice.end - b.splice.end ||
        Number(Boolean(a.splice.newKey)) - Number(Boolean(b.splice.newKey)) ||
        a.index - b.index,
    );
  let out = "";
  let at = 0;
  for (const { splice } of ordered) {
    out += text.slice(at, splice.start);
    if (splice.ownLine && out !== "" && !out.endsWith("\n")) out += "\n";
    out += splice.text;
    at = splice.end;
  }
  return out + text.slice(at);
}

/** The splices of `edit`: one set per edited list, one per scalar. */
function editSplices(parsed: KubeconfigText, root: YAMLMap, edit: KubeconfigEdit): Splice[] {
  const layout = layoutOf(parsed, root);
  const scalars = Object.entries(edit.scalars ?? {}).map(([key, value]) => scalarSplice(layout, key, value));
  return [...scalars, ...listEdits(edit).flatMap(([key, listEdit]) => listSplices(layout, key, listEdit))];
}

/** Where things are in the text, for the edits. */
interface Layout {
  /** The file's text. */
  readonly text: string;
  /** How to name the file in messages. */
  readonly what: string;
  /** The top-level mapping. */
  readonly root: YAMLMap;
  /** A JSON-like top level (`{...}`): what is written there is JSON. */
  readonly flow: boolean;
  /** The column of the top-level keys. */
  readonly indent: number;
}

/** Where things are in `parsed`, whose top level is `root`. */
function layoutOf({ text, what }: KubeconfigText, root: YAMLMap): Layout {
  const first = (root.items[0] as TopPair | undefined)?.key;
  return { text, what, root, flow: Boolean(root.flow), indent: first ? columnOf(text, rangeOf(first)[0]) : 0 };
}

/** A top-level key and its value as parsed from text. */
type TopPair = Pair<Node, Node | null>;

/** A list (sequence) node as the edits read it. */
interface ListNode {
  /** The entries. */
  readonly items: Node[];
  /** Written `[...]`. */
  readonly flow?: boolean;
  /** Where it is in the text. */
  readonly range?: [number, number, number] | null;
}

/** The top-level pair of `key`. */
function pairOf(root: YAMLMap, key: string): TopPair | undefined {
  return (root.items as TopPair[]).find((pair) => isScalar(pair.key) && pair.key.value === key);
}

/** The splices that edit one list, wherever and however it is written. */
function listSplices(layout: Layout, key: ListKey, edit: ListEdit): Splice[] {
  const pair = pairOf(layout.root, key);
  const value = pair?.value;
  if (isSeq(value))
    return value.flow
      ? [flowListSplice(layout.text, value as ListNode, edit)]
      : blockListSplices(layout, pair!, value as ListNode, edit);
  // No list yet (`key: null`, `key:`, or no key): only additions are possible.
  const entries = edit.append ?? [];
  const block = `\n${blockEntries(entries, layout.indent).trimEnd()}`;
  const json = JSON.stringify(entries);
  if (pair) return [valueSplice(layout, pair, layout.flow ? ` ${json}` : block)];
  return [newKeySplice(layout, key, layout.flow ? json : block)];
}

/** A `[...]` list rewritten: kept entries as their own text, new ones as JSON (valid in a flow list). */
function flowListSplice(text: string, list: ListNode, edit: ListEdit): Splice {
  const parts = list.items.flatMap((item, index) => {
    if (edit.remove?.has(index)) return [];
    const replacement = edit.replace?.get(index);
    const [start, end] = rangeOf(item);
    return [replacement ? JSON.stringify(replacement) : text.slice(start, end)];
  });
  parts.push(...(edit.append ?? []).map((entry) => JSON.stringify(entry)));
  const [start, end] = rangeOf(list as Node);
  return { start, end, text: `[${parts.join(", ")}]` };
}

/** A block list edited entry by entry; emptied, it becomes `[]` (with its lines removed, it would read as null). */
function blockListSplices(layout: Layout, pair: TopPair, list: ListNode, edit: ListEdit): Splice[] {
  const splices = list.items.flatMap((item, index) =>
    itemSplices(layout, item, edit.remove?.has(index), edit.replace?.get(index)),
  );
  const appended = edit.append ?? [];
  if (appended.length > 0) {
    const last = list.items[list.items.length - 1];
    const at = endOfLine(layout.text, rangeOf(last)[1]);
    const dashColumn = columnOf(layout.text, dashOf(layout, rangeOf(last)[0]));
    splices.push({ start: at, end: at, text: blockEntries(appended, dashColumn), ownLine: true });
  } else if (list.items.length === (edit.remove?.size ?? 0)) {
    const colon = colonAfter(layout.text, pair.key);
    splices.push({ start: colon, end: colon, text: " []" });
  }
  return splices;
}

/** The splices for one item of a block list: its lines removed, or its content replaced (its dash and the comments around it kept). */
function itemSplices(
  layout: Layout,
  item: Node,
  remove: boolean | undefined,
  replacement: Named | undefined,
): Splice[] {
  const [start, contentEnd] = rangeOf(item);
  if (remove)
    return [
      { start: lineStartOf(layout.text, dashOf(layout, start)), end: endOfLine(layout.text, contentEnd), text: "" },
    ];
  if (!replacement) return [];
  // An entry written as `{...}` stays on its line, as JSON; a block one is replaced by a block.
  const text =
    isMap(item) && item.flow
      ? JSON.stringify(replacement)
      : indentedAfterFirst(stringify(replacement, { lineWidth: 0 }), columnOf(layout.text, start));
  return [{ start, end: isMap(item) && item.flow ? contentEnd : endOfLine(layout.text, contentEnd), text }];
}

/** The splice that replaces the value of a top-level pair (nothing, `null`, `""`) by `replacement`, which starts with its separator. */
function valueSplice(layout: Layout, pair: TopPair, replacement: string): Splice {
  const colon = colonAfter(layout.text, pair.key);
  const end = pair.value?.range ? Math.max(pair.value.range[1], colon) : colon;
  return { start: colon, end, text: replacement };
}

/** The splice that adds `key` with `valueText` (which starts with its separator in a block) at the end of the top level. */
function newKeySplice(layout: Layout, key: string, valueText: string): Splice {
  const { text, root } = layout;
  const end = endOfLine(text, rangeOf(root as Node)[1]);
  if (layout.flow) {
    const close = text.lastIndexOf("}", rangeOf(root as Node)[1]);
    return {
      start: close,
      end: close,
      text: `${root.items.length > 0 ? ", " : ""}${JSON.stringify(key)}: ${valueText}`,
    };
  }
  return { start: end, end, text: `${" ".repeat(layout.indent)}${key}:${valueText}\n`, ownLine: true, newKey: true };
}

/** The splice that sets the top-level string `key` to `value`. */
function scalarSplice(layout: Layout, key: string, value: string): Splice {
  const written = layout.flow ? JSON.stringify(value) : stringify(value, { lineWidth: 0 }).trimEnd();
  const pair = pairOf(layout.root, key);
  if (!pair) return newKeySplice(layout, key, layout.flow ? written : ` ${written}`);
  return valueSplice(layout, pair, ` ${written}`);
}

/** `entries` as block list items, their dashes at `column`, each line ended. */
function blockEntries(entries: readonly Named[], column: number): string {
  const pad = " ".repeat(column);
  return stringify(entries, { lineWidth: 0 })
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}

/** `block` (a mapping, each line ended) with every line after the first indented to `column`. */
function indentedAfterFirst(block: string, column: number): string {
  const pad = " ".repeat(column);
  return block
    .split("\n")
    .map((line, index) => (index === 0 || line === "" ? line : pad + line))
    .join("\n");
}

/** A node's range, which every node parsed from text has. */
function rangeOf(node: Node): [number, number, number] {
  if (!node.range) throw new Error("a parsed YAML node has no range");
  return node.range;
}

/** The column of `offset` in `text`. */
function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** The offset of the line that holds `offset`. */
function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** `offset` if a line starts there, else the start of the next line (or the end of the text). */
function endOfLine(text: string, offset: number): number {
  if (offset === 0 || text[offset - 1] === "\n") return offset;
  const newline = text.indexOf("\n", offset);
  return newline === -1 ? text.length : newline + 1;
}

/** The `-` of the block list item whose content starts at `start`, on the same line. */
function dashOf(layout: Layout, start: number): number {
  let at = start - 1;
  while (at >= 0 && layout.text[at] === " ") at--;
  if (layout.text[at] !== "-") throw cannotEditInPlace(layout.what);
  return at;
}

/** The offset just after the `:` that follows a top-level key. */
function colonAfter(text: string, key: Node): number {
  return text.indexOf(":", rangeOf(key)[1]) + 1;
}
