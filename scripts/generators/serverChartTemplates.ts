/**
 * The chart's templates, made from the component's own render rather than written by hand, so that
 * whatever `serverInstallation` renders (a new object, a changed field) is in the chart once
 * `npm run generate` runs:
 *
 * - every object is rendered with each value at its sentinel (serverChartValues.ts), and each
 *   sentinel becomes its value's expression: a string `| quote`, an integer `| int`, an object
 *   `toYaml | nindent`; the configuration file becomes a named template (serverChartConfig.ts), and
 *   its SHA-256 on the Deployment that template's `sha256sum`;
 * - what leaving out an optional value takes away from the render goes under `if` that value, and
 *   what it changes (a default that stands in for it) under `if`/`else`, the `else` made the same
 *   way from the render without it;
 * - the whole is made twice, from two sets of sentinels, and must come out the same: a render that
 *   holds a value other than as given (computed from it), or a sentinel anywhere a template cannot
 *   put a value, stops the generator, naming it.
 */
import { isDeepStrictEqual } from "node:util";
import { Document } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { parseServerInstall, type ServerInstallInput } from "../../provider/serverInstall/serverInstallOptions";
import { CONFIG_FILE_KEY } from "../../provider/serverInstall/serverPodLayout";
import { configDigest } from "../../provider/serverInstall/serverWorkload";
import type { InstalledObject } from "../../provider/tenantResource/kubeObject";
import { COMPUTED_FIELDS } from "./serverChartComputed";
import { CONFIG_TEMPLATE, configHelpers, installationConfigPaths } from "./serverChartConfig";
import {
  CHART_VALUES,
  type ChartValue,
  isPlainRecord,
  NOT_CHART_VALUES,
  sentinelSplit,
  optionalExpression,
  optionalPaths,
  type SentinelSet,
  sentinelInput,
  setAt,
  startsWith,
  valueExpression,
} from "./serverChartValues";

/** What makes the objects from the options: the component's render, unless a test gives another. */
export type Render = (input: ServerInstallInput) => readonly InstalledObject[];

/** The chart's templates. */
export interface ChartTemplates {
  /** Each object's template, `templates/<role>.yaml`, in the render's order. */
  readonly files: readonly { readonly path: string; readonly content: string }[];
  /** `templates/_helpers.tpl`: the configuration file's named template. */
  readonly helpers: string;
  /** The configuration's fields the installation writes itself, which `config` may not hold. */
  readonly installationConfigPaths: readonly (readonly string[])[];
}

const componentRender: Render = (input) => serverInstallation(input).objects;

/** The templates of the objects `render` makes, each file headed by `generatedBy` (a comment). */
export function chartTemplates(generatedBy: string, render: Render = componentRender): ChartTemplates {
  refuseServerOptionsLeftOut(render);
  const [first, second] = ([0, 1] as const).map((set) => templatesFor(new Renders(set, render), generatedBy));
  const pairs = [
    ...first.files.map((file, index) => [file.path, file.content, second.files[index]?.content ?? ""] as const),
    ["templates/_helpers.tpl", first.helpers, second.helpers] as const,
  ];
  const differing = pairs.find(([, a, b]) => a !== b);
  if (differing || first.files.length !== second.files.length) {
    const [file, a, b] = differing ?? ["templates/", "", ""];
    const [linesA, linesB] = [a.split("\n"), b.split("\n")];
    const at = linesA.findIndex((line, index) => line !== linesB[index]);
    throw new Error(
      `the chart's templates differ between the two sets of sentinels, in ${file} line ${at + 1} ` +
        `(${JSON.stringify(linesA[at])} and ${JSON.stringify(linesB[at])}): the render holds a value other ` +
        "than as it was given (computed from it), which a template cannot reproduce",
    );
  }
  return first;
}

/** Stops at an option the chart leaves out (NOT_CHART_VALUES) that changes the server's objects after all. */
function refuseServerOptionsLeftOut(render: Render): void {
  const objects = render(sentinelInput(0));
  for (const [path, { sample }] of Object.entries(NOT_CHART_VALUES)) {
    if (sample === undefined) continue;
    const input = setAt(
      structuredClone(sentinelInput(0)) as unknown as Record<string, unknown>,
      path.split("."),
      sample,
    );
    if (!isDeepStrictEqual(render(input as unknown as ServerInstallInput), objects))
      throw new Error(`${path} changes the server's objects, so the chart must have it: move it to CHART_VALUES`);
  }
}

