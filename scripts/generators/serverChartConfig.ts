/**
 * The chart's configuration file (the ConfigMap's `server.yaml`) as a named template of
 * `_helpers.tpl`: the text the component renders with the sentinels in, each sentinel replaced by
 * its value, and the platform's other configuration fields put in where the component puts them.
 *
 * For names and URLs the text is the component's to the byte (and so is the Deployment's
 * annotation, the file's SHA-256): such a string is written plainly, as the component's YAML
 * library writes it; any other is double-quoted, which reads back the same though the library may
 * have written it otherwise. The other fields are Helm's `toYaml` (keys sorted, Go's quoting): the
 * same configuration, not always the same text.
 */
import { type Document, isMap, isPair, isScalar, parseDocument, type Scalar, visit } from "yaml";
import { CONFIG_FILE_KEY } from "../../provider/serverInstall/serverPodLayout";
import {
  CHART_VALUES,
  type SentinelSet,
  isPlainRecord,
  sentinelSplit,
  setAt,
  valueExpression,
} from "./serverChartValues";

/** The named template of the configuration file's text. */
export const CONFIG_TEMPLATE = "kubespaces-server.config";
/** The named template that writes a string as the configuration's YAML writes it. */
export const YAML_STRING_TEMPLATE = "kubespaces-server.yamlString";

/** The values that are fields of the configuration, each path below `config`. */
const CONFIG_VALUES = CHART_VALUES.filter((value) => value.path[0] === "config");

/**
 * A string is written plainly when it starts with a letter, holds no YAML indicator, does not end
 * with ':' and is no boolean or null (which the YAML library would quote): always so for the
 * sentinels, and for most names and URLs. Anything else is JSON, which YAML reads as the same string.
 */
const YAML_STRING_HELPER = `{{- /* A string as the configuration's YAML writes it: plain when YAML reads it back the same, else double-quoted. */ -}}
{{- define "${YAML_STRING_TEMPLATE}" -}}
{{- $text := toString . -}}
{{- if and (regexMatch "^[A-Za-z]([-A-Za-z0-9._/:@]*[-A-Za-z0-9._/@])?$" $text) (not (has (lower $text) (list "true" "false" "null"))) -}}
{{- $text -}}
{{- else -}}
{{- toJson $text -}}
{{- end -}}
{{- end -}}`;

/** An edit of the rendered text: `[start, end)` replaced by `text`. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * `_helpers.tpl`: the configuration file's named template, made from `text` (the ConfigMap's file
 * as rendered with the sentinels of `set`), and the string helper it uses.
 */
export function configHelpers(text: string, set: SentinelSet, generatedBy: string): string {
  if (text.includes("{{")) throw new Error("the configuration file holds '{{', which a template would read as its own");
  const document = parseDocument(text);
  const edits = [...valueEdits(document, text, set), ...extraFieldEdits(document, text)];
  // From the end, so that each edit's offsets still hold; an insertion before a replacement that ends where it starts.
  edits.sort((a, b) => b.start - a.start || a.end - b.end);
  let body = text;
  for (const { start, end, text: replacement } of edits) body = body.slice(0, start) + replacement + body.slice(end);
  return `{{- /* ${generatedBy} */ -}}
${YAML_STRING_HELPER}

{{- /* The configuration file (the ConfigMap's ${CONFIG_FILE_KEY}): the component's, with the values and the config's other fields put in. */ -}}
{{- define "${CONFIG_TEMPLATE}" -}}
${body}{{ end -}}
`;
}

/**
 * The configuration's fields the installation writes itself (from other values, or fixed): every
 * field of the render that the given configuration did not hold. The chart's schema refuses them
 * in `config`, as the component's does.
 */
export function installationConfigPaths(text: string, set: SentinelSet): string[][] {
  const given: Record<string, unknown> = {};
  for (const value of CONFIG_VALUES) setAt(given, value.path.slice(1), value.sentinels[set]);
  const rendered = parseDocument(text).toJS() as Record<string, unknown>;
  const paths: string[][] = [];
  const walk = (at: Record<string, unknown>, givenAt: unknown, path: string[]) => {
    for (const [key, child] of Object.entries(at)) {
      const givenChild = isPlainRecord(givenAt) ? givenAt[key] : undefined;
      if (givenChild === undefined) paths.push([...path, key]);
      else if (isPlainRecord(child)) walk(child, givenChild, [...path, key]);
    }
  };
  walk(rendered, given, []);
  return paths;
}

