/**
 * The documents stay true to the repository: every relative link in them reaches a file or folder
 * (and a heading, when it names one), and docs/architecture.md names every folder a reader may ask
 * about, so that it keeps answering "where is X?".
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { describe, expect, it } from "vitest";
import { HELD_PHASES } from "../../provider/contracts/tenantResourceNames";
import { API_ROUTES } from "../../provider/contracts/tenantsApi";
import { SAFE_OVERRIDES_DOC } from "../../provider/model/overridesGuard";
import { RELEASE_NAME_MAX_LENGTH, tenantNameMaxLength } from "../../provider/model/tenantName";
import { DEFAULT_NAMESPACE_PREFIX } from "../../provider/model/tenantPlatformSchema";
import { SERVER_READINESS_CONDITIONS } from "../../provider/server/readiness";
import { tenantsApiDocument } from "../../provider/server/http/openApiDocument";
import { COUNTED_PHASES } from "../../provider/server/metrics/serverMetrics";
import { TENANT_PHASES } from "../../provider/tenants/tenantObject";
import { serverInstallation, serverSecretShell } from "../../provider/serverInstall/serverInstallation";
import { installOptions } from "../../provider/tenantResource/installOptions";
import type { KubeObject } from "../../provider/tenantResource/kubeObject";
import { tenantResourceInstallation } from "../../provider/tenantResource/tenantResourceInstallation";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";

const root = path.resolve(__dirname, "../..");
/** Not the repository's own text: installed, built, generated or run-time folders. */
const NOT_DOCUMENTS = new Set([".git", "node_modules", "bin", "dist", ".testbed", "sdk"]);

/** Markdown files of the repository, relative to its root, with `/` separators. */
function markdownFiles(dir = ""): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return NOT_DOCUMENTS.has(entry.name) ? [] : markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

/** The lines of a Markdown text that are not inside a fenced code block. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** The anchors GitHub gives a Markdown file's headings. */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = proseLines(readFileSync(path.join(root, file), "utf8")).flatMap(
    (line) => /^#{1,6}\s+(.+?)\s*$/.exec(line)?.[1] ?? [],
  );
  return new Set(headings.map((heading) => slugger.slug(heading)));
}

/** The relative link targets of a Markdown file (not URLs with a scheme), outside code blocks and spans. */
function relativeLinks(file: string): string[] {
  const prose = proseLines(readFileSync(path.join(root, file), "utf8"))
    .join("\n")
    .replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link of `file`, or nothing. */
function brokenLink(file: string, target: string): string | undefined {
  const [linkPath, anchor] = target.split("#", 2);
  const resolved = linkPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), linkPath)) : file;
  if (resolved.startsWith("..")) return `${target}: leaves the repository`;
  if (!existsSync(path.join(root, resolved))) return `${target}: no ${resolved}`;
  if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor)) {
    return `${target}: ${resolved} has no heading #${anchor}`;
  }
  return undefined;
}

describe("the documents' relative links", () => {
  const files = markdownFiles();

  it("are looked for in the README and docs/", () => {
    expect(files).toEqual(expect.arrayContaining(["README.md", "docs/architecture.md", "docs/reference.md"]));
  });

  it.each(files)("in %s reach a file, folder or heading of the repository", (file) => {
    const broken = relativeLinks(file).flatMap((target) => brokenLink(file, target) ?? []);
    expect(broken).toEqual([]);
  });

  it("are checked: a missing file and a missing heading are found", () => {
    expect(brokenLink("README.md", "docs/nothing-here.md")).toBe("docs/nothing-here.md: no docs/nothing-here.md");
    expect(brokenLink("docs/policy.md", "reference.md#no-such-heading")).toBe(
      "reference.md#no-such-heading: docs/reference.md has no heading #no-such-heading",
    );
    expect(brokenLink("docs/policy.md", "reference.md#inputs")).toBeUndefined();
  });
});

describe("the documents messages point at", () => {
  it("include the section of the self-service overrides' allowlist", () => {
    expect(brokenLink("README.md", SAFE_OVERRIDES_DOC)).toBeUndefined();
  });
});

