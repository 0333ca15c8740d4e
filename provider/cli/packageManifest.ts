/**
 * The package's own manifest (package.json, two folders up from cli/ in the sources and in bin/
 * alike): the command's version, and the versions of what it pins.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

/** What the command reads of package.json. */
export interface PackageManifest {
  /** The package's version: the command's. */
  readonly version: string;
  /** The dependencies, each at the version the package pins. */
  readonly dependencies: Readonly<Record<string, string>>;
}

/** The package's manifest. */
export function packageManifest(): PackageManifest {
  return JSON.parse(readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as PackageManifest;
}