/** A value's expression in a template, and how it is written. */
class Expression {
  constructor(
    readonly text: string,
    /** `inline`: `{{ text }}` in place; `yaml`: an object, below its key; `block`: a text, as a `|` block. */
    readonly form: "inline" | "yaml" | "block",
  ) {}
}

/** A field that is there only when `condition` holds. */
class Conditional {
  constructor(
    readonly condition: string,
    readonly value: unknown,
  ) {}
}

/** A field whose value is `value` when `condition` holds, else `otherwise`. */
class Switch {
  constructor(
    readonly condition: string,
    readonly value: unknown,
    readonly otherwise: unknown,
  ) {}
}

/** What leaving out an optional value does to a part of the render: takes it away, or changes it. */
interface Mark {
  readonly condition: string;
  /** Whether it changes the part rather than taking it away; then `otherwise` is the part without the value. */
  readonly changed: boolean;
  readonly otherwise?: unknown;
}

/** The renders of one set of sentinels, each with some optional values left out, made once each. */
class Renders {
  private readonly objects = new Map<string, readonly InstalledObject[]>();
  private readonly marks = new Map<string, ReadonlyMap<string, Mark>>();
  readonly configText: string;
  readonly digest: string;

  constructor(
    readonly set: SentinelSet,
    private readonly render: Render,
  ) {
    this.configText = configTextOf(this.with([]));
    this.digest = configDigest(this.configText);
  }

  /** Whether `part` is an object value's sentinel, which a template writes whole. */
  isObjectValue(part: unknown): boolean {
    return objectValueOf(part, this.set) !== undefined;
  }

  /** The objects with the optional paths `absent` left out, each computed field in them its template's. */
  with(absent: readonly (readonly string[])[]): readonly InstalledObject[] {
    const key = JSON.stringify(absent);
    let objects = this.objects.get(key);
    if (!objects) {
      const input = sentinelInput(this.set, absent);
      objects = withComputedFields(this.render(input), input, absent.length === 0);
      this.objects.set(key, objects);
    }
    return objects;
  }

  /**
   * What leaving out each further optional value does to the render without `absent`, by the path
   * of the part (its role first): a part taken away is marked with its condition, a part changed
   * with its condition and, for `else`, the part templated from the render without that value too.
   */
  marksWithout(absent: readonly (readonly string[])[]): ReadonlyMap<string, Mark> {
    const key = JSON.stringify(absent);
    const known = this.marks.get(key);
    if (known) return known;
    const objects = this.with(absent);
    const marks = new Map<string, Mark>();
    for (const optional of optionalPaths()) {
      if (absent.some((path) => startsWith(optional, path))) continue;
      const further = [...absent, optional];
      const without = this.with(further);
      if (configTextOf(without) !== this.configText)
        throw new Error(`leaving out ${optional.join(".")} changes the configuration file, which the chart cannot say`);
      for (const { path, changed } of differences(objects, without, optional, (part) => this.isObjectValue(part))) {
        if (marks.has(JSON.stringify(path))) throw new Error(`two optional values change ${path.join(".")}`);
        const condition = optionalExpression(optional);
        marks.set(
          JSON.stringify(path),
          changed
            ? { condition, changed, otherwise: templated(partAt(without, path), path, this, further) }
            : { condition, changed },
        );
      }
    }
    this.marks.set(key, marks);
    return marks;
  }
}

function templatesFor(renders: Renders, generatedBy: string): ChartTemplates {
  const marks = renders.marksWithout([]);
  const files = renders.with([]).map(({ role, object }) => {
    const body = yamlTemplate(templated(object, [role], renders, []));
    const mark = marks.get(JSON.stringify([role]));
    if (mark?.changed) throw new Error(`leaving out a value changes the whole ${role}`);
    const content = mark ? `{{- if ${mark.condition} }}\n${body}{{- end }}\n` : body;
    const file = { path: `templates/${role}.yaml`, content: `# ${generatedBy}\n${content}` };
    refuseLeftSentinels(file.path, file.content, renders.set);
    return file;
  });
  const helpers = [
    configHelpers(renders.configText, renders.set, generatedBy),
    ...COMPUTED_FIELDS.map((field) => `${field.definition}\n`),
  ].join("\n");
  return { files, helpers, installationConfigPaths: installationConfigPaths(renders.configText, renders.set) };
}