/** Folders under `dir`, to `depth` levels (Infinity: all), relative to the root. */
function foldersUnder(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !NOT_DOCUMENTS.has(entry.name) && entry.name !== "__pycache__")
    .flatMap((entry) => {
      const relative = dir ? `${dir}/${entry.name}` : entry.name;
      return [relative, ...foldersUnder(relative, depth - 1)];
    });
}

describe("docs/architecture.md", () => {
  const architecture = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
  const folders = [
    ...foldersUnder("", 1).filter((folder) => folder !== ".git"),
    "sdk",
    ...foldersUnder("provider", Infinity),
    ...foldersUnder("scripts", Infinity),
    ...foldersUnder("test", 1),
  ];

  it.each(folders)("says what lives in %s/", (folder) => {
    expect(architecture).toContain(`\`${folder}/\``);
  });
});

/** The sentences of a Markdown file's prose (code blocks left out), each on one line. */
function sentencesOf(file: string): string[] {
  const paragraphs = proseLines(readFileSync(path.join(root, file), "utf8"))
    .join("\n")
    .split(/\n\s*\n|\n(?=\s*[|#-])/);
  return paragraphs.flatMap((paragraph) =>
    paragraph
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=[.!?])\s+(?=[A-Z`[(])/),
  );
}

describe("the tenant's name", () => {
  const limit = tenantNameMaxLength(DEFAULT_NAMESPACE_PREFIX);

  it.each(["README.md", "docs/reference.md"])(
    "is said in %s to have at most as many characters as the component takes under the default namespace prefix",
    (file) => {
      const said = sentencesOf(file).filter(
        (sentence) => /tenant's name/i.test(sentence) && /characters/.test(sentence),
      );
      const limits = said.flatMap((sentence) =>
        [...sentence.matchAll(/at most (\d+)\s+characters/g)].map((m) => Number(m[1])),
      );
      expect(limits).toContain(limit);
      // Besides it, only the limit under any prefix, the release's.
      expect(limits.filter((stated) => stated !== limit && stated !== RELEASE_NAME_MAX_LENGTH)).toEqual([]);
    },
  );
});

/** The Markdown table row of `file` whose first cell is `first`, split into its cells. */
function tableRow(file: string, first: string): string[] {
  const row = proseLines(readFileSync(path.join(root, file), "utf8")).find((line) => line.startsWith(`| ${first} |`));
  expect(row, `${file} has a row ${first}`).toBeDefined();
  return row!
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((cell) => cell.trim());
}

describe("every phase a Tenant takes", () => {
  const phases = [...TENANT_PHASES, ...HELD_PHASES];

  it("is in the Tenant resource's status of docs/self-service.md, and nothing else is", () => {
    const status = sentencesOf("docs/self-service.md").find((sentence) => sentence.startsWith("- **Status.**"));
    const listed = /`phase` \(([^)]*)\)/.exec(status ?? "")?.[1].split(", ");
    expect(listed?.sort()).toEqual([...phases].sort());
  });

  it("is a documented value of the kubespaces_tenants metric's phase label, and nothing else is", () => {
    const labels = tableRow("docs/self-service.md", "`kubespaces_tenants`")[2];
    const values = [...labels.matchAll(/`([^`]+)`/g)].map((match) => match[1]).filter((value) => value !== "phase");
    expect(values.sort()).toEqual([...COUNTED_PHASES].sort());
    expect(COUNTED_PHASES).toEqual(expect.arrayContaining(phases));
  });
});

/** The HTTP methods, as the route table writes them. */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The routes the API's table in docs/self-service.md names, as `METHOD /path` with `:name` for
 * `NAME`. A cell names them in code spans: `GET /path`, or methods that share the next span's
 * path (`GET` / `DELETE /path`); its other spans (bodies, queries) name none.
 */
function routeTableRoutes(): string[] {
  const lines = proseLines(readFileSync(path.join(root, "docs/self-service.md"), "utf8"));
  const start = lines.indexOf("| Route | What |");
  expect(start, "docs/self-service.md has the API's route table").toBeGreaterThan(-1);
  const after = lines.slice(start + 2);
  const end = after.findIndex((line) => !line.startsWith("|"));
  const rows = end === -1 ? after : after.slice(0, end);
  return rows.flatMap((row) => {
    const routes: string[] = [];
    let methods: string[] = [];
    for (const [, span] of row.split(" | ")[0].matchAll(/`([^`]+)`/g)) {
      if (METHODS.includes(span)) methods.push(span);
      const route = /^([A-Z]+) (\/\S*)$/.exec(span);
      if (!route || !METHODS.includes(route[1])) continue;
      const at = route[2].replaceAll("NAME", ":name");
      routes.push(...[...methods, route[1]].map((method) => `${method} ${at}`));
      methods = [];
    }
    return routes;
  });
}

/** Every route of API_ROUTES with each of its methods: the OpenAPI document's, GET for the probes outside it. */
function apiRoutes(): string[] {
  const { paths } = tenantsApiDocument() as { paths: Record<string, Record<string, unknown>> };
  return Object.values(API_ROUTES).flatMap((route) => {
    const operations = paths[route.replace(":name", "{name}")];
    // Outside the API's root (the probes), only GET is served, and the document does not describe them.
    const methods = operations ? Object.keys(operations).map((method) => method.toUpperCase()) : ["GET"];
    return methods.map((method) => `${method} ${route}`);
  });
}

describe("the API's route table in docs/self-service.md", () => {
  const documented = routeTableRoutes();

  it("names every route of API_ROUTES, with each of its methods", () => {
    expect(apiRoutes().filter((route) => !documented.includes(route))).toEqual([]);
  });

  it("names no route or method that API_ROUTES does not have", () => {
    expect(documented.filter((route) => !apiRoutes().includes(route))).toEqual([]);
    expect(documented.length).toBeGreaterThan(10);
  });
});

/** The benchmarks: package.json's `bench` scripts, as a reader runs them. */
function benchmarkCommands(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  return Object.keys(scripts)
    .filter((script) => /^bench(:|$)/.test(script))
    .map((script) => `npm run ${script}`);
}

/** The benchmark commands (`npm run bench...`) a text names. */
const benchmarksIn = (text: string): string[] => [
  ...new Set([...text.matchAll(/`(npm run bench(?::[\w-]+)?)`/g)].map((match) => match[1])),
];

describe("the benchmarks", () => {
  const benchmarks = benchmarkCommands();

  it("are found in package.json", () => {
    expect(benchmarks).toEqual(expect.arrayContaining(["npm run bench", "npm run bench:e2e"]));
  });

  it("are each named in docs/architecture.md's row of test/bench/, and nothing else is", () => {
    const row = tableRow("docs/architecture.md", "`test/bench/`").join(" | ");
    expect(benchmarksIn(row).sort()).toEqual([...benchmarks].sort());
  });

  it("are each described in docs/testing.md", () => {
    expect(benchmarksIn(readFileSync(path.join(root, "docs/testing.md"), "utf8")).sort()).toEqual(
      [...benchmarks].sort(),
    );
  });

  it.each(markdownFiles())(
    "named in %s are package.json's, and all of them are listed in docs/architecture.md alone",
    (file) => {
      expect(benchmarksIn(readFileSync(path.join(root, file), "utf8")).filter((b) => !benchmarks.includes(b))).toEqual(
        [],
      );
      // The list of every benchmark is docs/architecture.md's row, and each is described in docs/testing.md.
      if (file === "docs/architecture.md" || file === "docs/testing.md") return;
      const lists = sentencesOf(file).filter((sentence) => benchmarksIn(sentence).length > 2);
      expect(lists).toEqual([]);
    },
  );
});

/** Whether a sentence states how long the builds or a whole run take: minutes, with cold, warm or builds. */
const statesRunTime = (sentence: string): boolean =>
  /\d+\s*(min|minutes)\b/.test(sentence) && /\b(cold|warm|builds?|build time)\b/i.test(sentence);

describe("how long the builds and a whole run take", () => {
  it("is stated in the README: builds, a cold run and a warm one", () => {
    const stated = sentencesOf("README.md").filter(statesRunTime);
    expect(stated).toHaveLength(1);
    expect(stated[0]).toMatch(/about \d+ minutes of builds.*about \d+ minutes for a whole cold .*about \d+ warm/);
  });

  it.each(markdownFiles().filter((file) => file !== "README.md"))("is not stated again in %s", (file) => {
    expect(sentencesOf(file).filter(statesRunTime)).toEqual([]);
  });
});

describe("what /readyz waits for", () => {
  /** The sentences of docs/self-service.md that say what `/readyz` waits for before it answers 200. */
  const saidOf = () =>
    sentencesOf("docs/self-service.md").filter(
      (sentence) => sentence.includes("`/readyz`") && /\b(until|waits?|waiting)\b/.test(sentence),
    );

  it("is said in docs/self-service.md", () => {
    expect(saidOf().length).toBeGreaterThan(0);
  });

  it.each(SERVER_READINESS_CONDITIONS)(
    "names %s, by the name waitingFor reports, wherever docs/self-service.md says it",
    (condition) => {
      expect(saidOf().filter((sentence) => !sentence.includes(`\`${condition}\``))).toEqual([]);
    },
  );
});

