/**
 * The CRDs' versioning plan, held: `v1alpha1` has one stored version and no conversion webhook, so
 * its schema only ever adds to what the last release served (test/expected/crd-baseline/). The
 * comparer is tested on small schema pairs first, each kind of change that breaks and each that
 * passes, so that a baseline comparison that passes means something.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { TENANT_VERSION } from "../../provider/contracts/tenantResourceNames";
import { installOptions } from "../../provider/tenantResource/installOptions";
import type { KubeObject } from "../../provider/tenantResource/kubeObject";
import { tenantResourceInstallation } from "../../provider/tenantResource/tenantResourceInstallation";
import { baselineFile } from "../../scripts/crdBaseline";
import { NEW_SINCE_BASELINE, REVIEWED_VALIDATIONS } from "../expected/crd-baseline/reviewedValidations";
import { nonAdditiveChanges, type SchemaNode } from "./support/additiveSchemaChanges";

const root = path.resolve(__dirname, "../..");

/** The v1alpha1 version of `crd`, as the code generates it now. */
function servedVersion(crd: KubeObject): { served: boolean; storage: boolean; schema: SchemaNode } | undefined {
  const versions = (crd.spec as { versions: Record<string, any>[] }).versions;
  const version = versions.find((candidate) => candidate.name === TENANT_VERSION);
  if (!version) return undefined;
  const { served, storage } = version;
  // A JSON round trip: the schema as the API server gets it (no undefined fields).
  return { served, storage, schema: JSON.parse(JSON.stringify(version.schema.openAPIV3Schema)) };
}

/** The CRDs as the default installation makes them: what deploy/tenant-crd.yaml holds. */
const crds = tenantResourceInstallation(installOptions()).crd.map(
  ({ object }) => [object.metadata.name, object] as const,
);

describe("the CRDs' served v1alpha1 schemas only add to the last release's (test/expected/crd-baseline/)", () => {
  it.each(crds)("%s: no change since the baseline is other than additive", (name, crd) => {
    const file = path.join(root, baselineFile(name));
    // A CRD the release did not have has no baseline, and must be named as new.
    expect(existsSync(file) || NEW_SINCE_BASELINE.includes(name), `${name} has no baseline`).toBe(true);
    if (!existsSync(file)) return;
    const baseline = parse(readFileSync(file, "utf8")) as SchemaNode;
    const current = servedVersion(crd)!.schema;
    expect(nonAdditiveChanges(baseline, current, REVIEWED_VALIDATIONS[name] ?? [])).toEqual([]);
  });

  it.each(crds)("%s: v1alpha1 is still served and stored", (_, crd) => {
    expect(servedVersion(crd)).toMatchObject({ served: true, storage: true });
  });

  it.each(NEW_SINCE_BASELINE)("%s, named as new, has no baseline yet and is one the code makes", (name) => {
    expect(existsSync(path.join(root, baselineFile(name)))).toBe(false);
    expect(crds.map(([crd]) => crd)).toContain(name);
  });

  it.each(Object.entries(REVIEWED_VALIDATIONS))("%s: each reviewed rule says why", (_, entries) => {
    for (const entry of entries) expect(entry.reason.length).toBeGreaterThan(20);
  });
});

/** An object schema of `properties`, `required` among them. */
const object = (properties: Record<string, SchemaNode>, extra: Partial<SchemaNode> = {}): SchemaNode => ({
  type: "object",
  properties,
  ...extra,
});
const text: SchemaNode = { type: "string" };
const spec = (properties: Record<string, SchemaNode>, extra: Partial<SchemaNode> = {}) =>
  object({ spec: object(properties, extra) });

