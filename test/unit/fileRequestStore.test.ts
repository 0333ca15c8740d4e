/** The command's request store: one Tenant manifest per tenant in a folder, written exclusively, read back strictly. */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { parseTenantDocuments } from "../../provider/tenantFiles/tenantDocuments";
import { FileRequestStore, manifestText } from "../../provider/tenants/local/fileRequestStore";
import { RequestInvalidError } from "../../provider/tenants/tenantsErrors";
import { writeAtomically, writeExclusively } from "../../provider/util/atomicFile";
import { temporaryFolderEach } from "./support/temporaryFolder";

const root = temporaryFolderEach("kubespaces-requests-");
let store: FileRequestStore;
beforeEach(() => {
  store = new FileRequestStore(path.join(root(), "tenants"));
});

const atlas: TenantRequestInput = { owner: "alice@example.com" };
const fileIn = (name: string) => path.join(store.dir, name);

describe("manifestText", () => {
  it.each<[string, TenantRequestInput]>([
    ["an owner alone", atlas],
    [
      "every request field",
      {
        owner: "bob@example.com",
        resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
        isolation: { podSecurity: "restricted" },
        vcluster: { kubernetesVersion: "v1.33.0" },
      },
    ],
    [
      "strings YAML would read as numbers, booleans or null",
      { owner: "null", resources: { cpu: "1e3", memory: "0x10", storage: "true" } },
    ],
    ["strings with YAML's special characters", { owner: "a: b # c, [d] {e} 'quoted' \"twice\"" }],
  ])("round-trips %s through the Tenant files parser, as a team would commit it", (_, request) => {
    const text = manifestText("team-atlas", request);
    expect(text.startsWith("# Written by kubespaces: tenant team-atlas's request.\n")).toBe(true);
    const { documents, problems } = parseTenantDocuments("team-atlas.yaml", text);
    expect(problems).toEqual([]);
    expect(documents).toEqual([{ file: "team-atlas.yaml", document: 1, name: "team-atlas", request }]);
  });
});

describe("add and get", () => {
  it("stores a new request as <name>.yaml, owner-only, and reads it back", async () => {
    const { stored, added } = await store.add("atlas", atlas);
    const file = fileIn("atlas.yaml");
    expect(added).toBe(true);
    expect(stored).toEqual({
      name: "atlas",
      spec: atlas,
      generation: 1,
      createdAt: statSync(file).mtime.toISOString(),
      location: file,
    });
    expect(await store.get("atlas")).toEqual(stored);
    expect(readFileSync(file, "utf8")).toBe(manifestText("atlas", atlas));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(store.dir)).toEqual(["atlas.yaml"]);
  });

  it("never replaces a stored request: a second add returns the first, unchanged", async () => {
    const first = await store.add("atlas", atlas);
    const text = readFileSync(fileIn("atlas.yaml"), "utf8");
    const second = await store.add("atlas", { owner: "mallory@example.com" });
    expect(second).toEqual({ stored: first.stored, added: false });
    expect(readFileSync(fileIn("atlas.yaml"), "utf8")).toBe(text);
    expect(readdirSync(store.dir)).toEqual(["atlas.yaml"]);
  });

  it("lets exactly one of two adds at once store its request", async () => {
    const results = await Promise.all([
      store.add("atlas", atlas),
      new FileRequestStore(store.dir).add("atlas", { owner: "bob@example.com" }),
    ]);
    expect(results.map((r) => r.added).sort()).toEqual([false, true]);
    expect(results[0].stored).toEqual(results[1].stored);
  });

  it("finds nothing for a tenant never requested", async () => {
    expect(await store.get("atlas")).toBeUndefined();
    await store.add("borealis", atlas);
    expect(await store.get("atlas")).toBeUndefined();
  });

  // The store reads its files verbatim: "${...}" in a request is the team's text, not a variable.
  it("reads back a request holding ${...} as it was written", async () => {
    const request: TenantRequestInput = { owner: "${HOME}@example.com" };
    expect((await store.add("atlas", request)).stored.spec).toEqual(request);
    expect(await store.list()).toHaveLength(1);
  });
});