/** The lines of `file` under the heading line `heading`, down to the next heading of its level or higher (code blocks read through). */
function sectionOf(file: string, heading: string): string | undefined {
  const lines = readFileSync(path.join(root, file), "utf8").split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) return undefined;
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  const end = lines.findIndex((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return index > start && !fenced && new RegExp(`^#{1,${level}}\\s`).test(line);
  });
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

/** The kinds of names a reader is told to back up, rotate, restart or delete. */
type NameKind = "Secret" | "ConfigMap" | "Deployment" | "namespace" | "Secret key";

/**
 * The names of Secrets, ConfigMaps, Deployments, namespaces and Secret keys that a Markdown text
 * gives the reader to act on: in commands (code blocks and spans, shell comments left out:
 * `secret NAME`, `secret generic NAME`, `deployment/NAME`, `-n NAME`, `/data/KEY`,
 * `--from-file=KEY=`), and in prose (Secret `NAME`, namespace `NAME`, the key `KEY`). A name in
 * angle brackets is a placeholder, not a name.
 */
function namesIn(markdown: string): Map<NameKind, Set<string>> {
  const found = new Map<NameKind, Set<string>>();
  const add = (kind: NameKind, name: string) => {
    if (!name.startsWith("<")) found.set(kind, (found.get(kind) ?? new Set()).add(name));
  };
  const name = "([a-z0-9][-a-z0-9.]*[a-z0-9])";
  const blocks = [...markdown.matchAll(/^\s*```[^\n]*\n([\s\S]*?)^\s*```/gm)].map((match) => match[1]);
  // A code span may run over a line break, as Markdown allows.
  const prose = proseLines(markdown).join("\n").replace(/\s+/g, " ");
  const spans = [...prose.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  const code = [...blocks, ...spans]
    .join("\n")
    .split("\n")
    .map((line) => line.replace(/(^|\s)#.*$/, ""))
    .join("\n");
  const kinds: Record<string, NameKind> = { secret: "Secret", configmap: "ConfigMap", deployment: "Deployment" };
  for (const match of code.matchAll(
    new RegExp(`(?<![-\\w])(secret|configmap|deployment)(?:/|\\s+(?:generic\\s+)?)(?!generic\\s)${name}`, "g"),
  ))
    add(kinds[match[1]], match[2]);
  for (const match of code.matchAll(new RegExp(`(?:^|\\s)(?:-n|--namespace)[ =]${name}`, "gm")))
    add("namespace", match[1]);
  for (const match of code.matchAll(
    new RegExp(`/data/${name}|\\.data\\.${name}|--from-(?:literal|file)=${name}=`, "g"),
  ))
    add("Secret key", match[1] ?? match[2] ?? match[3]);
  for (const match of prose.matchAll(/\b(Secret|ConfigMap|Deployment|namespace) `([^`]+)`/g))
    add(match[1] as NameKind, match[2]);
  for (const match of prose.matchAll(/\bkeys? ((?:`[^`]+`(?:, | and | or )?)+)/g))
    for (const key of match[1].matchAll(/`([^`]+)`/g)) add("Secret key", key[1]);
  return found;
}

/**
 * The names the installation makes or its pods read, from the code: the server's objects (as
 * deploy/server/server.yaml renders them), the Secrets its pods mount or take their environment
 * from, and the Tenant resource's objects.
 */
function installedNames(): Map<NameKind, Set<string>> {
  const server = serverInstallation(placeholderInstall("0.0.0"));
  const objects: KubeObject[] = [
    ...server.objects.map(({ object }) => object),
    serverSecretShell(server.options),
    ...tenantResourceInstallation(installOptions()).rbac.map(({ object }) => object),
  ];
  const named = (kind: string) => objects.filter((object) => object.kind === kind).map(({ metadata }) => metadata.name);
  const deployment = objects.find((object) => object.kind === "Deployment") as any;
  const pod = deployment.spec.template.spec;
  const mountedKeys = pod.volumes.flatMap(
    (volume: any) => volume.secret?.items?.map((item: { key: string }) => item.key) ?? [],
  );
  // The Secrets the pods read: the server's, and the state backend's credentials, which the platform makes.
  const readSecrets = [
    ...pod.volumes.flatMap((volume: any) => volume.secret?.secretName ?? []),
    ...pod.containers.flatMap((container: any) =>
      (container.envFrom ?? []).flatMap((from: any) => from.secretRef?.name ?? []),
    ),
  ];
  return new Map<NameKind, Set<string>>([
    ["Secret", new Set([...named("Secret"), ...readSecrets])],
    ["ConfigMap", new Set(named("ConfigMap"))],
    ["Deployment", new Set(named("Deployment"))],
    ["namespace", new Set([...named("Namespace"), ...objects.flatMap(({ metadata }) => metadata.namespace ?? [])])],
    ["Secret key", new Set<string>(mountedKeys)],
  ]);
}

/** The names in `named` that `made` does not hold, as `<kind> <name>`. */
function strangers(named: Map<NameKind, Set<string>>, made: Map<NameKind, Set<string>>): string[] {
  return [...named].flatMap(([kind, names]) =>
    [...names].filter((name) => !made.get(kind)?.has(name)).map((name) => `${kind} ${name}`),
  );
}

describe("docs/self-service.md's section on upgrading, backing up and uninstalling", () => {
  const section = sectionOf("docs/self-service.md", "## Upgrading, backing up and uninstalling");
  const made = installedNames();
  const placeholderInstallation = serverInstallation(placeholderInstall("0.0.0"));

  it("is there, with its parts", () => {
    expect(section).toBeDefined();
    for (const part of [
      "### Upgrading",
      "### Backing up",
      "### Rotating the session key and the portal's client secret",
      "### Uninstalling",
      "### The CRDs' versions",
    ])
      expect(section).toContain(`\n${part}\n`);
  });

  it("names only Secrets, ConfigMaps, keys, Deployments and namespaces the installation makes", () => {
    const named = namesIn(section ?? "");
    expect(strangers(named, made)).toEqual([]);
    // It names what it tells the reader to keep: the server's Secret, and every key the pods mount.
    expect(named.get("Secret")).toContain(placeholderInstallation.options.secretName);
    expect([...(named.get("Secret key") ?? [])].sort()).toEqual([...made.get("Secret key")!].sort());
  });

  it("finds a name the installation does not make, in a command or in prose", () => {
    const text = [
      "Keep the Secret `kubespaces-state` and the key `passphrase`:",
      "",
      "```sh",
      "kubectl -n kubespaces-system get secret kubespaces-server -o yaml   # the secret kubespaces-ignored",
      "kubectl -n kube-system rollout restart deployment/kubespaces-api",
      "kubectl create secret generic <your-secret> --from-literal=session-key=x",
      "```",
    ].join("\n");
    expect(strangers(namesIn(text), made).sort()).toEqual(
      ["Deployment kubespaces-api", "Secret key passphrase", "Secret kubespaces-state", "namespace kube-system"].sort(),
    );
  });
});
