/**
 * Ship only what runs: the npm package holds the modules its entry points load (the library, its
 * subpath exports, the `kubespaces` command, the provider plugin) and no other build output, so
 * no generator, no documentation tooling and no leftover of a source that is gone. The
 * generators live under scripts/, outside the build's rootDir, so a module under provider/ that
 * imported one would not build.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { PORTAL_ASSETS, PORTAL_STATIC_FOLDER } from "../../provider/server/portal/portalAssets";

const root = path.resolve(__dirname, "../..");
const SOURCE_ROOT = "provider";
const BUILD_ROOT = "bin";

interface PackageJson {
  readonly main: string;
  readonly bin: Record<string, string>;
  readonly exports: Record<string, string | { readonly default: string }>;
}

/** The build outputs a user's code or a Pulumi engine starts from: package.json's, and the plugin's launcher's. */
function entryPoints(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as PackageJson;
  const exported = Object.values(pkg.exports).map((target) => (typeof target === "string" ? target : target.default));
  const launcher = readFileSync(path.join(root, SOURCE_ROOT, "plugin", "launcher.sh"), "utf8");
  const pluginMain = /"\$\{here\}\/(bin\/[^"]+\.js)"/.exec(launcher)?.[1];
  if (!pluginMain) throw new Error("provider/plugin/launcher.sh names no bin/…/*.js to run");
  return [pkg.main, ...Object.values(pkg.bin), ...exported, pluginMain]
    .map((file) => path.posix.normalize(file))
    .filter((file) => file.endsWith(".js"));
}

/** `bin/a/b.js` → `provider/a/b.ts`. */
const sourceOf = (output: string): string =>
  output.replace(new RegExp(`^${BUILD_ROOT}/`), `${SOURCE_ROOT}/`).replace(/\.js$/, ".ts");

/** Every module under provider/ that `entries` load, following relative imports, re-exports and requires. */
function loadedModules(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(root, file), "utf8");
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = path.posix.join(path.posix.dirname(file), fileName);
      const resolved = [`${target}.ts`, `${target}/index.ts`].find((candidate) =>
        existsSync(path.join(root, candidate)),
      );
      if (!resolved) throw new Error(`${file} imports ${fileName}, which is no .ts module`);
      pending.push(resolved);
    }
  }
  return seen;
}

const sourceModules = (): string[] =>
  readdirSync(path.join(root, SOURCE_ROOT), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => path.posix.join(SOURCE_ROOT, file.split(path.sep).join("/")));

let packed: string[] | undefined;

/** The paths `npm pack` would put in the package (asked once per run). */
function packedFiles(): string[] {
  if (packed) return packed;
  const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  if (pack.status !== 0) throw new Error(`npm pack --dry-run failed: ${pack.stderr}`);
  const [{ files }] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
  packed = files.map((f) => f.path);
  return packed;
}

describe("the npm package", () => {
  const entries = entryPoints();
  const loaded = loadedModules(entries.map(sourceOf));

  it("starts from modules that exist", () => {
    for (const entry of entries) expect(existsSync(path.join(root, sourceOf(entry))), entry).toBe(true);
    expect(entries).toContain("bin/cli/main.js");
    expect(entries).toContain("bin/plugin/main.js");
  });

  it("builds no module under provider/ that its entry points do not load (generators live in scripts/)", () => {
    expect(sourceModules().filter((file) => !loaded.has(file))).toEqual([]);
  });

  it("packs only the build output of those modules, with no generator and nothing left of a source that is gone", () => {
    const built = packedFiles().filter((file) => file.startsWith(`${BUILD_ROOT}/`));
    expect(built, "no build output: run npm run build").toContain("bin/index.js");
    const shippedSources = new Set(built.map((file) => sourceOf(file.replace(/(\.d\.ts|\.js\.map)$/, ".js"))));
    expect(
      [...shippedSources].filter((file) => !loaded.has(file)),
      "stale or build-time output in bin/",
    ).toEqual([]);
    expect(
      [...loaded].filter((file) => !shippedSources.has(file)),
      "loaded modules missing from bin/",
    ).toEqual([]);
    expect(built.some((file) => /generators?\//.test(file))).toBe(false);
  });

  it("packs the files the portal serves as they are, where it reads them from", () => {
    for (const { file } of PORTAL_ASSETS) expect(packedFiles()).toContain(`${PORTAL_STATIC_FOLDER}/${file}`);
  });
});
