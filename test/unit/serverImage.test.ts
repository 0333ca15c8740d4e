/**
 * The server's image (deploy/image/Containerfile) where it can be checked without a container
 * engine: its RUN scripts run in `sh` with stand-ins for the downloads and npm, its build context's
 * ignore file, and what it installs. Its pinned versions and user are serverInstall.test.ts's.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packedPackage as packed } from "../../scripts/generators/buildContextIgnore";
import { temporaryFolderEach } from "./support/temporaryFolder";

const root = path.resolve(__dirname, "../..");
const CONTAINERFILE = "deploy/image/Containerfile";
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };

interface Instruction {
  readonly keyword: string;
  readonly args: string;
  /** The name of the stage it is in (`FROM ... AS name`), "" for an unnamed one. */
  readonly stage: string;
}

/** The Containerfile's instructions, continuation lines joined as the builder joins them, comments left out. */
function instructions(text: string): Instruction[] {
  const logical: string[] = [];
  let current = "";
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith("\\")) {
      current += line.slice(0, -1);
      continue;
    }
    current += line;
    if (current.trim()) logical.push(current.trim());
    current = "";
  }
  let stage = "";
  return logical.map((line) => {
    const [, keyword, args] = /^(\S+)\s+([\s\S]*)$/.exec(line)!;
    if (keyword.toUpperCase() === "FROM") stage = /\sAS\s+(\S+)$/i.exec(args)?.[1] ?? "";
    return { keyword: keyword.toUpperCase(), args, stage };
  });
}

const steps = instructions(readFileSync(path.join(root, CONTAINERFILE), "utf8"));
const runScript = (naming: string): string => {
  const found = steps.filter((step) => step.keyword === "RUN" && step.args.includes(naming));
  expect(found, `one RUN names ${naming}`).toHaveLength(1);
  return found[0].args;
};
/** The build arguments with a default, as the RUN steps' environment holds them. */
const argDefaults = Object.fromEntries(
  steps.flatMap((step) => {
    const match = step.keyword === "ARG" ? /^(\w+)=(.*)$/.exec(step.args) : null;
    return match ? [[match[1], match[2]]] : [];
  }),
);

