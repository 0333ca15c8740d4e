// Makes `require("@kubespaces/pulumi")` resolve to this checkout from anywhere inside it, as it
// does in a user's project: the demo, the end-to-end programs and the dynamic providers' processes
// load the package by name, like a user's program.
import { existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const link = path.join(root, "node_modules", "@kubespaces", "pulumi");
mkdirSync(path.dirname(link), { recursive: true });
if (existsSync(link) || lstatExists(link)) unlinkSync(link);
symlinkSync(path.relative(path.dirname(link), root), link, "dir");

function lstatExists(file) {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
