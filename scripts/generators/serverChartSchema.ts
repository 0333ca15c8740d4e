/**
 * The chart's values.schema.json, which Helm checks the values against before it renders: the JSON
 * Schema zod makes of the component's options, cut down to the chart's values, with `config` the
 * server's own configuration schema less the fields the installation writes, and the values the
 * platform must set required. Rules JSON Schema cannot hold (refinements: no file:// backend, no
 * password in its URL, the policy's own rules) are not in it: the component checks them, the chart
 * does not.
 */
import { z } from "zod";
import { serverConfigSchema } from "../../provider/server/serverConfig";
import { serverInstallSchema } from "../../provider/serverInstall/serverInstallOptions";
import { CHART_VALUES, isPlainRecord, NOT_CHART_VALUES, OPTIONAL_GROUPS } from "./serverChartValues";

/** The parts of JSON Schema zod emits that are read here. */
interface SchemaNode {
  [keyword: string]: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  anyOf?: SchemaNode[];
}

/** What of a node's properties to keep: a key's subtree, or `true` for all of it. */
type Kept = Map<string, Kept | true>;

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-07" }) as SchemaNode;

/** values.schema.json's content, refusing in `config` each of `installationConfigPaths`. */
export function chartValuesSchema(installationConfigPaths: readonly (readonly string[])[]): SchemaNode {
  const kept: Kept = new Map();
  for (const value of CHART_VALUES) if (!value.source) keep(kept, value.path);
  for (const group of OPTIONAL_GROUPS) keep(kept, group);
  kept.set("config", true);
  const schema = restricted(jsonSchemaOf(serverInstallSchema), kept, []);
  schema.properties!.config = configSchema(installationConfigPaths);
  for (const value of CHART_VALUES.filter((chartValue) => chartValue.required)) requirePath(schema, value.path);
  return schema;
}

/** The configuration file's schema, without the fields the installation writes. */
function configSchema(installationConfigPaths: readonly (readonly string[])[]): SchemaNode {
  const { $schema: _dialect, ...schema } = jsonSchemaOf(serverConfigSchema);
  for (const path of installationConfigPaths) {
    const parent = nodeAt(schema, path.slice(0, -1));
    const key = path[path.length - 1];
    if (!parent?.properties?.[key]) throw new Error(`the configuration's schema has no ${path.join(".")}`);
    delete parent.properties[key];
    if (parent.required) parent.required = parent.required.filter((name) => name !== key);
  }
  return {
    ...schema,
    description:
      "The server's configuration file (docs/self-service.md), without what the chart writes itself: namespace, adminGroup, where it listens and the Secret's files.",
  };
}

/** `path` kept in `kept` (all of it, below its end). */
function keep(kept: Kept, path: readonly string[]): void {
  let at = kept;
  for (const [index, key] of path.entries()) {
    const next = at.get(key);
    if (next === true) return;
    if (index === path.length - 1) {
      at.set(key, true);
      return;
    }
    const inner: Kept = next ?? new Map();
    at.set(key, inner);
    at = inner;
  }
}

/**
 * `node` (at `at`) with only the properties in `kept`. Of a union (the server's identity: a
 * ServiceAccount or a user) it keeps the one branch that has the kept properties. Every option it
 * drops must be one the chart leaves out on purpose (NOT_CHART_VALUES), so that an option added to
 * the component is decided on rather than missing from the chart unseen.
 */
function restricted(node: SchemaNode, kept: Kept, at: readonly string[]): SchemaNode {
  if (node.anyOf) {
    const branches = node.anyOf.filter((branch) => [...kept.keys()].every((key) => branch.properties?.[key]));
    if (branches.length !== 1) throw new Error(`no one branch of a union holds ${[...kept.keys()].join(", ")}`);
    for (const other of node.anyOf.filter((branch) => branch !== branches[0])) refuseUndecided(other, new Map(), at);
    const { anyOf: _union, ...rest } = node;
    return restricted({ ...rest, ...branches[0] }, kept, at);
  }
  refuseUndecided(node, kept, at);
  const properties = Object.fromEntries(
    [...kept].map(([key, inner]) => {
      const property = node.properties?.[key];
      if (!property) throw new Error(`the options' schema has no ${[...at, key].join(".")}`);
      return [key, inner === true ? property : restricted(property, inner, [...at, key])];
    }),
  );
  const required = (node.required ?? []).filter((key) => kept.has(key));
  const { required: _required, ...rest } = node;
  return { ...rest, properties, ...(required.length > 0 && { required }) };
}

/** Stops at a property of `node` (at `at`) that is neither kept nor left out on purpose. */
function refuseUndecided(node: SchemaNode, kept: Kept, at: readonly string[]): void {
  for (const key of Object.keys(node.properties ?? {})) {
    const path = [...at, key].join(".");
    if (kept.has(key) || path in NOT_CHART_VALUES) continue;
    if (CHART_VALUES.some((value) => value.source && value.path.join(".") === path)) continue;
    throw new Error(
      `${path} is an option of KubespacesServer that is neither a value of the chart (CHART_VALUES) nor left ` +
        "out on purpose (NOT_CHART_VALUES), in scripts/generators/serverChartValues.ts: decide which",
    );
  }
}

/** `path` required, with every map on the way to it. */
function requirePath(schema: SchemaNode, path: readonly string[]): void {
  let at = schema;
  for (const key of path) {
    at.required = [...new Set([...(at.required ?? []), key])];
    at = at.properties?.[key] as SchemaNode;
    if (!isPlainRecord(at)) throw new Error(`the chart's schema has no ${path.join(".")}`);
  }
}

function nodeAt(schema: SchemaNode, path: readonly string[]): SchemaNode | undefined {
  return path.reduce<SchemaNode | undefined>((at, key) => at?.properties?.[key], schema);
}