/**
 * `objects` with each computed field (serverChartComputed.ts) replaced by its template: found by
 * its value for `input`, in exactly one place (or none, unless `mustHave`: an optional value left out
 * may take its object away).
 */
function withComputedFields(
  objects: readonly InstalledObject[],
  input: ServerInstallInput,
  mustHave: boolean,
): readonly InstalledObject[] {
  const parsed = parseServerInstall(input);
  if (parsed.problems) throw new Error(`the sentinels' options do not parse: ${JSON.stringify(parsed.problems)}`);
  let result = objects;
  for (const field of COMPUTED_FIELDS) {
    const value = field.value(parsed.options);
    const found: string[][] = [];
    const find = (node: unknown, at: string[]) => {
      if (isDeepStrictEqual(node, value)) found.push(at);
      else if (Array.isArray(node) || isPlainRecord(node))
        for (const [key, child] of Object.entries(node)) find(child, [...at, key]);
    };
    for (const { role, object } of result) find(object, [role]);
    if (found.length > 1 || (found.length === 0 && mustHave))
      throw new Error(`the render holds what ${field.template} writes in ${found.length} places, not one`);
    if (found.length === 1)
      result = replacedAt(result, found[0], new Expression(`include "${field.template}" .`, "yaml"));
  }
  return result;
}

/** `objects` with the part at `path` (its role first) replaced by `value`, the rest shared. */
function replacedAt(objects: readonly InstalledObject[], [role, ...path]: readonly string[], value: unknown) {
  const replaced = (node: unknown, [key, ...rest]: readonly string[]): unknown => {
    if (key === undefined) return value;
    const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [...node] : { ...(node as object) };
    (copy as Record<string, unknown>)[key] = replaced((node as Record<string, unknown>)[key], rest);
    return copy;
  };
  return objects.map((installed) =>
    installed.role === role
      ? { ...installed, object: replaced(installed.object, path) as InstalledObject["object"] }
      : installed,
  );
}

/** The ConfigMap's configuration file in the render. */
function configTextOf(objects: readonly InstalledObject[]): string {
  const texts = objects.flatMap(({ object }) => {
    const data = object.kind === "ConfigMap" ? (object as { data?: Record<string, unknown> }).data : undefined;
    return typeof data?.[CONFIG_FILE_KEY] === "string" ? [data[CONFIG_FILE_KEY] as string] : [];
  });
  if (texts.length !== 1) throw new Error(`the render has ${texts.length} ConfigMaps with ${CONFIG_FILE_KEY}, not one`);
  return texts[0];
}

/** The part of the render at `path` (its role first). */
function partAt(objects: readonly InstalledObject[], [role, ...path]: readonly string[]): unknown {
  const object = objects.find((installed) => installed.role === role)?.object;
  return path.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], object);
}

/**
 * Where `without` (rendered with `optional` left out) differs from `full`: whole objects (by role)
 * and fields it does not have, and parts it changes (a map left empty counts as changed: `if` around
 * each of its fields would leave it null, not empty).
 */
function differences(
  full: readonly InstalledObject[],
  without: readonly InstalledObject[],
  optional: readonly string[],
  whole: (part: unknown) => boolean,
): { readonly path: string[]; readonly changed: boolean }[] {
  const left = new Map(without.map(({ role, object }) => [role, object]));
  for (const role of left.keys())
    if (!full.some((installed) => installed.role === role))
      throw new Error(`leaving out ${optional.join(".")} adds ${role}, which the chart cannot say`);
  const compare = (a: unknown, b: unknown, at: string[]): { path: string[]; changed: boolean }[] => {
    if (whole(a)) return isDeepStrictEqual(a, b) ? [] : [{ path: at, changed: true }];
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length)
      return a.flatMap((item, index) => compare(item, b[index], [...at, String(index)]));
    if (isPlainRecord(a) && isPlainRecord(b)) {
      const onlyTaken = Object.keys(b).every((key) => key in a);
      const emptied = Object.keys(b).length === 0 && Object.keys(a).length > 0;
      if (onlyTaken && !emptied)
        return Object.keys(a).flatMap((key) =>
          key in b ? compare(a[key], b[key], [...at, key]) : [{ path: [...at, key], changed: false }],
        );
    }
    return isDeepStrictEqual(a, b) ? [] : [{ path: at, changed: true }];
  };
  return full.flatMap(({ role, object }) =>
    left.has(role) ? compare(object, left.get(role), [role]) : [{ path: [role], changed: false }],
  );
}

