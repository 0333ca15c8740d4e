/** Tenant files: the operator's Tenant manifests as requests, checked like any request, and the TenantSet that declares them. */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { TenantSet } from "../../provider/index";
import { readTenantFiles, TenantFilesError } from "../../provider/validation";
import { programEach, settle } from "./support/pulumiMocks";
import { thrownBy } from "./support/thrown";

const manifest = (name: string, spec: string) =>
  `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
const atlas = manifest(
  "team-atlas",
  '  owner: alice@example.com\n  resources: { cpu: "8", memory: 16Gi, storage: 50Gi }\n',
);
const borealis = manifest("team-borealis", "  owner: bob@example.com\n");

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A folder holding `files` (name to text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-tenants-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("readTenantFiles", () => {
  it("reads one file per team and several documents per file, in file order", () => {
    const dir = folder({
      "b-many.yaml": `${borealis}---\n${manifest("team-cygnus", "  owner: c@example.com\n")}---\n`,
      "a-atlas.yml": atlas,
      "notes.txt": "ignored",
    });
    const documents = readTenantFiles(dir);
    expect(documents.map((d) => [path.basename(d.file), d.document, d.name])).toEqual([
      ["a-atlas.yml", 1, "team-atlas"],
      ["b-many.yaml", 1, "team-borealis"],
      ["b-many.yaml", 2, "team-cygnus"],
    ]);
    expect(documents[0].request).toEqual({
      owner: "alice@example.com",
      resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
    });
  });

  it("reads the example stack's files", () => {
    const example = path.join(__dirname, "../../examples/typescript/tenant-files/tenants");
    const documents = readTenantFiles(example, { quota: { ceilings: { cpu: "16" } } }, { OWNER_DOMAIN: "example.org" });
    expect(documents.map((d) => [d.name, d.request.owner])).toEqual([
      ["team-borealis", "bob@example.org"],
      ["team-cygnus", "carol@example.org"],
      ["team-atlas", "alice@example.org"],
    ]);
  });

  it("fills ${name} placeholders from the variables", () => {
    const dir = folder({ "atlas.yaml": manifest("team-atlas", "  owner: ${OWNER}\n") });
    expect(readTenantFiles(dir, {}, { OWNER: "alice@example.com" })[0].request).toEqual({ owner: "alice@example.com" });
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])(
    "reports ${%s} as naming no variable, not as a property every object has",
    (name) => {
      const dir = folder({ "atlas.yaml": manifest("team-atlas", `  owner: \${${name}}\n`) });
      const error = thrownBy(() => readTenantFiles(dir, {}, { OWNER: "alice@example.com" })) as TenantFilesError;
      expect(error).toBeInstanceOf(TenantFilesError);
      expect(error.problems).toEqual([
        `${path.join(dir, "atlas.yaml")}: \${${name}} names no variable (variables: OWNER)`,
      ]);
    },
  );

  it("names the file of an alias bomb, which the parser stops, and still reports the other files", () => {
    // Each level holds nine aliases of the one before: seven short lines that would expand to 9^7 nodes.
    const levels = [..."abcdefg"].map(
      (level, i) =>
        `${level}: &${level} [${Array(9)
          .fill(i === 0 ? "x" : `*${"abcdefg"[i - 1]}`)
          .join(", ")}]`,
    );
    const dir = folder({
      "atlas.yaml": manifest("team-atlas", '  owner: ""\n'),
      "bomb.yaml": `${manifest("team-bomb", "  owner: b@example.com\n")}${levels.join("\n")}\n`,
    });
    const error = thrownBy(() => readTenantFiles(dir)) as TenantFilesError;
    expect(error).toBeInstanceOf(TenantFilesError);
    expect(error.problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${escapeRegExp(path.join(dir, "bomb.yaml"))}, document 1: cannot be read \\(Excessive alias count`,
        ),
      ),
      `${path.join(dir, "atlas.yaml")}, document 1 (team-atlas): spec.owner: must not be empty (got "")`,
    ]);
  });

  it.each([
    ["a text", "spec: team-atlas wants a cluster", "a string"],
    ["a list", "spec: [owner, alice@example.com]", "a list"],
    ["a number", "spec: 42", "a number"],
  ])("blames spec, not metadata.name, for a spec that is %s", (_, spec, got) => {
    const dir = folder({
      "atlas.yaml": `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: team-atlas\n${spec}\n`,
    });
    const error = thrownBy(() => readTenantFiles(dir)) as TenantFilesError;
    expect(error.problems).toEqual([
      `${path.join(dir, "atlas.yaml")}, document 1: spec must be a mapping of the team's request (owner, resources, limitRange, isolation, vcluster, sleep, expiresAt), got ${got}`,
    ]);
  });

  it.each([
    ["missing", "metadata: { labels: { a: b } }", "metadata.name is required"],
    ["a number", "metadata: { name: 42 }", "metadata.name must be a string (the tenant's name), got a number"],
    [
      "a mapping",
      "metadata: { name: { first: team } }",
      "metadata.name must be a string (the tenant's name), got a mapping",
    ],
  ])("says what is wrong with a metadata.name that is %s", (_, metadata, problem) => {
    const dir = folder({
      "atlas.yaml": `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\n${metadata}\nspec: { owner: a }\n`,
    });
    const error = thrownBy(() => readTenantFiles(dir)) as TenantFilesError;
    expect(error.problems).toEqual([`${path.join(dir, "atlas.yaml")}, document 1: ${problem}`]);
  });

  it("reads an empty spec as an empty request", () => {
    const dir = folder({
      "atlas.yaml": "apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: team-atlas\nspec:\n",
    });
    expect((thrownBy(() => readTenantFiles(dir)) as TenantFilesError).problems).toEqual([
      `${path.join(dir, "atlas.yaml")}, document 1 (team-atlas): spec.owner: is required`,
    ]);
  });

  it("refuses bad documents naming the file, the document and the field, all at once", () => {
    const dir = folder({
      "atlas.yaml": atlas,
      "bad.yaml": [
        manifest("team-greedy", '  owner: g@example.com\n  resources: { cpu: "64" }\n'),
        manifest("team-sneaky", "  owner: s@example.com\n  platform: { allowUnsafeOverrides: true }\n"),
        "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n",
        manifest("team-atlas", "  owner: dup@example.com\n"),
        manifest("team-typo", "  owner: ${OWNR}\n"),
      ].join("---\n"),
    });
    const error = thrownBy(() => readTenantFiles(dir, { quota: { ceilings: { cpu: "16" } } })) as TenantFilesError;
    expect(error).toBeInstanceOf(TenantFilesError);
    const bad = path.join(dir, "bad.yaml");
    expect(error.problems).toEqual(
      expect.arrayContaining([
        `${bad}: \${OWNR} names no variable (variables: none)`,
        `${bad}, document 3: must be apiVersion kubespaces.io/v1alpha1, kind Tenant (got v1, ConfigMap)`,
        `${bad}, document 4: tenant team-atlas is already declared in ${path.join(dir, "atlas.yaml")}, document 1`,
        `${bad}, document 1 (team-greedy): spec.resources.cpu: 64 is above the platform's ceiling (platform.quota.ceilings.cpu: 16)`,
        expect.stringMatching(/^.*bad\.yaml, document 2 \(team-sneaky\): spec: unknown field\(s\) "platform"/),
      ]),
    );
    expect(error.message).toContain("nothing was changed for any tenant");
  });

  it("reports an override that is no quantity as a problem of its file and field, beside the other files' problems", () => {
    const dir = folder({
      "a-volume.yaml": manifest(
        "team-volume",
        "  owner: v@example.com\n  vcluster: { valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { size: lots } } } } } }\n",
      ),
      "b-owner.yaml": manifest("team-owner", '  owner: ""\n'),
    });
    const error = thrownBy(() => readTenantFiles(dir)) as TenantFilesError;
    expect(error).toBeInstanceOf(TenantFilesError);
    expect(error.problems).toEqual([
      `${path.join(dir, "a-volume.yaml")}, document 1 (team-volume): spec.vcluster.valuesOverrides.controlPlane.statefulSet.persistence.volumeClaim.size: must be a Kubernetes quantity such as 500m, 2, 1.5Gi or 512Mi (got "lots")`,
      `${path.join(dir, "b-owner.yaml")}, document 1 (team-owner): spec.owner: must not be empty (got "")`,
    ]);
  });
});

