/**
 * `npx tsx scripts/crdBaseline.ts <commit>`: writes the baseline the CRD versioning test compares
 * against (test/expected/crd-baseline/): each CRD's served `v1alpha1` openAPIV3Schema as
 * `deploy/tenant-crd.yaml` held it at `<commit>`, a released version. Run it only when a release
 * is cut (test/expected/crd-baseline/README.md); between releases the baseline stays put, so that
 * every change since the release is held to it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { TENANT_VERSION } from "../provider/contracts/tenantResourceNames";

const root = path.resolve(__dirname, "..");
/** Where the baseline lives, relative to the root. */
export const CRD_BASELINE_DIR = "test/expected/crd-baseline";
/** The file of the CRDs in every released version. */
const CRD_FILE = "deploy/tenant-crd.yaml";

/** The baseline file of CRD `name`, relative to the root. */
export const baselineFile = (name: string): string => `${CRD_BASELINE_DIR}/${name}.${TENANT_VERSION}.yaml`;

/** Each CRD's name and its served `v1alpha1` schema, in `yamlText` (a file of CRDs). */
export function servedSchemas(yamlText: string): { readonly name: string; readonly schema: unknown }[] {
  return parseAllDocuments(yamlText)
    .map((document) => document.toJS())
    .filter((object) => object?.kind === "CustomResourceDefinition")
    .map((crd) => {
      const version = crd.spec.versions.find(
        (candidate: { name: string; served: boolean }) => candidate.name === TENANT_VERSION && candidate.served,
      );
      if (!version) throw new Error(`${crd.metadata.name} serves no ${TENANT_VERSION}`);
      return { name: crd.metadata.name as string, schema: version.schema.openAPIV3Schema };
    });
}

function main(commit: string | undefined): void {
  if (!commit) throw new Error("usage: npx tsx scripts/crdBaseline.ts <commit of the release>");
  const full = execFileSync("git", ["rev-parse", "--verify", `${commit}^{commit}`], { cwd: root, encoding: "utf8" });
  const text = execFileSync("git", ["show", `${commit}:${CRD_FILE}`], { cwd: root, encoding: "utf8" });
  mkdirSync(path.join(root, CRD_BASELINE_DIR), { recursive: true });
  for (const { name, schema } of servedSchemas(text)) {
    const header = [
      `# The served ${TENANT_VERSION} openAPIV3Schema of ${name}, as ${CRD_FILE} held it at commit ${full.trim()}.`,
      `# Written by \`npx tsx scripts/crdBaseline.ts ${commit}\`; never edit it by hand (README.md says when to move it).`,
    ].join("\n");
    writeFileSync(path.join(root, baselineFile(name)), `${header}\n${stringify(schema, { lineWidth: 0 })}`);
    console.log(`${baselineFile(name)}: written`);
  }
}

if (require.main === module) main(process.argv[2]);
