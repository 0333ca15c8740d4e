/** The tenants folder the `kubespaces` command keeps: one Tenant manifest per tenant, written and removed safely. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CliError, EXIT } from "../../provider/cli/exitCodes";
import { manifestText, proposedFolder, readRequests, removeRequest, requestFileOf } from "../../provider/cli/requestFiles";
import { writeAtomically } from "../../provider/util/atomicFile";
import type { TenantRequestInput } from "../../provider/model/tenantRequestSchema";
import { parseTenantDocuments } from "../../provider/tenantFiles/tenantDocuments";
import { thrownBy } from "./support/thrown";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-requests-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const atlas: TenantRequestInput = { owner: "alice@example.com" };

describe("manifestText", () => {
  it.each<[string, TenantRequestInput]>([
    ["an owner alone", atlas],
    ["every request field", { owner: "bob@example.com", resources: { cpu: "8", memory: "16Gi", storage: "50Gi" }, isolation: { podSecurity: "restricted" }, vcluster: { kubernetesVersion: "v1.33" } }],
    ["strings YAML would read as numbers, booleans or null", { owner: "null", resources: { cpu: "1e3", memory: "0x10", storage: "true" } }],
    ["strings with YAML's special characters", { owner: "a: b # c, [d] {e} 'quoted' \"twice\"" }],
  ])("round-trips %s through the Tenant files parser", (_, request) => {
    const text = manifestText("team-atlas", request);
    expect(text.startsWith("# Written by `kubespaces tenant create`")).toBe(true);
    const { documents, problems } = parseTenantDocuments("team-atlas.yaml", text);
    expect(problems).toEqual([]);
    expect(documents).toEqual([{ file: "team-atlas.yaml", document: 1, name: "team-atlas", request }]);
  });
});

describe("readRequests", () => {
  it("reads every Tenant document of the folder by name, one file per tenant or several per file", () => {
    writeFileSync(requestFileOf(dir, "team-atlas"), manifestText("team-atlas", atlas));
    writeFileSync(path.join(dir, "teams.yaml"), `${manifestText("team-borealis", { owner: "b@example.com" })}---\n${manifestText("team-cygnus", { owner: "c@example.com" })}`);
    writeFileSync(path.join(dir, "notes.txt"), "not a manifest");
    const requests = readRequests(dir);
    expect([...requests.keys()].sort()).toEqual(["team-atlas", "team-borealis", "team-cygnus"]);
    expect(requests.get("team-cygnus")).toEqual({ file: path.join(dir, "teams.yaml"), document: 2, name: "team-cygnus", request: { owner: "c@example.com" } });
  });

  it("creates a missing folder and finds nothing in it", () => {
    const missing = path.join(dir, "tenants", "tenants");
    expect(readRequests(missing).size).toBe(0);
    expect(statSync(missing).isDirectory()).toBe(true);
  });

  it("refuses a broken file, naming it", () => {
    const broken = path.join(dir, "broken.yaml");
    writeFileSync(broken, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n");
    const error = thrownBy(() => readRequests(dir));
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe(EXIT.error);
    expect(error.message).toContain(`${broken}, document 1: must be apiVersion kubespaces.io/v1alpha1, kind Tenant`);
  });
});

describe("proposedFolder", () => {
  beforeEach(() => {
    writeFileSync(requestFileOf(dir, "team-atlas"), manifestText("team-atlas", atlas));
  });

  it.each<[string, string, string | undefined, string[]]>([
    ["adds a request", "team-borealis", manifestText("team-borealis", { owner: "b@example.com" }), ["team-atlas", "team-borealis"]],
    ["replaces a request", "team-atlas", manifestText("team-atlas", { owner: "new@example.com" }), ["team-atlas"]],
    ["removes a request", "team-atlas", undefined, []],
    ["removes a request that is not there", "team-zeta", undefined, ["team-atlas"]],
  ])("%s in a copy, leaving the folder as it was", (_, name, text, names) => {
    const before = readFileSync(requestFileOf(dir, "team-atlas"), "utf8");
    const proposed = proposedFolder(dir, name, text);
    try {
      expect(proposed.dir).not.toBe(dir);
      expect([...readRequests(proposed.dir).keys()].sort()).toEqual(names);
      if (text !== undefined) expect(readFileSync(requestFileOf(proposed.dir, name), "utf8")).toBe(text);
      expect(readdirSync(dir)).toEqual(["team-atlas.yaml"]);
      expect(readFileSync(requestFileOf(dir, "team-atlas"), "utf8")).toBe(before);
    } finally {
      proposed.dispose();
    }
    expect(existsSync(proposed.dir)).toBe(false);
  });
});

describe("removeRequest", () => {
  it("removes a request the command wrote", () => {
    writeFileSync(requestFileOf(dir, "team-atlas"), manifestText("team-atlas", atlas));
    removeRequest(readRequests(dir).get("team-atlas")!, dir);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a document in a file with others, naming the file and leaving it", () => {
    const shared = path.join(dir, "teams.yaml");
    const text = `${manifestText("team-atlas", atlas)}---\n${manifestText("team-borealis", { owner: "b@example.com" })}`;
    writeFileSync(shared, text);
    const error = thrownBy(() => removeRequest(readRequests(dir).get("team-borealis")!, dir));
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).code).toBe(EXIT.invalid);
    expect(error.message).toContain(`tenant team-borealis is declared in ${shared}, document 2`);
    expect(readFileSync(shared, "utf8")).toBe(text);
  });
});

describe("writeAtomically", () => {
  it.each([
    ["creates a file and its folders", false],
    ["replaces a file", true],
  ])("%s with the mode asked, leaving no temporary file", (_, exists) => {
    const file = path.join(dir, "nested", "deeper", "team-atlas.yaml");
    if (exists) writeAtomically(file, "old\n", 0o644);
    writeAtomically(file, "new\n", 0o600);
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(["team-atlas.yaml"]);
  });
});