describe("list", () => {
  it("reads every request of the folder, sorted by name, passing over what is not the store's", async () => {
    await store.add("zeta", { owner: "z@example.com" });
    await store.add("atlas", atlas);
    for (const other of ["notes.txt", "Team.yaml", "team_x.yaml", "atlas.yml", ".hidden.yaml", "atlas.yaml.123.tmp"])
      writeFileSync(fileIn(other), "not a manifest: [");
    expect((await store.list()).map((r) => [r.name, r.spec])).toEqual([
      ["atlas", atlas],
      ["zeta", { owner: "z@example.com" }],
    ]);
  });

  it("is empty for a folder that does not exist, and does not make it", async () => {
    expect(await store.list()).toEqual([]);
    expect(existsSync(store.dir)).toBe(false);
  });
});

describe("remove", () => {
  it("removes the tenant's file only, and nothing when there is none", async () => {
    await store.add("atlas", atlas);
    await store.add("borealis", atlas);
    await store.remove("atlas");
    await store.remove("atlas");
    await store.remove("cygnus");
    expect(readdirSync(store.dir)).toEqual(["borealis.yaml"]);
  });
});

describe("names that are not DNS labels", () => {
  it.each(["../victim", "a/b", "Atlas", "", "-atlas", "atlas.yaml"])("%j never reach the filesystem", async (name) => {
    // A request where the name would lead, were it joined to the folder.
    const victim = path.join(store.dir, `${name}.yaml`);
    mkdirSync(path.dirname(victim), { recursive: true });
    writeFileSync(victim, manifestText(name, atlas));
    const before = readdirSync(root(), { recursive: true }).sort();
    expect(store.fileOf(name)).toBeUndefined();
    expect(await store.get(name)).toBeUndefined();
    await store.remove(name);
    const refused = await store.add(name, atlas).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RequestInvalidError);
    expect(readFileSync(victim, "utf8")).toBe(manifestText(name, atlas));
    expect(readdirSync(root(), { recursive: true }).sort()).toEqual(before);
  });
});

describe("a broken file", () => {
  it.each<[string, string, string]>([
    [
      "another kind",
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: atlas}\n",
      "must be apiVersion kubespaces.io/v1alpha1, kind Tenant",
    ],
    [
      "another tenant's name",
      manifestText("borealis", atlas),
      "it must hold one Tenant document named atlas, it has borealis",
    ],
    [
      "two documents",
      `${manifestText("atlas", atlas)}---\n${manifestText("atlas", atlas)}`,
      "it must hold one Tenant document named atlas, it has atlas, atlas",
    ],
    ["no document", "# nothing here\n", "it has none"],
    ["YAML that does not parse", "apiVersion: [\n", "not valid YAML"],
  ])("holding %s is an error naming the file, for get and list", async (_, text, why) => {
    mkdirSync(store.dir, { recursive: true });
    const file = fileIn("atlas.yaml");
    writeFileSync(file, text);
    for (const read of [() => store.get("atlas"), () => store.list()]) {
      const error = await read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestInvalidError);
      expect((error as Error).message).toContain(`the stored request ${file} is broken`);
      expect((error as Error).message).toContain(why);
    }
  });
});

describe("atomic writes", () => {
  it.each([
    ["creates a file and its folders", false],
    ["replaces a file", true],
  ])("writeAtomically %s with the mode asked, leaving no temporary file", (_, exists) => {
    const file = path.join(root(), "nested", "deeper", "team-atlas.yaml");
    if (exists) writeAtomically(file, "old\n", 0o644);
    writeAtomically(file, "new\n", 0o600);
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["team-atlas.yaml"]);
  });

  it("writeExclusively writes a new file only, leaving no temporary file", () => {
    const file = path.join(root(), "nested", "team-atlas.yaml");
    expect(writeExclusively(file, "first\n", 0o600)).toBe(true);
    expect(writeExclusively(file, "second\n", 0o600)).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("first\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["team-atlas.yaml"]);
  });
});
