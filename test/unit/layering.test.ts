/**
 * The folders of provider/ form layers, and every import runs down them or stays in its folder:
 * the shared vocabulary (contracts/) and the domain (model/) never reach up into the render, the
 * lifecycle or the component, and the render and the lifecycle never reach into each other. The
 * one arrow back up is declared below with its reason. No files import each other in a circle.
 * The command (cli/) is a front and two wings: local mode (cli/localMode/) and server mode
 * (cli/serverMode/) never import each other, and the front reaches into them only where the mode is
 * chosen. The server's rooms: the reconciler's stages never import the HTTP, portal or sign-in
 * rooms, the host's adapters (server/kube/) are reached only from the wiring, and only the
 * provisioning stage brings a stack up and asks the gates.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const PROVIDER = path.resolve(__dirname, "../../provider");

/**
 * The layers, lowest first. A file may import from its own folder or from a lower layer; folders
 * that share a layer may not import each other. `.` is provider/ itself (the package's entry points).
 */
const LAYERS: readonly (readonly string[])[] = [
  ["util", "generated"],
  ["contracts"],
  ["model"],
  ["render", "lifecycle", "graph"],
  ["component"],
  ["plugin", "tenantFiles"],
  ["tenants"],
  ["kubeconfig"],
  ["hosts"],
  ["tenantResource"],
  ["server"],
  ["serverInstall"],
  ["cli"],
  ["."],
];

/**
 * Arrows allowed against the layers, `from -> to` as paths under provider/ without extension.
 * Validation checks the values Helm will get against the chart's schema, so it reads the render's
 * merged values instead of merging them a second time.
 */
const DOCUMENTED_EXCEPTIONS: ReadonlySet<string> = new Set(["model/chartValuesRule -> render/vclusterValues"]);

/** Every .ts file under `folder`, as paths relative to provider/. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.relative(PROVIDER, path.join(entry.parentPath, entry.name)));
}

/** The provider files `file` imports (static, dynamic and `require`), relative to provider/, without extension. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(PROVIDER, file), "utf8");
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => path.relative(PROVIDER, path.resolve(PROVIDER, path.dirname(file), specifier)));
}

const folderOf = (file: string): string => (file.includes(path.sep) ? file.split(path.sep)[0]! : ".");
const withoutExtension = (file: string): string => file.replace(/\.ts$/, "");

function layerOf(folder: string): number {
  const layer = LAYERS.findIndex((folders) => folders.includes(folder));
  if (layer < 0) throw new Error(`provider/${folder} has no layer in this test: add it to LAYERS`);
  return layer;
}

/** Whether an import from a file in `from` to a file in `to` runs down the layers. */
const runsDown = (from: string, to: string): boolean => from === to || layerOf(to) < layerOf(from);

it("every import under provider/ runs down the layers, except the documented ones", () => {
  const wrongWay = sourceFiles(PROVIDER).flatMap((file) =>
    importsOf(file)
      .filter((target) => !runsDown(folderOf(file), folderOf(target)))
      .map((target) => `${withoutExtension(file)} -> ${withoutExtension(target)}`)
      .filter((arrow) => !DOCUMENTED_EXCEPTIONS.has(arrow)),
  );
  expect(wrongWay).toEqual([]);
});

it("each documented exception is still an import, so that none outlives its reason", () => {
  const arrows = new Set(
    sourceFiles(PROVIDER).flatMap((file) =>
      importsOf(file).map((target) => `${withoutExtension(file)} -> ${withoutExtension(target)}`),
    ),
  );
  expect([...DOCUMENTED_EXCEPTIONS].filter((arrow) => !arrows.has(arrow))).toEqual([]);
});

it("sees the imports the rule is about", () => {
  // A parse that found nothing would pass the rule above vacuously.
  expect(importsOf("render/lifecycleArgs.ts")).toContain(path.join("contracts", "readinessSchema"));
  expect(runsDown("render", "lifecycle")).toBe(false);
  expect(runsDown("model", "contracts")).toBe(true);
  expect(runsDown("contracts", "model")).toBe(false);
});

/** The command's wings, each a mode; they never import each other. */
const WINGS = ["cli/localMode", "cli/serverMode"];

/**
 * The front files that reach into the wings: the one that opens the recorded login's door, and
 * `login`, which records the mode (and shows local mode's default backend, signs in to a server).
 */
const MODE_CHOOSERS: ReadonlySet<string> = new Set(["cli/openDoor", "cli/commands/login"]);

const wingOf = (file: string): string | undefined => WINGS.find((wing) => file.startsWith(`${wing}${path.sep}`));

