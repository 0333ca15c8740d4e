/**
 * The Helm chart's values (deploy/chart/kubespaces-server/values.yaml): the KubespacesServer
 * component's options that a platform sets, at the same paths as in those options and with the
 * same defaults, so that one description (docs/self-service.md, ServerInstallInput) serves both.
 *
 * Each value carries two sentinels: the chart's templates are the component's own render with the
 * sentinels in, each then replaced by the value's template expression (serverChartTemplates.ts).
 * A sentinel is a value the options accept that nothing else of the render holds, in a form YAML
 * writes plainly; the second set catches a render that holds a value other than as it was given
 * (derived from it, say), which a template could not reproduce.
 */
import { isDeepStrictEqual } from "node:util";
import { parse, stringify } from "yaml";
import { parseServerInstall, type ServerInstallInput } from "../../provider/serverInstall/serverInstallOptions";
import { INSTALL_DEFAULTS } from "../../provider/tenantResource/installOptions";
import { SERVER_PLACEHOLDERS } from "./serverDeployFile";

/** What a value is, which decides how a template writes it. */
export type ChartValueKind = "string" | "integer" | "boolean" | "object";

/** One value of the chart. */
export interface ChartValue {
  /** Its path in the component's options; in values.yaml too, unless `source` says otherwise. */
  readonly path: readonly string[];
  /** What it is: a string, an integer, a boolean (known only by what it makes), or an object written whole. */
  readonly kind: ChartValueKind;
  /** The value in each of the two sentinel renders (a boolean's is `true`: only its absence can be told). */
  readonly sentinels: readonly [unknown, unknown];
  /** The platform must set it: there is no default (values.schema.json requires it). */
  readonly required?: true;
  /**
   * It may be left out: what it makes goes with it (rendered under `if`), or what the component
   * puts in its place stands there (under `if`/`else`).
   */
  readonly optional?: true;
  /** Where the templates read it when it is not a value: the chart's namespace is the release's. */
  readonly source?: string;
}

/**
 * Parts of the options that may be left out as a whole, besides the optional values: what they
 * make is rendered under `if`.
 */
export const OPTIONAL_GROUPS: readonly (readonly string[])[] = [["route"]];

/**
 * The chart's values, in the order the configuration's given keys are written (`signIn` before
 * `http`, as deploy/server/server.yaml has them). The config's other fields go in as given
 * (serverChartConfig.ts): only the two the platform must set are values of their own here.
 */
export const CHART_VALUES: readonly ChartValue[] = [
  { path: ["image"], kind: "string", required: true, sentinels: ["sentinel-image-a", "sentinel-image-b"] },
  // An enum: the sentinels are two of its members, told apart by the second render.
  { path: ["imagePullPolicy"], kind: "string", sentinels: ["Never", "Always"] },
  { path: ["replicas"], kind: "integer", sentinels: [40101, 40201] },
  {
    path: ["installation", "namespace"],
    kind: "string",
    // `helm install -n`: the chart's objects go where the release is, as Helm's users expect.
    source: ".Release.Namespace",
    sentinels: ["sentinel-namespace-a", "sentinel-namespace-b"],
  },
  {
    path: ["installation", "server", "serviceAccount"],
    kind: "string",
    sentinels: ["sentinel-service-account-a", "sentinel-service-account-b"],
  },
  { path: ["installation", "adminGroup"], kind: "string", sentinels: ["sentinel-admins-a", "sentinel-admins-b"] },
  {
    path: ["config", "signIn", "issuer"],
    kind: "string",
    required: true,
    sentinels: ["https://sentinel-issuer-a.example", "https://sentinel-issuer-b.example"],
  },
  {
    path: ["config", "http", "publicUrl"],
    kind: "string",
    // The component defaults it to https://<route.hostname>; the chart asks for it, route or not.
    required: true,
    sentinels: ["https://sentinel-public-a.example", "https://sentinel-public-b.example"],
  },
  {
    path: ["stateBackend", "url"],
    kind: "string",
    required: true,
    // Two schemes: a render that depended on the backend's kind would differ between the two.
    sentinels: ["s3://sentinel-backend-a", "postgres://sentinel-backend-b"],
  },
  {
    path: ["stateBackend", "credentialsSecret"],
    kind: "string",
    optional: true,
    sentinels: ["sentinel-credentials-a", "sentinel-credentials-b"],
  },
  { path: ["stateBackend", "credentialsSecretOptional"], kind: "boolean", optional: true, sentinels: [true, true] },
  { path: ["secretName"], kind: "string", sentinels: ["sentinel-secret-a", "sentinel-secret-b"] },
  { path: ["port"], kind: "integer", sentinels: [40102, 40202] },
  { path: ["servicePort"], kind: "integer", sentinels: [40103, 40203] },
  {
    path: ["route", "gateway", "name"],
    kind: "string",
    sentinels: ["sentinel-gateway-a", "sentinel-gateway-b"],
  },
  {
    path: ["route", "gateway", "namespace"],
    kind: "string",
    sentinels: ["sentinel-gateway-namespace-a", "sentinel-gateway-namespace-b"],
  },
  {
    path: ["route", "gateway", "sectionName"],
    kind: "string",
    optional: true,
    sentinels: ["sentinel-listener-a", "sentinel-listener-b"],
  },
  {
    path: ["route", "hostname"],
    kind: "string",
    sentinels: ["sentinel-host-a.example", "sentinel-host-b.example"],
  },
  {
    path: ["resources"],
    kind: "object",
    // Given, it stands whole in place of the default, as in the component: not in values.yaml,
    // where Helm would merge a partial one into the default.
    optional: true,
    sentinels: [
      { requests: { cpu: "40104m", memory: "40105Mi" }, limits: { cpu: "40106m", memory: "40107Mi" } },
      { requests: { cpu: "40204m", memory: "40205Mi" }, limits: { cpu: "40206m", memory: "40207Mi" } },
    ],
  },
  { path: ["terminationGracePeriodSeconds"], kind: "integer", sentinels: [40108, 40208] },
  // Its default is true: left out, it is false (sentinelInput).
  { path: ["networkPolicy", "enabled"], kind: "boolean", optional: true, sentinels: [true, true] },
  {
    path: ["networkPolicy", "httpFrom"],
    kind: "object",
    optional: true,
    sentinels: [[{ ipBlock: { cidr: "sentinel-http-from-a" } }], [{ ipBlock: { cidr: "sentinel-http-from-b" } }]],
  },
  {
    path: ["networkPolicy", "metricsFrom"],
    kind: "object",
    optional: true,
    sentinels: [[{ ipBlock: { cidr: "sentinel-metrics-from-a" } }], [{ ipBlock: { cidr: "sentinel-metrics-from-b" } }]],
  },
  // Read by the egress ports' own template (serverChartComputed.ts), not found by its sentinel.
  { path: ["networkPolicy", "egressPorts"], kind: "object", sentinels: [[40109], [40209]] },
];

