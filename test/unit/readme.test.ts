/** The README's generated blocks match the code (run `npm run docs` after changing inputs). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { withGeneratedBlocks } from "../../provider/docs/readmeBlocks";

it("README.md's input table and safe override paths are up to date", () => {
  const readme = readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");
  expect(withGeneratedBlocks(readme)).toBe(readme);
});
