/**
 * `kubectl apply -f deploy/` on a cluster that has nothing of the platform's yet: every object in
 * the files it reads goes into a namespace those files create, or one every cluster has. What
 * needs a namespace the platform makes itself (the shared Gateway's) lies in a folder of its own,
 * which `-f deploy/` without `-R` does not read.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const DEPLOY = "deploy";
/** The namespaces every cluster has. */
const EVERY_CLUSTER = ["default", "kube-system"];

interface Manifest {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}

/** The files `kubectl apply -f deploy/` reads: the folder's own, not its subfolders', of the extensions kubectl takes. */
const appliedFiles = (): string[] =>
  readdirSync(path.join(root, DEPLOY), { withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/.test(entry.name))
    .map((entry) => path.posix.join(DEPLOY, entry.name));

const objectsOf = (files: readonly string[]): { file: string; object: Manifest }[] =>
  files.flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(root, file), "utf8"))
      .map((document) => document.toJS() as Manifest | null)
      .filter((object): object is Manifest => object !== null)
      .map((object) => ({ file, object })),
  );

describe("kubectl apply -f deploy/", () => {
  const objects = objectsOf(appliedFiles());

  it("reads the generated files", () => {
    expect(objects.length).toBeGreaterThan(0);
  });

  it("puts every object in a namespace it creates, or one every cluster has", () => {
    const created = objects
      .filter(({ object }) => object.kind === "Namespace")
      .map(({ object }) => object.metadata.name);
    const homeless = objects
      .filter(({ object }) => object.metadata.namespace !== undefined)
      .filter(({ object }) => ![...created, ...EVERY_CLUSTER].includes(object.metadata.namespace!))
      .map(({ file, object }) => `${file}: ${object.kind} ${object.metadata.namespace}/${object.metadata.name}`);
    expect(homeless).toEqual([]);
  });
});