/**
 * `value` (at `path`, in the render without `absent`) with each sentinel replaced by its
 * expression, and what an optional value takes away or changes marked.
 */
function templated(
  value: unknown,
  path: readonly string[],
  renders: Renders,
  absent: readonly (readonly string[])[],
): unknown {
  if (value instanceof Expression) return value;
  const { set } = renders;
  const object = objectValueOf(value, set);
  if (object) {
    const inside = [...renders.marksWithout(absent).keys()].find((key) => {
      const marked = JSON.parse(key) as string[];
      return marked.length > path.length && startsWith(marked, path);
    });
    if (inside)
      throw new Error(`an optional value changes ${JSON.parse(inside).join(".")}, inside ${object.path.join(".")}`);
    return new Expression(`toYaml ${valueExpression(object)}`, "yaml");
  }
  if (typeof value === "string") return stringTemplate(value, renders);
  if (typeof value === "number") {
    const integer = CHART_VALUES.find(
      (chartValue) => chartValue.kind === "integer" && chartValue.sentinels[set] === value,
    );
    return integer ? new Expression(`${valueExpression(integer)} | int`, "inline") : value;
  }
  if (!Array.isArray(value) && !isPlainRecord(value)) return value;
  const marks = renders.marksWithout(absent);
  const child = (key: string, item: unknown) => {
    const at = [...path, key];
    const inner = templated(item, at, renders, absent);
    const mark = marks.get(JSON.stringify(at));
    if (!mark) return inner;
    if (mark.changed) return new Switch(mark.condition, inner, mark.otherwise);
    if (Array.isArray(value))
      throw new Error(`an optional value takes away an item of ${path.join(".")}, which the chart cannot say`);
    return new Conditional(mark.condition, inner);
  };
  if (Array.isArray(value)) return value.map((item, index) => child(String(index), item));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (sentinelIn(key, set)) throw new Error(`the render has a sentinel in the key ${[...path, key].join(".")}`);
      return [key, child(key, item)];
    }),
  );
}

/** The object value whose sentinel `part` is, if any. */
function objectValueOf(part: unknown, set: SentinelSet): ChartValue | undefined {
  return CHART_VALUES.find((value) => value.kind === "object" && isDeepStrictEqual(part, value.sentinels[set]));
}

/** A string of the render: the configuration file, its digest, a value, or text with values in. */
function stringTemplate(text: string, renders: Renders): unknown {
  if (text === renders.configText) return new Expression(`include "${CONFIG_TEMPLATE}" .`, "block");
  if (text === renders.digest) return new Expression(`include "${CONFIG_TEMPLATE}" . | sha256sum | quote`, "inline");
  const parts = sentinelParts(text, renders.set);
  if (parts.length === 1 && typeof parts[0] !== "string" && parts[0].kind === "string")
    return new Expression(`${valueExpression(parts[0])} | quote`, "inline");
  if (parts.every((part) => typeof part === "string")) return text;
  const printed = parts.map((part) =>
    typeof part === "string"
      ? JSON.stringify(part)
      : `(${valueExpression(part)}${part.kind === "integer" ? " | int" : ""})`,
  );
  return new Expression(`print ${printed.join(" ")} | quote`, "inline");
}

/** `text` cut into its literal parts and the (string or integer) values whose sentinels it holds. */
function sentinelParts(text: string, set: SentinelSet): (string | ChartValue)[] {
  const scalars = CHART_VALUES.filter((value) => value.kind === "string" || value.kind === "integer");
  return sentinelSplit(text, scalars, set);
}

/** Every sentinel of `set` written as text: the scalars', and each field of an object's. */
function sentinelTexts(set: SentinelSet): string[] {
  const leaves = (value: unknown): string[] =>
    isPlainRecord(value) || Array.isArray(value)
      ? Object.values(value).flatMap(leaves)
      : typeof value === "boolean"
        ? []
        : [String(value)];
  return CHART_VALUES.flatMap((value) => leaves(value.sentinels[set]));
}

