/**
 * The portal's stylesheet and script: real .css and .js files in static/, shipped in the npm
 * package as they are (package.json `files`), read once when the routes are registered and served
 * from the portal's own routes, so that the pages need no inline style or script under the
 * server's Content-Security-Policy.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { PORTAL_PATHS } from "./portalPaths";

/** The folder of the static files, relative to the package root (the same from provider/ and bin/). */
export const PORTAL_STATIC_FOLDER = "provider/server/portal/static";

const packageRoot = path.resolve(__dirname, "../../..");

/** One static file the portal serves. */
export interface PortalAsset {
  /** The path it is served at. */
  readonly route: string;
  /** Its file name in PORTAL_STATIC_FOLDER. */
  readonly file: string;
  /** Its Content-Type. */
  readonly contentType: string;
}

/** Every static file of the portal. */
export const PORTAL_ASSETS: readonly PortalAsset[] = [
  { route: PORTAL_PATHS.stylesheet, file: "portal.css", contentType: "text/css; charset=utf-8" },
  { route: PORTAL_PATHS.script, file: "portal.js", contentType: "text/javascript; charset=utf-8" },
];

/** An asset with its content, read. */
export interface LoadedAsset extends PortalAsset {
  /** The file's bytes. */
  readonly body: Buffer;
}

/** Every asset, read from the package now (once per registration of the routes). */
export function loadPortalAssets(): LoadedAsset[] {
  return PORTAL_ASSETS.map((asset) => ({
    ...asset,
    body: readFileSync(path.join(packageRoot, PORTAL_STATIC_FOLDER, asset.file)),
  }));
}
