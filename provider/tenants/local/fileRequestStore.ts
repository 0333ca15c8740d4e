/**
 * The command's request store: one `kubespaces.io/v1alpha1` Tenant manifest per tenant,
 * `<name>.yaml` in a folder, exactly as a team would commit it for the Tenant-files door. Only
 * files named after a DNS label are the store's; anything else in the folder is left alone.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { DNS_LABEL } from "../../model/tenantArgsSchema";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { TENANT_MANIFEST } from "../../contracts/tenantManifest";
import { parseTenantDocuments } from "../../tenantFiles/tenantDocuments";
import { writeExclusively } from "../../util/atomicFile";
import type { RequestStore, StoredRequest } from "../ports";
import { RequestInvalidError } from "../tenantsErrors";

/** Tenant `name`'s request as a Tenant manifest, the way a team would commit it. */
export function manifestText(name: string, request: TenantRequestInput): string {
  const manifest = { ...TENANT_MANIFEST, metadata: { name }, spec: request };
  return `# Written by kubespaces: tenant ${name}'s request.\n${stringify(manifest)}`;
}

/** Requests as files in `dir`. */
export class FileRequestStore implements RequestStore {
  constructor(readonly dir: string) {}

  /** The file of tenant `name`'s request; undefined for a name that is not a DNS label (never a path elsewhere). */
  fileOf(name: string): string | undefined {
    return DNS_LABEL.test(name) ? path.join(this.dir, `${name}.yaml`) : undefined;
  }

  async get(name: string): Promise<StoredRequest | undefined> {
    const file = this.fileOf(name);
    if (!file) return undefined;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return this.parse(name, file, text);
  }

  async list(): Promise<StoredRequest[]> {
    let entries: string[];
    try {
      entries = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const names = entries.filter((entry) => entry.endsWith(".yaml")).map((entry) => entry.slice(0, -".yaml".length));
    const stored = await Promise.all(names.filter((name) => DNS_LABEL.test(name)).map((name) => this.get(name)));
    return stored.filter((request) => request !== undefined).sort((a, b) => a.name.localeCompare(b.name));
  }

  async add(name: string, spec: TenantRequestInput): Promise<{ stored: StoredRequest; added: boolean }> {
    const file = this.fileOf(name);
    if (!file) throw new RequestInvalidError(`tenant name "${name}" is not a DNS label`);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const added = writeExclusively(file, manifestText(name, spec), 0o600);
    const stored = await this.get(name);
    if (!stored) throw new Error(`request file ${file} disappeared while it was written`);
    return { stored, added };
  }

  async remove(name: string): Promise<void> {
    const file = this.fileOf(name);
    if (!file) return;
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  /** The one Tenant document of `file`, which must be named `name`. */
  private parse(name: string, file: string, text: string): StoredRequest {
    const { documents, problems } = parseTenantDocuments(file, text, "verbatim");
    if (problems.length === 0 && documents.length === 1 && documents[0].name === name) {
      return {
        name,
        spec: documents[0].request,
        generation: 1,
        createdAt: statSync(file).mtime.toISOString(),
        location: file,
      };
    }
    const why =
      problems.length > 0
        ? problems.join("; ")
        : `it must hold one Tenant document named ${name}, it has ${documents.map((d) => d.name).join(", ") || "none"}`;
    throw new RequestInvalidError(`the stored request ${file} is broken: ${why}; fix or remove the file`, problems);
  }
}