it("keeps the command's wings apart, and the front out of them except where the mode is chosen", () => {
  const crossings = sourceFiles(PROVIDER)
    .filter((file) => file.startsWith(`cli${path.sep}`))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const [from, to] = [wingOf(file), wingOf(`${target}.ts`)];
          if (!to || from === to) return false;
          return from !== undefined || !MODE_CHOOSERS.has(withoutExtension(file));
        })
        .map((target) => `${withoutExtension(file)} -> ${target}`),
    );
  expect(crossings).toEqual([]);
});

/** The import circles among provider/'s files, each as the files along it. */
function importCircles(): string[][] {
  const graph = new Map(sourceFiles(PROVIDER).map((file) => [withoutExtension(file), importsOf(file)]));
  const circles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push(trail.slice(trail.indexOf(file)));
      return;
    }
    state.set(file, "open");
    for (const target of graph.get(file) ?? []) if (graph.has(target)) visit(target, [...trail, target]);
    state.set(file, "done");
  };
  for (const file of graph.keys()) visit(file, [file]);
  return circles;
}

it("has no files that import each other in a circle, type imports included", () => {
  expect(importCircles()).toEqual([]);
});

it("lets the command read nothing of the server's but the setup `kubespaces server` starts", () => {
  const reads = sourceFiles(PROVIDER)
    .filter(
      (file) => file.startsWith(`cli${path.sep}`) && withoutExtension(file) !== path.join("cli", "commands", "server"),
    )
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`server${path.sep}`))
        .map((target) => `${withoutExtension(file)} -> ${target}`),
    );
  expect(reads).toEqual([]);
});

/** The server's rooms whose files the reconcile's stages never import: the people's fronts. */
const FRONT_ROOMS = ["server/http", "server/portal", "server/auth"].map((room) => room.replaceAll("/", path.sep));

/** Whether `file` (relative to provider/, with or without extension) lies in `room`. */
const inRoom = (file: string, room: string): boolean => file.startsWith(`${room}${path.sep}`);

it("keeps the reconciler's stages out of the HTTP, portal and sign-in rooms", () => {
  const crossings = sourceFiles(PROVIDER)
    .filter((file) => inRoom(file, path.join("server", "reconcile")))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => FRONT_ROOMS.some((room) => inRoom(target, room)))
        .map((target) => `${withoutExtension(file)} -> ${target}`),
    );
  expect(crossings).toEqual([]);
});

/**
 * The files that may reach the host's adapters (server/kube/) directly: the setup and the wiring,
 * which plug them into the ports, and a replica's share, which starts the watches that feed its
 * queue. Everything else reaches the host through the ports (tenantResourcePort.ts, leases.ts, ...).
 */
const ADAPTER_WIRING: ReadonlySet<string> = new Set(
  ["server/serverMain", "server/kubespacesServer", "server/replicas/replicaWork"].map((f) =>
    f.replaceAll("/", path.sep),
  ),
);

it("reaches the host's adapters (server/kube/) only from the wiring", () => {
  const kube = path.join("server", "kube");
  const reaches = sourceFiles(PROVIDER)
    .filter((file) => !inRoom(file, kube) && !ADAPTER_WIRING.has(withoutExtension(file)))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => inRoom(target, kube))
        .map((target) => `${withoutExtension(file)} -> ${target}`),
    );
  expect(reaches).toEqual([]);
});

/** The one file that brings a tenant's stack up in the server, and alone asks the gates. */
const PROVISIONING_STAGE = path.join("server", "reconcile", "stages", "provisioningStage");

/** The calls in `file` of a method named `create` or `putBack` on a receiver named like the service or a bring-up. */
function bringUpCalls(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(PROVIDER, file), "utf8"), ts.ScriptTarget.Latest);
  const calls: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { name, expression } = node.expression;
      if (/^(create|putBack)$/.test(name.text) && /(service|bringUp)$/i.test(expression.getText(source)))
        calls.push(`${withoutExtension(file)}: ${expression.getText(source)}.${name.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return calls;
}

it("brings a stack up in the server from the provisioning stage alone, which alone asks the gates", () => {
  const server = sourceFiles(PROVIDER).filter((file) => inRoom(file, "server"));
  const bringUps = server.flatMap(bringUpCalls);
  // A parse that found nothing would pass vacuously: the provisioning stage's own calls are seen.
  expect(bringUps.filter((call) => call.startsWith(PROVISIONING_STAGE))).toHaveLength(2);
  expect(bringUps.filter((call) => !call.startsWith(PROVISIONING_STAGE))).toEqual([]);
  const gates = path.join("server", "reconcile", "stages", "gates");
  const askers = server.filter((file) => importsOf(file).includes(gates)).map(withoutExtension);
  expect(askers).toEqual([PROVISIONING_STAGE]);
});