describe("nonAdditiveChanges", () => {
  const owner = { owner: { type: "string", maxLength: 253 } };

  it("passes an identical schema and a new optional property", () => {
    expect(nonAdditiveChanges(spec(owner), spec(owner))).toEqual([]);
    expect(nonAdditiveChanges(spec(owner), spec({ ...owner, team: text }))).toEqual([]);
  });

  it("passes a new object whose own fields are required: all of it is new", () => {
    const expiry = object({ generation: { type: "integer" } }, { required: ["generation"] });
    expect(nonAdditiveChanges(spec(owner), spec({ ...owner, expiry }))).toEqual([]);
  });

  it("fails a removed property", () => {
    expect(nonAdditiveChanges(spec({ ...owner, team: text }), spec(owner))).toEqual([
      { path: "spec.team", change: "property removed" },
    ]);
  });

  it("fails a changed type, and does not walk below it", () => {
    expect(nonAdditiveChanges(spec({ cpu: text }), spec({ cpu: { type: "integer" } }))).toEqual([
      { path: "spec.cpu", change: 'type changed from "string" to "integer"' },
    ]);
    expect(nonAdditiveChanges(spec({ limits: object({ cpu: text }) }), spec({ limits: text }))).toEqual([
      { path: "spec.limits", change: 'type changed from "object" to "string"' },
    ]);
  });

  it("fails a new entry in required, for a new property or an existing one", () => {
    expect(nonAdditiveChanges(spec(owner), spec({ ...owner, team: text }, { required: ["team"] }))).toEqual([
      { path: "spec", change: "newly required: team" },
    ]);
    expect(nonAdditiveChanges(spec(owner), spec(owner, { required: ["owner"] }))).toEqual([
      { path: "spec", change: "newly required: owner" },
    ]);
    expect(nonAdditiveChanges(spec(owner, { required: ["owner"] }), spec(owner))).toEqual([]);
  });

  it("fails a removed enum value and an enum put on a free field; passes a new value", () => {
    const level = (values: string[]) => spec({ level: { type: "string", enum: values } });
    expect(nonAdditiveChanges(level(["baseline", "restricted"]), level(["restricted"]))).toEqual([
      { path: "spec.level", change: 'enum value(s) removed: "baseline"' },
    ]);
    expect(nonAdditiveChanges(level(["baseline"]), level(["baseline", "restricted"]))).toEqual([]);
    expect(nonAdditiveChanges(spec({ level: text }), level(["baseline"]))).toEqual([
      { path: "spec.level", change: 'enum added ("baseline"): the field took any value' },
    ]);
    expect(nonAdditiveChanges(level(["baseline"]), spec({ level: text }))).toEqual([]);
  });

  it("fails stricter limits and patterns; passes relaxed and removed ones", () => {
    const name = (limits: Partial<SchemaNode>) => spec({ name: { type: "string", ...limits } });
    expect(nonAdditiveChanges(name({ maxLength: 63 }), name({ maxLength: 52 }))).toEqual([
      { path: "spec.name", change: "maxLength lowered: 63 -> 52" },
    ]);
    expect(nonAdditiveChanges(name({}), name({ maxLength: 63 }))).toEqual([
      { path: "spec.name", change: "maxLength added: undefined -> 63" },
    ]);
    expect(nonAdditiveChanges(name({ minLength: 1 }), name({ minLength: 2 }))).toEqual([
      { path: "spec.name", change: "minLength raised: 1 -> 2" },
    ]);
    expect(nonAdditiveChanges(name({}), name({ pattern: "^[a-z]+$" }))).toEqual([
      { path: "spec.name", change: 'pattern added: undefined -> "^[a-z]+$"' },
    ]);
    expect(nonAdditiveChanges(name({ pattern: "^[a-z]+$" }), name({ pattern: "^[a-z0-9]+$" }))).toEqual([
      { path: "spec.name", change: 'pattern changed: "^[a-z]+$" -> "^[a-z0-9]+$"' },
    ]);
    const count = (limits: Partial<SchemaNode>) => spec({ count: { type: "integer", ...limits } });
    expect(nonAdditiveChanges(count({}), count({ minimum: 0 }))).toEqual([
      { path: "spec.count", change: "minimum added: undefined -> 0" },
    ]);
    expect(nonAdditiveChanges(count({ maximum: 10 }), count({ maximum: 20 }))).toEqual([]);
    expect(nonAdditiveChanges(count({ minimum: 1, maximum: 10 }), count({}))).toEqual([]);
    expect(nonAdditiveChanges(name({ minLength: 1, pattern: "^a" }), name({ minLength: 0 }))).toEqual([]);
  });

  it("fails a CEL rule added on an existing node unless it is reviewed; passes a removed rule", () => {
    const rule = { rule: "size(self.metadata.name) <= 52", message: "at most 52 characters" };
    const before = object({ metadata: object({ name: text }) });
    const after: SchemaNode = { ...before, "x-kubernetes-validations": [rule] };
    expect(nonAdditiveChanges(before, after)).toEqual([
      { path: "", change: "CEL rule added (not in the reviewed list): size(self.metadata.name) <= 52" },
    ]);
    const reviewed = [{ path: "", rule: /self\.metadata\.name/, reason: "the server refused these names already" }];
    expect(nonAdditiveChanges(before, after, reviewed)).toEqual([]);
    // Reviewed at another node, it is not reviewed here.
    expect(nonAdditiveChanges(before, after, [{ ...reviewed[0], path: "metadata.name" }])).toHaveLength(1);
    expect(nonAdditiveChanges(after, before)).toEqual([]);
  });

  it("fails x-kubernetes-preserve-unknown-fields removed, and typed fields under a node that kept unknown ones", () => {
    const free = spec({ platform: { type: "object", "x-kubernetes-preserve-unknown-fields": true } });
    const typed = spec({ platform: object({ quota: object({}) }) });
    expect(nonAdditiveChanges(free, typed)).toEqual([
      { path: "spec.platform", change: "x-kubernetes-preserve-unknown-fields removed" },
      { path: "spec.platform", change: "typed fields put under a node that kept unknown fields: quota" },
    ]);
    expect(nonAdditiveChanges(spec({ platform: object({}) }), free)).toEqual([]);
  });

  it("walks items and additionalProperties", () => {
    const list = (item: SchemaNode) => spec({ conditions: { type: "array", items: item } });
    expect(nonAdditiveChanges(list(object({ type: text, reason: text })), list(object({ type: text })))).toEqual([
      { path: "spec.conditions[].reason", change: "property removed" },
    ]);
    const map = (values: SchemaNode) => spec({ labels: { type: "object", additionalProperties: values } });
    expect(nonAdditiveChanges(map({ type: "string" }), map({ type: "string", maxLength: 63 }))).toEqual([
      { path: "spec.labels.*", change: "maxLength added: undefined -> 63" },
    ]);
    expect(nonAdditiveChanges(map({ type: "string" }), spec({ labels: object({}) }))).toEqual([
      { path: "spec.labels", change: "additionalProperties removed: a map's values would be pruned or refused" },
    ]);
  });

  it("finds a break in the real baseline: the Tenant without its status", () => {
    const name = "tenants.kubespaces.io";
    const baseline = parse(readFileSync(path.join(root, baselineFile(name)), "utf8")) as SchemaNode;
    const { status: _status, ...properties } = baseline.properties!;
    expect(nonAdditiveChanges(baseline, { ...baseline, properties })).toEqual([
      { path: "status", change: "property removed" },
    ]);
  });
});