/** An option of the component the chart leaves out, and why. */
export interface NotChartValue {
  /** Why it is not the chart's. */
  readonly why: string;
  /**
   * A value other than its default, with which the component must render the very same server
   * objects (serverChartTemplates.ts checks it); none for an option the component refuses here.
   */
  readonly sample?: unknown;
}

/**
 * The component's options that are not values of the chart: they shape the Tenant resource's
 * installation (deploy/*.yaml, TenantCrd), not the server's objects. An option in neither this list
 * nor the values stops the generator (serverChartSchema.ts), so that a new one is decided on.
 */
export const NOT_CHART_VALUES: Readonly<Record<string, NotChartValue>> = {
  "installation.createNamespace": {
    why: "deploy/rbac.yaml makes the namespace; the chart's is the release's",
    sample: false,
  },
  "installation.server.user": { why: "a pod runs as a ServiceAccount, never as a user: the component refuses it" },
  "installation.adminUsers": {
    why: "the admission policy's (deploy/admission.yaml)",
    sample: ["system:serviceaccount:flux-system:kustomize-controller"],
  },
  "installation.tenantNamespacePrefix": { why: "the RBAC's and the CRD's (deploy/)", sample: "teams-" },
  "installation.identityPrefixes": {
    why: "the admission policy's (deploy/admission.yaml): the prefixes it strips from a person's names",
    sample: { username: "oidc:", groups: "oidc:" },
  },
  "installation.gatewayNamespace": {
    why: "the RBAC's in the shared Gateway's namespace (deploy/gateway/)",
    sample: "gateways",
  },
};

/** Which of the two sentinel renders. */
export type SentinelSet = 0 | 1;

/** The template expression that reads `value`: `.Values.<path>`, or its `source`. */
export const valueExpression = (value: Pick<ChartValue, "path" | "source">): string =>
  value.source ?? `.Values.${value.path.join(".")}`;

/**
 * The template expression of an optional path (a value's or a group's), for its `if`: the value
 * itself, or for an object whether it is given at all (an empty one is given, as in the component).
 */
export function optionalExpression(path: readonly string[]): string {
  const value = CHART_VALUES.find((chartValue) => sameOptionalPath(chartValue.path, path)) ?? { path };
  if (!("kind" in value) || value.kind !== "object") return valueExpression(value);
  const parent = valueExpression({ path: path.slice(0, -1) }).replace(/\.$/, "");
  return `hasKey ${parent} ${JSON.stringify(path[path.length - 1])}`;
}

/** Every path that may be left out: the optional values and the optional groups. */
export function optionalPaths(): (readonly string[])[] {
  return [...OPTIONAL_GROUPS, ...CHART_VALUES.filter((value) => value.optional).map((value) => value.path)];
}

/**
 * The component's options with every value at its sentinel of `set`, leaving out the paths in
 * `absent` (a boolean left out is false: its default may be true).
 */
