/**
 * The tenants files the `kubespaces` command keeps: one `kubespaces.io/v1alpha1` Tenant manifest per
 * team, `<name>.yaml` in the tenants folder, exactly as a team would commit it for the Tenant-files
 * door. The embedded tenants program declares a TenantSet over this folder, so what `create` writes
 * is what `up` provisions, and a file removed is a tenant torn down.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import { parseTenantDocuments, tenantFilePaths, TENANT_MANIFEST, type TenantDocument } from "../tenantFiles/tenantDocuments";
import { CliError, EXIT } from "./exitCodes";

/** The file that holds tenant `name`'s request when the command wrote it. */
export const requestFileOf = (dir: string, name: string): string => path.join(dir, `${name}.yaml`);

/** Tenant `name`'s request as a Tenant manifest, the way a team would commit it. */
export function manifestText(name: string, request: TenantRequestInput): string {
  const manifest = { ...TENANT_MANIFEST, metadata: { name }, spec: request };
  return `# Written by \`kubespaces tenant create\`: tenant ${name}'s request.\n${stringify(manifest)}`;
}

/** Every Tenant document in the folder, by name; unparseable files are an error naming them. */
export function readRequests(dir: string): Map<string, TenantDocument> {
  mkdirSync(dir, { recursive: true });
  const requests = new Map<string, TenantDocument>();
  for (const file of tenantFilePaths(dir)) {
    const { documents, problems } = parseTenantDocuments(file, readFileSync(file, "utf8"));
    if (problems.length > 0) throw new CliError(`the tenants folder has a broken file:\n  - ${problems.join("\n  - ")}`, EXIT.error);
    for (const doc of documents) requests.set(doc.name, doc);
  }
  return requests;
}

/**
 * Removes tenant `name`'s request. A document the command did not write (in a file with others) is
 * left for its author to remove, with a message that says so.
 */
export function removeRequest(doc: TenantDocument, dir: string): void {
  if (doc.file !== requestFileOf(dir, doc.name)) {
    throw new CliError(`tenant ${doc.name} is declared in ${doc.file}, document ${doc.document}, beside other documents: remove it there and run the command again`, EXIT.invalid);
  }
  unlinkSync(doc.file);
}

/**
 * A copy of the tenants folder with tenant `name`'s request replaced by `text` (or removed when
 * `text` is undefined): what the folder would hold, for a check or a preview that must not touch
 * the folder other commands read. Call the returned `dispose` when done.
 */
export function proposedFolder(dir: string, name: string, text: string | undefined): { dir: string; dispose: () => void } {
  const copy = mkdtempSync(path.join(os.tmpdir(), "kubespaces-proposed-"));
  cpSync(dir, copy, { recursive: true });
  const file = requestFileOf(copy, name);
  if (text === undefined) rmSync(file, { force: true });
  else writeFileSync(file, text);
  return { dir: copy, dispose: () => rmSync(copy, { recursive: true, force: true }) };
}
