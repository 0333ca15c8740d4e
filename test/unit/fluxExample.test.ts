/**
 * The Flux example of docs/self-service.md is examples/flux/tenants.yaml, which the GitOps
 * end-to-end test (test/e2e/gitops.test.ts) applies as written: the two must not drift apart, and
 * the ServiceAccount it applies Tenants as is the one the docs tell the platform to name in
 * `adminUsers`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";

const root = path.resolve(__dirname, "../..");
const example = readFileSync(path.join(root, "examples/flux/tenants.yaml"), "utf8");
const docs = readFileSync(path.join(root, "docs/self-service.md"), "utf8");

/** The fenced YAML blocks of a Markdown text, each without its fences. */
const yamlBlocks = (text: string): string[] => [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

/** The example's documents of `kind`. */
const documentsOf = (kind: string) =>
  parseAllDocuments(example)
    .map((document) => document.toJS() as { kind: string; metadata: { name: string; namespace?: string }; spec?: any })
    .filter((document) => document.kind === kind);

describe("the docs' Flux example", () => {
  it("is examples/flux/tenants.yaml, byte for byte", () => {
    expect(yamlBlocks(docs).filter((block) => block.includes("kustomize.toolkit.fluxcd.io"))).toEqual([example]);
  });

  it("applies as the ServiceAccount it binds to the requester role and the docs name in adminUsers", () => {
    const [account] = documentsOf("ServiceAccount");
    const user = `system:serviceaccount:${account.metadata.namespace}:${account.metadata.name}`;
    expect(documentsOf("Kustomization").map((k) => k.spec.serviceAccountName)).toEqual([account.metadata.name]);
    const [binding] = documentsOf("ClusterRoleBinding") as any[];
    expect(binding.roleRef.name).toBe("kubespaces-tenant-requester");
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", ...account.metadata }]);
    expect(docs).toContain(`adminUsers: [${JSON.stringify(user)}]`);
  });
});