/** Stand-ins on PATH that log their arguments to `log` and do nothing else: what a script may not really run here. */
function standInTools(dir: string, log: string, tools: readonly string[]): string {
  const bin = path.join(dir, "stand-in-bin");
  mkdirSync(bin, { recursive: true });
  for (const tool of tools) {
    writeFileSync(path.join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> "${log}"\n`);
    chmodSync(path.join(bin, tool), 0o755);
  }
  return `${bin}:${process.env.PATH}`;
}

/** Runs `script` with `sh -c` in `cwd` with `env` (and PATH), as a RUN step runs it. */
function run(script: string, cwd: string, env: Record<string, string>) {
  const result = spawnSync("sh", ["-c", script], { cwd, encoding: "utf8", env });
  return { status: result.status, stderr: result.stderr };
}

/** `.containerignore`'s patterns: a path is left out when the last pattern matching it or a folder above it is not a `!`. */
function ignoredBy(ignoreFile: string): (file: string) => boolean {
  const patterns = ignoreFile
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const negated = line.startsWith("!");
      const glob = path.posix.normalize((negated ? line.slice(1) : line).replace(/^\/+/, "")).replace(/\/$/, "");
      const source = glob
        .split("**")
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, "\\$&")
            .replace(/\*/g, "[^/]*")
            .replace(/\?/g, "[^/]"),
        )
        .join(".*");
      return { negated, regex: new RegExp(`^${source}$`) };
    });
  return (file) => {
    const parts = file.split("/");
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join("/"));
    let ignored = false;
    for (const { negated, regex } of patterns) if (candidates.some((c) => regex.test(c))) ignored = !negated;
    return ignored;
  };
}

describe("the image's downloads", () => {
  const folder = temporaryFolderEach("kubespaces-image-downloads-");
  const script = () => runScript("PULUMI_SHA256");

  it.each([
    ["PULUMI_SHA256 unset", { K8S_PROVIDER_SHA256: "0".repeat(64) }, ["PULUMI_SHA256"]],
    ["every checksum unset", {}, ["PULUMI_SHA256", "K8S_PROVIDER_SHA256"]],
  ])("stop before any download, naming the build argument, with %s", (_, given, missing) => {
    const log = path.join(folder(), "ran.log");
    const PATH = standInTools(folder(), log, ["curl", "sha256sum", "tar"]);
    const result = run(script(), folder(), { PATH, TARGETARCH: "amd64", ...argDefaults, ...given });
    expect(result.status).not.toBe(0);
    expect(result.stderr).not.toMatch(/parameter not set/);
    for (const name of missing) expect(result.stderr).toContain(`--build-arg ${name}=`);
    expect(() => readFileSync(log, "utf8")).toThrow();
  });

  it("stop with their own message when the builder sets no TARGETARCH", () => {
    const log = path.join(folder(), "ran.log");
    const PATH = standInTools(folder(), log, ["curl", "sha256sum", "tar"]);
    const checksums = { PULUMI_SHA256: "0".repeat(64), K8S_PROVIDER_SHA256: "0".repeat(64) };
    const result = run(script(), folder(), { PATH, ...argDefaults, ...checksums });
    expect(result.status).not.toBe(0);
    expect(result.stderr).not.toMatch(/parameter not set/);
    expect(result.stderr).toContain("--build-arg TARGETARCH=");
  });

  it("include no Helm: the Kubernetes provider's Release embeds it, and nothing in the image runs a helm binary", () => {
    const mentions = steps.filter((step) => step.keyword !== "LABEL" && /helm/i.test(step.args));
    expect(mentions.map((step) => `${step.keyword} ${step.args}`)).toEqual([]);
  });
});

/** The stage that takes the Pulumi tools from the build context (PULUMI_TOOLS=context) rather than the vendors. */
const CONTEXT_TOOLS_STAGE = "tools-context";

describe("the image's Pulumi tools", () => {
  const fromLines = () => steps.filter((step) => step.keyword === "FROM").map((step) => step.args);

  it("come from the vendors' downloads by default, and from the build context's pulumi-tools/ with PULUMI_TOOLS=context", () => {
    expect(argDefaults.PULUMI_TOOLS).toBe("download");
    expect(fromLines()).toEqual([
      "${NODE_IMAGE} AS tools-download",
      `\${NODE_IMAGE} AS ${CONTEXT_TOOLS_STAGE}`,
      "tools-${PULUMI_TOOLS} AS tools",
      "${NODE_IMAGE}",
    ]);
    // The download stage is the one that checks the vendors' checksums.
    expect(steps.find((step) => step.args.includes("PULUMI_SHA256") && step.keyword === "RUN")?.stage).toBe(
      "tools-download",
    );
  });

  it("land in the same folder either way, the one the image copies and puts on PATH", () => {
    const extractedTo = /mkdir -p (\S+);/.exec(runScript("PULUMI_SHA256"))![1];
    const fromContext = steps.filter((step) => step.stage === CONTEXT_TOOLS_STAGE && step.keyword !== "FROM");
    expect(fromContext.map((step) => `${step.keyword} ${step.args}`)).toEqual([`COPY pulumi-tools/ ${extractedTo}/`]);
    const final = steps.filter((step) => step.keyword === "COPY" && step.args.startsWith("--from=tools "));
    expect(final.map((step) => step.args)).toEqual([`--from=tools ${extractedTo} ${extractedTo}`]);
    expect(steps.find((step) => step.keyword === "ENV")?.args).toContain(`${extractedTo}:`);
  });

  it("are never sent from a checkout's context: its ignore file leaves pulumi-tools/ out", () => {
    const ignoreFile = readFileSync(path.join(root, ".containerignore"), "utf8");
    expect(ignoredBy(ignoreFile)("pulumi-tools/pulumi")).toBe(true);
  });
});

describe("the image's build context", () => {
  const ignoreFile = (name: string) => readFileSync(path.join(root, name), "utf8");

  it("is filtered alike for every engine: .containerignore (podman, buildah) and .dockerignore (docker, kaniko)", () => {
    expect(ignoreFile(".dockerignore")).toBe(ignoreFile(".containerignore"));
  });

  it.each([
    "node_modules/zod/package.json",
    ".git/HEAD",
    ".testbed/state",
    "bin/index.js",
    "provider/index.ts",
    packed("0.0.1"),
    "some-other-package-1.0.0.tgz",
  ])("leaves out %s", (file) => {
    expect(ignoredBy(ignoreFile(".containerignore"))(file)).toBe(true);
  });

  it("sends every file the Containerfile copies from it, for this version", () => {
    // The default build's copies: the context stage is PULUMI_TOOLS=context's alone.
    const copies = steps.filter(
      (step) => step.keyword === "COPY" && !step.args.startsWith("--from") && step.stage !== CONTEXT_TOOLS_STAGE,
    );
    const sources = copies.flatMap((step) => step.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    const files = sources.map((source) => source.replace("*", version));
    expect(files).toContain(packed(version));
    for (const file of files) expect(ignoredBy(ignoreFile(".containerignore"))(file), file).toBe(false);
  });
});

describe("the image's package install", () => {
  const folder = temporaryFolderEach("kubespaces-image-package-");
  const copy = () => {
    const found = steps.filter((step) => step.keyword === "COPY" && step.args.includes("kubespaces-pulumi-"));
    expect(found).toHaveLength(1);
    const words = found[0].args.split(/\s+/);
    return { sources: words.slice(0, -1), destination: words.at(-1)!.replace(/\/$/, "") };
  };

  /**
   * The COPY of the package and the RUN that installs it, over a build context holding `packages`
   * besides the checkout's package.json (every file sent: an engine that reads no ignore file),
   * with the destination folder under the test's folder and npm and rm as logging stand-ins.
   */
  function installFrom(packages: readonly string[]) {
    const dir = folder();
    const context = path.join(dir, "context");
    mkdirSync(context);
    copyFileSync(path.join(root, "package.json"), path.join(context, "package.json"));
    for (const name of packages) writeFileSync(path.join(context, name), name);
    const { sources, destination } = copy();
    const standIn = path.join(dir, "copied");
    mkdirSync(standIn);
    for (const source of sources) {
      const pattern = new RegExp(`^${source.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
      for (const name of readdirSync(context).filter((n) => pattern.test(n)))
        copyFileSync(path.join(context, name), path.join(standIn, name));
    }
    const log = path.join(dir, "ran.log");
    const PATH = standInTools(dir, log, ["npm", "rm"]);
    // The folder the package is installed in, under the test's folder too.
    const prefix = /--prefix (\S+) /.exec(runScript("npm install"))![1];
    const installed = path.join(dir, "installed");
    const script = runScript("npm install").split(destination).join(standIn).split(prefix).join(installed);
    const result = run(script, dir, { PATH, HOME: dir });
    const ran = (() => {
      try {
        return readFileSync(log, "utf8").trim().split("\n");
      } catch {
        return [];
      }
    })();
    return { ...result, ran, standIn, installed };
  }

  it("gives the folder it installs into a project of its own, named, at this version: what npm sbom needs of its root", () => {
    const { status, stderr, installed } = installFrom([packed(version)]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    const project = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(project).toMatchObject({ name: expect.stringMatching(/^[a-z][a-z-]*$/), version, private: true });
    // The image's own SBOM step over that folder (nothing installed in it here): without a name and
    // a version, npm refuses its root (EINVALIDPURLTYPE), as the first build of the image showed.
    const step = runScript("npm sbom").split(/\s+/);
    const args = step.slice(1, step.indexOf(">")).map((word, i, all) => (all[i - 1] === "--prefix" ? installed : word));
    const sbom = spawnSync("npm", args, { encoding: "utf8" });
    expect(sbom.status, sbom.stderr).toBe(0);
    expect(JSON.parse(sbom.stdout).metadata.component.purl).toBe(`pkg:npm/${String(project.name)}@${version}`);
  });

  it("installs the package packed for this version, and no other lying beside it", () => {
    const { status, stderr, ran, standIn } = installFrom([packed("0.0.1"), packed(version)]);
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    const installs = ran.filter((line) => line.startsWith("npm "));
    expect(installs).toHaveLength(1);
    const tgzs = installs[0].split(/\s+/).filter((word) => word.endsWith(".tgz"));
    expect(tgzs).toEqual([path.join(standIn, packed(version))]);
    // What it removes afterwards is its own folder, nothing of the builder's.
    for (const line of ran.filter((l) => l.startsWith("rm "))) {
      for (const target of line
        .split(/\s+/)
        .slice(1)
        .filter((word) => !word.startsWith("-")))
        expect(target.startsWith(standIn), target).toBe(true);
    }
  });

  it("refuses a context without this version's package, naming the one it needs and those it found", () => {
    const { status, stderr, ran } = installFrom([packed("0.0.1")]);
    expect(status).not.toBe(0);
    expect(stderr).toContain(packed(version));
    expect(stderr).toContain(packed("0.0.1"));
    expect(ran.filter((line) => line.startsWith("npm "))).toEqual([]);
  });
});

describe("the image's software bill of materials", () => {
  const sbomStep = () => runScript("npm sbom");
  const words = () => sbomStep().split(/\s+/);

  it("is npm's own CycloneDX listing of the folder the package was installed in, without development packages, written into the image", () => {
    const step = words();
    expect(step.slice(0, 2)).toEqual(["npm", "sbom"]);
    expect(step[step.indexOf("--sbom-format") + 1]).toBe("cyclonedx");
    const installedAt = step[step.indexOf("--prefix") + 1];
    const install = runScript("npm install");
    expect(install).toContain(`--prefix ${installedAt} `);
    // The folder holds no development package to list: the install leaves them out.
    expect(install).toContain("--omit=dev");
    expect(step.at(-1)).toMatch(new RegExp(`^${installedAt}/\\S+\\.cdx\\.json$`));
  });

  it("lists every production dependency with its version, when its command runs over this checkout", () => {
    // The step's own flags, over the checkout's tree instead of the image's folder.
    const step = words();
    const args = step
      .slice(1, step.indexOf(">"))
      .filter((_, i, all) => all[i] !== "--prefix" && all[i - 1] !== "--prefix");
    const result = spawnSync("npm", args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(result.status, result.stderr).toBe(0);
    const bom = JSON.parse(result.stdout) as {
      bomFormat: string;
      metadata: { component: { purl: string } };
      components: { name: string; version: string }[];
    };
    expect(bom.bomFormat).toBe("CycloneDX");
    expect(decodeURIComponent(bom.metadata.component.purl)).toBe(`pkg:npm/@kubespaces/pulumi@${version}`);
    const { dependencies } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const listed = bom.components.map((component) => `${component.name}@${component.version}`);
    for (const [name, wanted] of Object.entries(dependencies)) {
      // A pinned version is listed as is; a range (a caret) at some version of that name.
      const match = /^\d/.test(wanted) ? `${name}@${wanted}` : new RegExp(`^${name.replace("/", "\\/")}@\\d`);
      expect(
        listed.some((entry) => (typeof match === "string" ? entry === match : match.test(entry))),
        name,
      ).toBe(true);
    }
  });
});