function sentinelIn(text: string, set: SentinelSet): boolean {
  return sentinelTexts(set).some((sentinel) => text.includes(sentinel));
}

/** A sentinel left in a template is a value put where no expression reads it: stop. */
function refuseLeftSentinels(file: string, content: string, set: SentinelSet): void {
  const left = sentinelTexts(set).find((sentinel) => content.includes(sentinel));
  if (left !== undefined)
    throw new Error(`${file} still holds the sentinel ${left}: the chart cannot put its value there`);
}

/**
 * The template's YAML: the object written as deploy/server/server.yaml writes it, with a token for
 * each expression, switch and optional field, then the tokens turned into template actions. An
 * optional field's `if` and `end` stand at its key's indentation, around its lines; a switch's
 * branches below its key, at its value's indentation.
 */
function yamlTemplate(value: unknown): string {
  const marks: (Expression | Conditional | Switch)[] = [];
  const tokenized = (node: unknown): unknown => {
    if (node instanceof Expression || node instanceof Switch) return `KSCHART_${marks.push(node) - 1}_VALUE`;
    if (Array.isArray(node)) return node.map(tokenized);
    if (isPlainRecord(node))
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) =>
          child instanceof Conditional
            ? [`KSCHART_${marks.push(child) - 1}_IF_${key}`, tokenized(child.value)]
            : [key, tokenized(child)],
        ),
      );
    return node;
  };
  const text = new Document(tokenized(value), { aliasDuplicateObjects: false }).toString({ lineWidth: 0 });
  const lines: string[] = [];
  const open: number[] = [];
  const indentOf = (line: string) => line.length - line.trimStart().length;
  const close = (above: number) => {
    while (open.length > 0 && open[open.length - 1] >= above) lines.push(`${" ".repeat(open.pop()!)}{{- end }}`);
  };
  for (const raw of text.replace(/\n$/, "").split("\n")) {
    close(indentOf(raw) === raw.length ? Infinity : indentOf(raw));
    let line = raw;
    const optional = /^(\s*)(- )?KSCHART_(\d+)_IF_(.*)$/.exec(line);
    if (optional) {
      if (optional[2]) throw new Error("an optional field is the first of a list item, which the chart cannot say");
      lines.push(`${optional[1]}{{- if ${(marks[Number(optional[3])] as Conditional).condition} }}`);
      open.push(optional[1].length);
      line = `${optional[1]}${optional[4]}`;
    }
    const below = /^(\s*)(\S.*): KSCHART_(\d+)_VALUE$/.exec(line);
    const mark = below && marks[Number(below[3])];
    if (below && !(mark instanceof Expression && mark.form === "inline")) {
      const indent = below[1].length + (below[2].startsWith("- ") ? 4 : 2);
      const block = mark instanceof Expression && mark.form === "block";
      lines.push(`${below[1]}${below[2]}:${block ? " |" : ""}`);
      lines.push(...branchLines(mark, indent));
      continue;
    }
    lines.push(
      line.replace(/KSCHART_(\d+)_VALUE/g, (token, index: string) => {
        const inline = marks[Number(index)];
        if (!(inline instanceof Expression && inline.form === "inline"))
          throw new Error(`${token} is an object, a text or a switch where only a scalar fits (a list item)`);
        return `{{ ${inline.text} }}`;
      }),
    );
  }
  close(0);
  return `${lines.join("\n")}\n`;
}

/** The lines of a field's value below its key, at `indent`: an expression, a switch's branches, or YAML. */
function branchLines(node: unknown, indent: number): string[] {
  const pad = " ".repeat(indent);
  if (node instanceof Expression)
    return [node.form === "inline" ? `${pad}{{ ${node.text} }}` : `${pad}{{- ${node.text} | nindent ${indent} }}`];
  if (node instanceof Switch)
    return [
      `${pad}{{- if ${node.condition} }}`,
      ...branchLines(node.value, indent),
      `${pad}{{- else }}`,
      ...branchLines(node.otherwise, indent),
      `${pad}{{- end }}`,
    ];
  return yamlTemplate(node)
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => `${pad}${line}`);
}
