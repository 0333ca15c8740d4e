/**
 * `npm run generate`: writes everything derived from the zod definitions: schema.json, the
 * TypeScript input and output types (provider/generated/tenantTypes.ts), the smallest quota the
 * command's help quotes (provider/generated/defaultMinimumQuota.ts), the generated blocks of
 * docs/reference.md, the deploy/ files (the server's Helm chart among them), the image's build-context ignore files (.containerignore,
 * .dockerignore) and the API's OpenAPI document (docs/openapi.json). A unit test fails when any of them is stale.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { generatedFiles } from "./generators/generatedFiles";

const root = path.resolve(__dirname, "..");
for (const file of generatedFiles(root)) {
  const target = path.join(root, file.path);
  const before = readIfExists(target);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, file.content);
  console.log(`${file.path}: ${before === file.content ? "up to date" : "written"}`);
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
