// Makes `require("@kubespaces/pulumi")` resolve to this checkout from anywhere inside it, as it
// does in a user's project: the demo, the end-to-end programs and the dynamic providers' processes
// load the package by name, like a user's program. And puts the package's `kubespaces` binary in
// node_modules/.bin, so `npx kubespaces` runs it here as it does in a project that installed it.
import { chmodSync, existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Replaces whatever is at `link` with a relative symbolic link to `target`. */
function relink(target, link) {
  mkdirSync(path.dirname(link), { recursive: true });
  if (existsSync(link) || lstatExists(link)) unlinkSync(link);
  symlinkSync(path.relative(path.dirname(link), target), link);
}

function lstatExists(file) {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

relink(root, path.join(root, "node_modules", "@kubespaces", "pulumi"));
const binary = path.join(root, "bin", "cli", "main.js");
if (existsSync(binary)) chmodSync(binary, 0o755);
relink(binary, path.join(root, "node_modules", ".bin", "kubespaces"));
