/**
 * Tenant files: the KubeSpaces operator's `kubespaces.io/v1alpha1` Tenant manifests, one team's
 * request each, as teams commit them to a GitOps repository. Parsing and checking is pure (no
 * Pulumi), so a CI job can run it on a pull request; the TenantSet component declares the result.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import { validateRequest } from "../model/validateTenant";
import { isUnknownField, TenantValidationError, type InputProblem } from "../model/validationError";
import { TENANT_API_VERSION, TENANT_KIND } from "../tenantResource/tenantResourceNames";
import { isPlainObject } from "../util/plainObject";

/** The apiVersion and kind of a Tenant manifest. */
export const TENANT_MANIFEST = { apiVersion: TENANT_API_VERSION, kind: TENANT_KIND } as const;

/** One Tenant document, where it came from and what it asks for. */
export interface TenantDocument {
  /** The file, as given or found under the folder. */
  readonly file: string;
  /** Its position in the file, from 1. */
  readonly document: number;
  /** `metadata.name`: the tenant's name. */
  readonly name: string;
  /** `spec`: the team's request. */
  readonly request: TenantRequestInput;
}

/** Bad Tenant files: every problem of every document, each naming the file, the document and the field. */
export class TenantFilesError extends Error {
  /** The marker `pulumi.RunError.isInstance` checks, so the CLI prints the message alone. */
  readonly __pulumiRunError = true;

