/** schema.json, the generated TypeScript modules and the reference's generated blocks match the code. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { generatedFiles } from "../../scripts/generators/generatedFiles";

const root = path.resolve(__dirname, "../..");

it.each(generatedFiles(root).map((f) => [f.path, f] as const))("%s is up to date (run npm run generate)", (_, file) => {
  expect(readFileSync(path.join(root, file.path), "utf8")).toBe(file.content);
});