describe("TenantSet", () => {
  const registered = programEach();

  it("declares one Tenant per document, under the set, with the platform's policy", async () => {
    const dir = folder({ "teams.yaml": `${atlas}---\n${borealis}` });
    const set = new TenantSet("tenants", { path: dir, platform: { namespacePrefix: "teams-" } });
    await settle();
    const tenants = registered()
      .filter((r) => r.type === "kubespaces:index:Tenant")
      .map((r) => r.name);
    expect(tenants.sort()).toEqual(["team-atlas", "team-borealis"]);
    expect(registered().find((r) => r.name === "team-atlas-namespace")?.inputs.metadata.name).toBe("teams-team-atlas");
    expect(Object.keys(set.tenants).sort()).toEqual(["team-atlas", "team-borealis"]);
  });

  // A list holding an Output: the types forbid it, JavaScript and other languages may not.
  it("leaves the policy's Outputs, a list holding one included, to each Tenant", async () => {
    const dir = folder({ "atlas.yaml": atlas });
    const apiServerCidrs = [pulumi.output("10.0.0.1/32")] as never;
    new TenantSet("tenants", {
      path: dir,
      platform: { network: { apiServerCidrs }, namespacePrefix: pulumi.output("teams-") },
    });
    await settle();
    expect(registered().find((r) => r.name === "team-atlas-namespace")?.inputs.metadata.name).toBe("teams-team-atlas");
  });

  it("registers nothing at all when one document is bad", async () => {
    const dir = folder({ "atlas.yaml": atlas, "bad.yaml": manifest("team-bad", '  owner: ""\n') });
    expect(() => new TenantSet("tenants", { path: dir })).toThrow(
      "bad.yaml, document 1 (team-bad): spec.owner: must not be empty",
    );
    await settle();
    expect(registered()).toEqual([]);
  });

  it("reads a single file as well as a folder", () => {
    const dir = folder({});
    mkdirSync(path.join(dir, "nested"));
    writeFileSync(path.join(dir, "nested", "one.yaml"), atlas);
    expect(readTenantFiles(path.join(dir, "nested", "one.yaml")).map((d) => d.name)).toEqual(["team-atlas"]);
  });
});
