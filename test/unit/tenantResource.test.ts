/**
 * The Tenant custom resource as plain objects: the CRD's structural schema (generated from the
 * request's zod schema, and fitting every status the service computes). What the API server makes of them is the e2e test's (test/e2e/tenantResource.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { structuralSchemaOf, type StructuralSchema } from "../../provider/tenantResource/structuralSchema";
import { tenantCrd, tenantObjectSchema } from "../../provider/tenantResource/tenantCrd";
import type { RunRecord } from "../../provider/tenants/ports";
import { tenantStatus } from "../../provider/tenants/tenantStatus";

const root = path.resolve(__dirname, "../..");

/** Every node of a schema, with its path. */
function* nodesOf(node: StructuralSchema, at = ""): Generator<[string, StructuralSchema]> {
  yield [at || "(root)", node];
  for (const [key, child] of Object.entries(node.properties ?? {})) yield* nodesOf(child, `${at}.${key}`);
  if (node.items) yield* nodesOf(node.items, `${at}[]`);
  if (node.additionalProperties) yield* nodesOf(node.additionalProperties, `${at}.*`);
}

/**
 * The schema as the API server applies it under strict field validation: a field no schema names
 * is refused, except below `x-kubernetes-preserve-unknown-fields`. (Metadata is the server's.)
 */