  constructor(readonly problems: readonly string[]) {
    super(
      `Tenant files have ${problems.length === 1 ? "a problem" : `${problems.length} problems`}; nothing was changed for any tenant:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "TenantFilesError";
  }
}

/** The YAML files at `location`: the file itself, or the `.yaml`/`.yml` files of the folder, sorted. */
export function tenantFilePaths(location: string): string[] {
  if (!statSync(location).isDirectory()) return [location];
  return readdirSync(location)
    .filter((entry) => /\.ya?ml$/.test(entry))
    .sort()
    .map((entry) => path.join(location, entry));
}

/** `${name}` in text, replaced from `variables`; an unknown name is a problem. */
function substitute(text: string, variables: Readonly<Record<string, string>>, unknown: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    // Own names only: `in` would find `constructor` or `toString` on Object.prototype.
    if (Object.hasOwn(variables, name)) return variables[name];
    unknown.add(name);
    return whole;
  });
}

interface TenantManifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec?: Record<string, unknown> | null;
}

type ParsedDocument = ReturnType<typeof parseAllDocuments>[number];

/** The document as plain data, or the problem that stops reading it. */
function documentValue(parsed: ParsedDocument, where: string): { value: unknown } | { problem: string } {
  if (parsed.errors.length > 0)
    return { problem: `${where}: not valid YAML (${parsed.errors[0].message.split("\n")[0]})` };
  try {
    return { value: parsed.toJS() };
  } catch (error) {
    // The parser stops aliases that expand too far (an alias bomb) with an error that names no file.
    return {
      problem: `${where}: cannot be read (${error instanceof Error ? error.message : String(error)}); write the values out rather than through aliases`,
    };
  }
}

/** What is wrong with one document's data as a Tenant manifest, if anything; each problem names the field it is about. */
function manifestProblem(value: unknown, where: string): string | undefined {
  // An empty document, e.g. after a trailing `---`, declares nothing.
  if (value === null) return undefined;
  const manifest = (isPlainObject(value) ? value : {}) as Partial<Record<keyof TenantManifest, unknown>>;
  if (manifest.apiVersion !== TENANT_MANIFEST.apiVersion || manifest.kind !== TENANT_MANIFEST.kind) {
    return `${where}: must be apiVersion ${TENANT_MANIFEST.apiVersion}, kind ${TENANT_MANIFEST.kind} (got ${String(manifest.apiVersion)}, ${String(manifest.kind)})`;
  }
  const name = isPlainObject(manifest.metadata) ? manifest.metadata.name : undefined;
  if (name === undefined) return `${where}: metadata.name is required`;
  if (typeof name !== "string")
    return `${where}: metadata.name must be a string (the tenant's name), got ${kindOf(name)}`;
  // `spec:` left empty is null, an empty request; anything else must hold the request's fields.
  if (manifest.spec !== undefined && manifest.spec !== null && !isPlainObject(manifest.spec)) {
    return `${where}: spec must be a mapping of the team's request (owner, resources, limitRange, isolation, vcluster), got ${kindOf(manifest.spec)}`;
  }
  return undefined;
}

/** What YAML gave instead of what was expected, not quoted: a value may be long. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  return isPlainObject(value) ? "a mapping" : `a ${typeof value}`;
}

/**
 * The Tenant documents in `text` (the contents of `file`), or the problems that stop them. `variables`
 * fill `${name}` placeholders; "verbatim" reads the text as it is (a request a door stored).
 */
export function parseTenantDocuments(
  file: string,
  text: string,
  variables: Readonly<Record<string, string>> | "verbatim" = {},
): { documents: TenantDocument[]; problems: string[] } {
  const unknown = new Set<string>();
  // A request a door stored is read back verbatim: `${...}` in it is the team's text, not a variable.
  const substituted = variables === "verbatim" ? text : substitute(text, variables, unknown);
  const problems = [...unknown].map(
    (name) => `${file}: \${${name}} names no variable (variables: ${Object.keys(variables).join(", ") || "none"})`,
  );
  const documents: TenantDocument[] = [];
  parseAllDocuments(substituted).forEach((parsed, index) => {
    const where = `${file}, document ${index + 1}`;
    const read = documentValue(parsed, where);
    const problem = "problem" in read ? read.problem : manifestProblem(read.value, where);
    if (problem) return void problems.push(problem);
    const manifest = (read as { value: TenantManifest | null }).value;
    if (manifest)
      documents.push({
        file,
        document: index + 1,
        name: manifest.metadata.name,
        request: (manifest.spec ?? {}) as TenantRequestInput,
      });
  });
  return { documents, problems };
}

/**
 * Every Tenant document at `location`, each checked as a request under `platform` exactly as the
 * Tenant will check it. Throws TenantFilesError listing every problem of every file.
 */
export function readTenantFiles(
  location: string,
  platform: TenantPlatformInput = {},
  variables: Readonly<Record<string, string>> = {},
): TenantDocument[] {
  const documents: TenantDocument[] = [];
  const problems: string[] = [];
  for (const file of tenantFilePaths(location)) {
    const parsed = parseTenantDocuments(file, readFileSync(file, "utf8"), variables);
    documents.push(...parsed.documents);
    problems.push(...parsed.problems);
  }
  problems.push(...duplicateNames(documents), ...requestProblems(documents, platform));
  if (problems.length > 0) throw new TenantFilesError(problems);
  return documents;
}

function duplicateNames(documents: readonly TenantDocument[]): string[] {
  const first = new Map<string, TenantDocument>();
  return documents.flatMap((doc) => {
    const earlier = first.get(doc.name);
    if (!earlier) {
      first.set(doc.name, doc);
      return [];
    }
    return [
      `${doc.file}, document ${doc.document}: tenant ${doc.name} is already declared in ${earlier.file}, document ${earlier.document}`,
    ];
  });
}

function requestProblems(documents: readonly TenantDocument[], platform: TenantPlatformInput): string[] {
  return documents.flatMap((doc) => {
    try {
      validateRequest(doc.name, doc.request, platform);
      return [];
    } catch (error) {
      if (!(error instanceof TenantValidationError)) throw error;
      return error.problems.map(
        (problem: InputProblem) =>
          `${doc.file}, document ${doc.document} (${doc.name}): ${fieldOf(problem)}: ${problem.message}`,
      );
    }
  });
}

/** Where a problem's field is in a Tenant manifest: the name, the spec or a field of it, or the platform's policy. */
function fieldOf(problem: InputProblem): string {
  // A problem of the request as a whole (an unknown field) also has the empty path.
  if (problem.path === "") return isUnknownField(problem) ? "spec" : "metadata.name";
  return problem.path.startsWith("platform") ? `${problem.path} (the platform's policy)` : `spec.${problem.path}`;
}
