/** `npm run docs`: rewrites the README's generated blocks (input table, safe override paths). */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withGeneratedBlocks } from "../provider/docs/readmeBlocks";

const readmePath = path.resolve(__dirname, "../README.md");
const before = readFileSync(readmePath, "utf8");
const after = withGeneratedBlocks(before);
writeFileSync(readmePath, after);
console.log(before === after ? "README.md generated blocks are up to date" : "README.md generated blocks rewritten");