function strict(node: StructuralSchema): object {
  const properties =
    node.properties && Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, strict(v)]));
  const closed = node.type === "object" && !node["x-kubernetes-preserve-unknown-fields"] && !node.additionalProperties;
  return {
    ...node,
    ...(properties && { properties }),
    ...(node.items && { items: strict(node.items) }),
    ...(closed && node.properties && { additionalProperties: false }),
  };
}

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
const objectSchema = tenantObjectSchema();
const validateSpec = ajv.compile(strict(objectSchema.properties!.spec));
const validateStatus = ajv.compile(strict(objectSchema.properties!.status));
const errorsOf = (valid: boolean) =>
  valid ? [] : (validateSpec.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe("the Tenant CRD", () => {
  const crd = tenantCrd() as any;
  const version = crd.spec.versions[0];

  it("is tenants.kubespaces.io v1alpha1, cluster-scoped, with a status subresource and kubectl's columns", () => {
    expect(crd.metadata.name).toBe("tenants.kubespaces.io");
    expect(crd.spec).toMatchObject({
      group: "kubespaces.io",
      scope: "Cluster",
      names: { kind: "Tenant", plural: "tenants", singular: "tenant" },
    });
    expect(version).toMatchObject({ name: "v1alpha1", served: true, storage: true, subresources: { status: {} } });
    expect(version.additionalPrinterColumns.map((c: any) => `${c.name} ${c.jsonPath} ${c.type}`)).toEqual([
      "Owner .spec.owner string",
      "Phase .status.phase string",
      "API .status.apiServerUrl string",
      "Age .metadata.creationTimestamp date",
    ]);
  });

  it("has a structural schema: every node typed, nothing a CRD refuses, unknown fields kept only in chart values", () => {
    const nodes = [...nodesOf(version.schema.openAPIV3Schema)];
    for (const [at, node] of nodes) {
      expect(typeof node.type, at).toBe("string");
      for (const refused of ["$ref", "anyOf", "oneOf", "allOf", "not", "default", "$schema"])
        expect(node, `${at}: ${refused}`).not.toHaveProperty(refused);
      expect(node.additionalProperties, at).not.toBe(false);
    }
    expect(nodes.filter(([, node]) => node["x-kubernetes-preserve-unknown-fields"]).map(([at]) => at)).toEqual([
      ".spec.vcluster.valuesOverrides",
    ]);
  });

  it("requires a spec, and of it what the request requires", () => {
    expect(objectSchema.required).toEqual(["spec"]);
    expect(objectSchema.properties!.spec.required).toEqual(["owner"]);
  });

  it("accepts every request of the example Tenant files", () => {
    const folder = path.join(root, "examples/typescript/tenant-files/tenants");
    const specs = ["team-atlas.yaml", "data-teams.yaml"].flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(folder, file), "utf8")).map((doc) => (doc.toJS() as any).spec),
    );
    expect(specs).toHaveLength(3);
    for (const spec of specs) expect(errorsOf(validateSpec(spec))).toEqual([]);
    const overrides = { controlPlane: { statefulSet: { highAvailability: { replicas: 2 } } } };
    expect(errorsOf(validateSpec({ owner: "a", vcluster: { valuesOverrides: overrides } }))).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ["an unknown field", { owner: "a", color: "blue" }, " must NOT have additional properties"],
    [
      "an unknown nested field",
      { owner: "a", resources: { gpus: "1" } },
      "/resources must NOT have additional properties",
    ],
    ["no owner", { resources: {} }, " must have required property 'owner'"],
    [
      "a number for a quantity (the request's quantities are strings)",
      { owner: "a", resources: { cpu: 2 } },
      "/resources/cpu must be string",
    ],
    [
      "a Pod Security level there is not",
      { owner: "a", isolation: { podSecurity: "privileged" } },
      "/isolation/podSecurity must be equal to one of the allowed values",
    ],
    [
      "a version that is none",
      { owner: "a", vcluster: { kubernetesVersion: "latest" } },
      '/vcluster/kubernetesVersion must match pattern "^v?\\d+\\.\\d+\\.\\d+$"',
    ],
  ])("refuses %s, as the request does", (_, spec, error) => {
    expect(errorsOf(validateSpec(spec))).toContain(error);
  });

  it("holds every status the tenants service computes", () => {
    const run = (fields: Partial<RunRecord>): RunRecord => ({
      operation: "create",
      startedAt: "2026-01-02T03:04:05.000Z",
      generation: 2,
      running: false,
      events: [],
      ...fields,
    });
    const outputs = {
      namespace: "ns",
      apiServerUrl: "https://a.example.com",
      appsDomain: "apps.a",
      readyMessage: "ready",
    };
    const runs: (RunRecord | undefined)[] = [
      undefined,
      run({ running: true, events: [{ name: "a", phase: "Provisioning", detail: "creating Namespace" }] }),
      run({ running: true, operation: "delete" }),
      run({ outcome: { ok: true, message: "ready", outputs } }),
      run({ outcome: { ok: false, reason: "QuotaFailed", message: "refused" } }),
      run({ outcome: { ok: false, message: "boom" } }),
      run({ outcome: { ok: false, interrupted: true, message: "interrupted" } }),
      run({ operation: "delete", outcome: { ok: false, message: "stuck" } }),
    ];
    for (const status of runs.map((r) => tenantStatus({ name: "a", generation: 2 }, r))) {
      expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
    }
  });

  it("holds the server's own additions: the kubeconfig Secret and the approval gate's plan", () => {
    const status = {
      ...tenantStatus({ name: "a", generation: 3 }, undefined),
      phase: "AwaitingApproval",
      kubeconfigSecretRef: { name: "a-kubeconfig", namespace: "kubespaces-system", key: "config" },
      plan: {
        generation: 3,
        creates: 0,
        updates: 1,
        replaces: 0,
        deletes: 0,
        steps: [{ op: "update", type: "kubernetes:core/v1:ResourceQuota", name: "a-quota", diffs: ["spec"] }],
      },
    };
    expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
    expect(validateStatus({ ...status, plan: { ...status.plan, creates: -1 } })).toBe(false);
    expect(validateStatus({ ...status, phase: "Sleeping" })).toBe(false);
    expect(validateStatus({ ...status, notes: "x" })).toBe(false);
  });
});

describe("structuralSchemaOf", () => {
  it.each<[string, z.ZodType, RegExp]>([
    ["a union", z.strictObject({ a: z.union([z.string(), z.int()]) }), /a: it uses anyOf/],
    ["a nullable field", z.strictObject({ a: z.string().nullable() }), /a: it has no single type/],
    ["a literal", z.strictObject({ a: z.literal(1) }), /a: it uses const/],
  ])("refuses %s, which no structural schema says", (_, schema, message) => {
    expect(() => structuralSchemaOf(schema)).toThrow(message);
  });

  it("types a map's values and keeps a map of anything open", () => {
    const schema = z.strictObject({
      labels: z.record(z.string(), z.string()),
      values: z.record(z.string(), z.unknown()),
    });
    expect(structuralSchemaOf(schema).properties).toEqual({
      labels: { type: "object", additionalProperties: { type: "string" } },
      values: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    });
  });
});
