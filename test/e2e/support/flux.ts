/**
 * Flux on the test bed (`testbed.sh flux`: its source-controller and kustomize-controller, and a
 * Git server): starting it, its objects as a platform writes them, asking it to reconcile now as
 * `flux reconcile` does, and reading what it reports in a Ready condition.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseAllDocuments, stringify } from "yaml";
import { kubectl } from "./hostKubectl";
import { REPO_ROOT } from "./testbed";

/** Flux's namespace, where its objects of the platform live. */
export const FLUX_NAMESPACE = "flux-system";

/**
 * Starts Flux and the Git server on the test bed when they do not run (building the controllers
 * and installing the Git server the first time), makes each bare repository named, and returns the
 * Git server's base URL: repository NAME is at `<url>/NAME.git`. `testbed.sh down` stops them.
 */
export function testbedFlux(...repositories: string[]): string {
  const script = path.join(REPO_ROOT, "test/testbed/testbed.sh");
  return execFileSync("bash", [script, "flux", ...repositories], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1)!;
}

/** A Kubernetes object as YAML or JSON gives it. */
export type Manifest = { kind: string; metadata: { name: string; namespace?: string } & Record<string, any> } & Record<
  string,
  any
>;

/** The documents of the docs' Flux example (examples/flux/tenants.yaml), its Git URL replaced by `url`. */
export function fluxExample(url: string): Manifest[] {
  const text = readFileSync(path.join(REPO_ROOT, "examples/flux/tenants.yaml"), "utf8");
  const documents = parseAllDocuments(text).map((document) => document.toJS() as Manifest);
  for (const document of documents) if (document.kind === "GitRepository") document.spec.url = url;
  return documents;
}

/** Applies `manifests` as the test bed's admin (the platform team installing them). */
export async function applyManifests(manifests: readonly object[]): Promise<void> {
  await kubectl(undefined, "apply", "-f", manifestFile(manifests));
}

/** `manifests` as YAML documents in a temporary file, for kubectl's `-f`; returns its path. */
export function manifestFile(manifests: readonly object[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-flux-")), "manifests.yaml");
  writeFileSync(file, manifests.map((manifest) => stringify(manifest)).join("---\n"));
  return file;
}

/** Asks Flux to reconcile `kind/name` now, as `flux reconcile` does: by its requestedAt annotation. */
export async function reconcileNow(kind: "gitrepository" | "kustomization", name: string): Promise<void> {
  await kubectl(
    undefined,
    "annotate",
    "--overwrite",
    "-n",
    FLUX_NAMESPACE,
    kind,
    name,
    `reconcile.fluxcd.io/requestedAt=${new Date().toISOString()}`,
  );
}

/** A condition as Flux writes it. */
export interface FluxCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
}

/** What a Flux object reports: its Ready condition (none yet: undefined) and the revision it last applied or fetched. */
export interface FluxReport {
  readonly ready?: FluxCondition;
  /** A Kustomization's `lastAppliedRevision`, a GitRepository's artifact revision (`main@sha1:<id>`). */
  readonly revision?: string;
}

/** What `kind/name` in Flux's namespace reports now. */
export async function fluxReport(kind: "gitrepository" | "kustomization", name: string): Promise<FluxReport> {
  const { stdout } = await kubectl(undefined, "get", "-n", FLUX_NAMESPACE, kind, name, "-o", "json");
  const status = (JSON.parse(stdout) as { status?: Record<string, any> }).status ?? {};
  return {
    ready: (status.conditions as FluxCondition[] | undefined)?.find((condition) => condition.type === "Ready"),
    revision: kind === "kustomization" ? status.lastAppliedRevision : status.artifact?.revision,
  };
}