export function sentinelInput(set: SentinelSet, absent: readonly (readonly string[])[] = []): ServerInstallInput {
  const input: Record<string, unknown> = {};
  for (const value of CHART_VALUES) {
    const left = absent.some((path) => startsWith(value.path, path));
    if (left && value.kind !== "boolean") continue;
    setAt(input, value.path, left ? false : structuredClone(value.sentinels[set]));
  }
  return input as unknown as ServerInstallInput;
}

/**
 * The chart's values and the release's namespace for the component's options `input`: the same
 * options, less `installation.namespace`, which is the namespace Helm installs the release in.
 */
export function chartValuesOf(input: ServerInstallInput): { values: unknown; namespace: string } {
  const { installation: { namespace = INSTALL_DEFAULTS.namespace, ...installation } = {}, ...rest } = input;
  return { values: { ...rest, ...(Object.keys(installation).length > 0 && { installation }) }, namespace };
}

/**
 * values.yaml: the options' defaults at the values' paths (from the options' own schema), the
 * values the platform must set named in its header with the examples deploy/server/server.yaml
 * uses, and empty maps where those go, so that Helm's message for a missing one names it.
 */
export function chartValuesFile(generatedBy: string): string {
  const required = CHART_VALUES.filter((value) => value.required);
  const parsed = parseServerInstall(
    required.reduce((input, value) => setAt(input, value.path, value.sentinels[0]), {}) as ServerInstallInput,
  );
  if (parsed.problems) throw new Error(`the chart's required values do not parse: ${JSON.stringify(parsed.problems)}`);
  const defaults: Record<string, unknown> = {};
  const wholeDefaults: string[] = [];
  for (const value of CHART_VALUES) {
    if (value.required || value.source) continue;
    const given = valueAt(parsed.options, value.path);
    if (given === undefined) continue;
    if (value.kind === "object" && value.optional)
      wholeDefaults.push(
        `#   ${value.path.join(".")}: ${stringify(given, { collectionStyle: "flow", lineWidth: 0 }).trim()}`,
      );
    else setAt(defaults, value.path, given);
  }
  for (const value of required) {
    const parent = value.path.slice(0, -1);
    if (parent.length > 0 && valueAt(defaults, parent) === undefined) setAt(defaults, parent, {});
  }
  const examples: Record<string, string> = {
    image: `${SERVER_PLACEHOLDERS.imageRepository}:<version>   # built from deploy/image/Containerfile`,
    "stateBackend.url": `${SERVER_PLACEHOLDERS.stateBackend}   # a backend every replica shares: postgres://, s3://, gs://, azblob://`,
    "config.signIn.issuer": `${SERVER_PLACEHOLDERS.issuer}   # your OpenID Connect issuer`,
    "config.http.publicUrl": `${SERVER_PLACEHOLDERS.publicUrl}   # where people reach the server`,
  };
  const header = [
    generatedBy,
    "# The values are the KubespacesServer component's options, at the same paths and with the same defaults",
    "# (docs/self-service.md, Running the server in the host cluster); values.schema.json checks them.",
    "# The chart's namespace is the release's (helm install -n): the component's installation.namespace.",
    "# config is the server's configuration file without what the chart sets (namespace, adminGroup, where it",
    "# listens, the Secret's files): signIn and http as below, and any other field of it (platform, requireApproval, ...).",
    "# Required, no default:",
    ...required.map((value) => {
      const path = value.path.join(".");
      return `#   ${path}: ${examples[path] ?? ""}`.trimEnd();
    }),
    ...(wholeDefaults.length > 0
      ? [
          "# Unset, these have the component's default; given, a value stands whole in its place (Helm merges no default into it):",
          ...wholeDefaults,
        ]
      : []),
  ];
  const text = `${header.join("\n")}\n${stringify(defaults, { lineWidth: 0 })}`;
  // The header's comments hold YAML of their own: a line of it outside a comment would change the values.
  if (!isDeepStrictEqual(parse(text), defaults)) throw new Error("values.yaml does not read back as its defaults");
  return text;
}

function sameOptionalPath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && startsWith(a, b);
}

/** Whether `path` is `prefix` or below it. */
export function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((key, index) => path[index] === key);
}

/** The value at `path` of `value`, if any. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (at, key) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined),
    value,
  );
}

/** Sets `value` at `path` of `target`, making the maps on the way; returns `target`. */
export function setAt(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  let at = target;
  for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]] = value;
  return target;
}

/** Whether `value` is a map (not an array, not null). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `text` cut into its literal parts and the values whose sentinels it holds. */
export function sentinelSplit(text: string, values: readonly ChartValue[], set: SentinelSet): (string | ChartValue)[] {
  const parts: (string | ChartValue)[] = [];
  let rest = text;
  while (rest.length > 0) {
    const next = values
      .map((value) => ({ value, at: rest.indexOf(String(value.sentinels[set])) }))
      .filter(({ at }) => at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) {
      parts.push(rest);
      break;
    }
    if (next.at > 0) parts.push(rest.slice(0, next.at));
    parts.push(next.value);
    rest = rest.slice(next.at + String(next.value.sentinels[set]).length);
  }
  return parts;
}