/** Each scalar that holds a sentinel, replaced by its value's expression. */
function valueEdits(document: Document, text: string, set: SentinelSet): Edit[] {
  const edits: Edit[] = [];
  visit(document, {
    Pair(_, pair) {
      if (isScalar(pair.key) && holdsSentinel(String(pair.key.value), set))
        throw new Error(`the configuration file has a sentinel in the key ${String(pair.key.value)}`);
    },
    Scalar(_, scalar) {
      if (typeof scalar.value !== "string" || !holdsSentinel(scalar.value, set)) return;
      if (scalar.type !== "PLAIN") throw new Error(`the configuration file quotes the sentinel in ${scalar.value}`);
      const [start, end] = scalar.range!;
      edits.push({ start, end, text: scalarTemplate(scalar, text.slice(start, end), set) });
    },
  });
  return edits;
}

/**
 * A scalar with sentinels in: a whole string value goes through the string helper; integers
 * inside a string are written in place, as digits leave a plain string plain.
 */
function scalarTemplate(scalar: Scalar, source: string, set: SentinelSet): string {
  const whole = CHART_VALUES.find((value) => value.kind === "string" && value.sentinels[set] === scalar.value);
  if (whole) return `{{ include "${YAML_STRING_TEMPLATE}" ${valueExpression(whole)} }}`;
  const strings = CHART_VALUES.filter(
    (value) => value.kind === "string" && source.includes(String(value.sentinels[set])),
  );
  if (strings.length > 0) {
    const parts = sentinelSplit(source, strings, set).map((part) =>
      typeof part === "string" ? JSON.stringify(part) : `(toString ${valueExpression(part)})`,
    );
    return `{{ include "${YAML_STRING_TEMPLATE}" (print ${parts.join(" ")}) }}`;
  }
  const integers = CHART_VALUES.filter((value) => value.kind === "integer");
  return sentinelSplit(source, integers, set)
    .map((part) => (typeof part === "string" ? part : `{{ ${valueExpression(part)} | int }}`))
    .join("");
}

/**
 * The platform's other fields of each map the values are in (the file itself, `signIn`, `http`):
 * Helm's `toYaml` of the map without the values, right after the last of them, where the
 * component writes the fields it is given after those (JavaScript keeps a key's first place).
 */
function extraFieldEdits(document: Document, text: string): Edit[] {
  const givenKeys = new Map<string, string[]>();
  for (const value of CONFIG_VALUES) {
    const fieldPath = value.path.slice(1);
    for (let depth = 0; depth < fieldPath.length; depth++) {
      const mapPath = fieldPath.slice(0, depth).join(".");
      const keys = givenKeys.get(mapPath) ?? [];
      if (!keys.includes(fieldPath[depth])) keys.push(fieldPath[depth]);
      givenKeys.set(mapPath, keys);
    }
  }
  return [...givenKeys].map(([mapPath, keys]) => {
    const map = mapPath === "" ? document.contents : document.getIn(mapPath.split("."), true);
    if (!isMap(map)) throw new Error(`the configuration file has no map at '${mapPath}'`);
    const last = map.items.find((pair) => isPair(pair) && isScalar(pair.key) && pair.key.value === keys.at(-1));
    const lastValue = last?.value as { range?: [number, number, number] } | undefined;
    if (!last || !isScalar(last.key) || !lastValue?.range)
      throw new Error(`the configuration file has no '${keys.at(-1)}' in '${mapPath}'`);
    let at = lastValue.range[1];
    if (text[at - 1] === "\n") at -= 1;
    const keyStart = last.key.range![0];
    const column = keyStart - (text.lastIndexOf("\n", keyStart - 1) + 1);
    const map_ = valueExpression({ path: ["config", ...(mapPath ? mapPath.split(".") : [])] });
    const omitted = keys.map((key) => JSON.stringify(key)).join(" ");
    return {
      start: at,
      end: at,
      text: `{{- with omit ${map_} ${omitted} }}{{ toYaml . | nindent ${column} }}{{- end }}`,
    };
  });
}

function holdsSentinel(text: string, set: SentinelSet): boolean {
  return CHART_VALUES.some((value) => value.kind !== "object" && text.includes(String(value.sentinels[set])));
}
