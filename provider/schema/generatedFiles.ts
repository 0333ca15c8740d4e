/** The files derived from the zod definitions, with their expected content. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { withGeneratedBlocks } from "../docs/readmeBlocks";
import { TENANT_TOKEN } from "../model/tokens";
import { packageSchema } from "./packageSchema";
import { typescriptTypes } from "./typescriptTypes";

/** A generated file: path relative to the repository root, and content. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** Every generated file, for the repository at `root`. */
export function generatedFiles(root: string): GeneratedFile[] {
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const schema = packageSchema(version);
  return [
    { path: "schema.json", content: `${JSON.stringify(schema, null, 2)}\n` },
    { path: "provider/generated/tenantTypes.ts", content: typescriptTypes(schema, TENANT_TOKEN) },
    { path: "README.md", content: withGeneratedBlocks(readFileSync(path.join(root, "README.md"), "utf8")) },
  ];
}
