/**
 * The Tenant custom resource as plain objects: the CRD's structural schema (generated from the
 * request's zod schema, and fitting every status the service computes), the admission policy and
 * the RBAC. What the API server makes of them is the e2e test's (test/e2e/tenantResource.test.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { parseAllDocuments } from "yaml";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { DEFAULT_NAMESPACE_PREFIX } from "../../provider/model/tenantPlatformSchema";
import { tenantRequestSchema } from "../../provider/model/tenantRequestSchema";
import { validateTenant } from "../../provider/model/validateTenant";
import { renderTenant } from "../../provider/render/renderTenant";
import {
  installOptions,
  installOptionsSchema,
  serverUsername,
  type InstallOptionsInput,
} from "../../provider/tenantResource/installOptions";
import { structuralSchemaOf, type StructuralSchema } from "../../provider/tenantResource/structuralSchema";
import { tenantCrd, tenantObjectSchema } from "../../provider/tenantResource/tenantCrd";
import { platformRevisionCrd, REVISION_SPEC_IMMUTABLE } from "../../provider/tenantResource/platformRevisionCrd";
import { withPreviews } from "../../provider/server/revisions/fleetPreview";
import { tenantResourceInstallation } from "../../provider/tenantResource/tenantResourceInstallation";
import type { RunRecord } from "../../provider/tenants/ports";
import { tenantStatus } from "../../provider/tenants/tenantStatus";
import { thrownBy } from "./support/thrown";

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
const objectSchema = tenantObjectSchema(DEFAULT_NAMESPACE_PREFIX);
const validateSpec = ajv.compile(strict(objectSchema.properties!.spec));
const validateStatus = ajv.compile(strict(objectSchema.properties!.status));
const errorsOf = (valid: boolean) =>
  valid ? [] : (validateSpec.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe("the PlatformRevision CRD", () => {
  const crd = platformRevisionCrd() as any;
  const version = crd.spec.versions[0];
  const schema = version.schema.openAPIV3Schema as StructuralSchema;

  it("is platformrevisions.kubespaces.io v1alpha1, cluster-scoped, with a status subresource and the preview's columns", () => {
    expect(crd.metadata.name).toBe("platformrevisions.kubespaces.io");
    expect(crd.spec).toMatchObject({
      group: "kubespaces.io",
      scope: "Cluster",
      names: { kind: "PlatformRevision", plural: "platformrevisions", singular: "platformrevision" },
    });
    expect(version).toMatchObject({ name: "v1alpha1", served: true, storage: true, subresources: { status: {} } });
    expect(version.additionalPrinterColumns.map((c: any) => `${c.name} ${c.jsonPath}`)).toEqual([
      "Phase .status.phase",
      "Tenants .status.summary.tenants",
      "Changing .status.summary.changing",
      "Failed .status.summary.failed",
      "Rollout .status.rollout.phase",
      "Wave .status.rollout.wave",
      "Age .metadata.creationTimestamp",
    ]);
  });

  it("has a structural schema, a policy the server checks kept whole, and a spec that cannot change", () => {
    const nodes = [...nodesOf(schema)];
    for (const [at, node] of nodes) {
      expect(typeof node.type, at).toBe("string");
      for (const refused of ["$ref", "anyOf", "oneOf", "allOf", "not"])
        expect(node, `${at}: ${refused}`).not.toHaveProperty(refused);
    }
    expect(nodes.filter(([, node]) => node["x-kubernetes-preserve-unknown-fields"]).map(([at]) => at)).toEqual([
      ".spec.platform",
    ]);
    // The only default: the waves, which the API server fills in, so that the spec says them.
    expect(nodes.filter(([, node]) => "default" in node)).toEqual([
      [".spec.waves", expect.objectContaining({ default: ["1", "10%", "100%"] })],
    ]);
    const wave = new RegExp(schema.properties!.spec.properties!.waves.items!.pattern!);
    expect(["1", "25", "10%", "100%"].filter((w) => wave.test(w))).toHaveLength(4);
    expect(["0", "0%", "101%", "-1", "1.5", "10 %", ""].filter((w) => wave.test(w))).toEqual([]);
    expect(schema.properties!.spec["x-kubernetes-validations"]).toEqual([
      { rule: "self == oldSelf", message: REVISION_SPEC_IMMUTABLE },
    ]);
  });

  it("holds every status the fleet preview writes", () => {
    const validate = ajv.compile(strict(schema.properties!.status));
    const steps = [{ op: "update", type: "kubernetes:core/v1:ResourceQuota", name: "quota", diffs: ["spec"] }];
    const at = "2026-12-05T00:00:00.000Z";
    const status = withPreviews(
      undefined,
      [
        {
          name: "a",
          generation: 1,
          outcome: "Changes",
          plan: { creates: 0, updates: 1, replaces: 0, deletes: 0, steps },
          previewedAt: at,
        },
        { name: "b", generation: 2, outcome: "Failed", reason: "resources.cpu: 4 is above", previewedAt: at },
      ],
      new Set(["a", "b", "c"]),
    );
    expect(validate(status), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...status, phase: "Done" })).toBe(false);
  });
});

/** Names on each side of every limit and rule a tenant's name has. */
const NAMES = [
  ...[1, 10, 20, 44, 45, 46, 52, 53, 54, 57, 58, 63, 64].map((length) => "t".repeat(length)),
  "team-atlas",
  "team-1",
  "1team",
  "-team",
  "team-",
  "Team",
  "team.atlas",
  "team_atlas",
];

/** Whether the component takes `name` for a tenant (with a request that is good otherwise), under namespace prefix `prefix`. */
function componentAcceptsName(name: string, prefix: string): boolean {
  try {
    validateTenant(name, { owner: "a", platform: { namespacePrefix: prefix } });
    return true;
  } catch {
    return false;
  }
}

/**
 * A CEL rule of the CRD about a name, as a predicate: only the forms the CRD uses (the name is
 * `self` on its own node, `self.metadata.name` at the root), so that a new form fails here rather
 * than being read wrong. CEL's `matches` finds the pattern anywhere in the text, as RegExp.test does.
 */
function celNameRule(rule: string, self: string): (name: string) => boolean {
  const size = new RegExp(`^size\\(${self.replaceAll(".", "\\.")}\\) <= (\\d+)$`).exec(rule);
  if (size) return (name) => name.length <= Number(size[1]);
  const matches = new RegExp(`^${self.replaceAll(".", "\\.")}\\.matches\\((".*")\\)$`).exec(rule);
  if (matches) {
    const pattern = new RegExp(JSON.parse(matches[1]) as string);
    return (name) => pattern.test(name);
  }
  throw new Error(`a rule about the name this test cannot read: ${rule}`);
}

/** Whether the Tenant CRD, installed with namespace prefix `prefix`, lets a Tenant be named `name`. */
function crdAcceptsName(prefix: string): (name: string) => boolean {
  const installation = tenantResourceInstallation(installOptions({ tenantNamespacePrefix: prefix }));
  const crd = installation.crd.find((installed) => installed.role === "crd")!.object as any;
  const schema: StructuralSchema = crd.spec.versions[0].schema.openAPIV3Schema;
  const onName = schema.properties!.metadata.properties?.name["x-kubernetes-validations"] ?? [];
  const atRoot = (schema["x-kubernetes-validations"] ?? []).filter((r) => r.rule.includes("self.metadata.name"));
  const rules = [
    ...onName.map((r) => celNameRule(r.rule, "self")),
    ...atRoot.map((r) => celNameRule(r.rule, "self.metadata.name")),
  ];
  expect(rules.length).toBeGreaterThan(0);
  return (name) => rules.every((rule) => rule(name));
}

describe("the Tenant CRD", () => {
  const crd = tenantCrd(DEFAULT_NAMESPACE_PREFIX) as any;
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
      "Expires .spec.expiresAt string",
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

  it("has the API server check each quantity, the owner and the name with the messages the other doors give", () => {
    const nodes = [...nodesOf(version.schema.openAPIV3Schema)];
    const ruled = nodes.filter(([, node]) => node["x-kubernetes-validations"]);
    const quantities = ruled.filter(([, node]) => node["x-kubernetes-validations"]![0].rule === "isQuantity(self)");
    expect(quantities.map(([at]) => at)).toEqual(
      expect.arrayContaining([".spec.resources.cpu", ".spec.resources.memory", ".spec.resources.storage"]),
    );
    expect(quantities.length).toBe(14); // resources 4, limitRange 6, the control plane 4
    expect(ruled.map(([at]) => at).filter((at) => !quantities.some(([q]) => q === at))).toEqual([
      ".metadata.name",
      ".spec.owner",
    ]);
    // Each rule's message is the one the request's own check gives for the same field.
    const { error } = tenantRequestSchema.safeParse({ owner: " ", resources: { cpu: "ä8", memory: "0" } });
    const zodSays = Object.fromEntries(error!.issues.map((issue) => [`.spec.${issue.path.join(".")}`, issue.message]));
    const celSays = (at: string) => nodes.find(([path]) => path === at)![1]["x-kubernetes-validations"]!;
    expect(celSays(".spec.owner").map((r) => r.message)).toContain(zodSays[".spec.owner"]);
    expect(celSays(".spec.resources.cpu")[0].message).toBe(zodSays[".spec.resources.cpu"]);
    expect(celSays(".spec.resources.memory")[1].message).toBe(zodSays[".spec.resources.memory"]);
    expect(celSays(".metadata.name").map((r) => r.rule)).toEqual([
      "size(self) <= 53",
      "size(self) <= 45",
      'self.matches("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")',
      'self.matches("^[a-z]")',
    ]);
    const componentSays = (name: string) => (thrownBy(() => validateTenant(name, { owner: "a" })) as Error).message;
    const messages = celSays(".metadata.name").map((r) => r.message);
    expect(componentSays("t".repeat(54))).toContain(messages[0]);
    expect(componentSays("1team")).toContain(messages[3]);
  });

  it.each(["kubespaces-tenant-", "teams-", "a-long-prefix-for-tenant-namespaces-"])(
    "refuses at kubectl apply exactly the names the component refuses, installed with namespace prefix %s",
    (prefix) => {
      const accepts = crdAcceptsName(prefix);
      const wrong = NAMES.filter((name) => accepts(name) !== componentAcceptsName(name, prefix));
      expect(wrong.map((name) => `${name} (${name.length})`)).toEqual([]);
    },
  );

  it("keeps the CEL rules out of the other JSON Schemas made from the request", () => {
    expect(JSON.stringify(z.toJSONSchema(tenantRequestSchema, { io: "input" }))).not.toContain("x-kubernetes");
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
        specSha256: "0f".repeat(32),
        creates: 0,
        updates: 1,
        replaces: 0,
        deletes: 0,
        steps: [{ op: "update", type: "kubernetes:core/v1:ResourceQuota", name: "a-quota", diffs: ["spec"] }],
      },
    };
    expect(validateStatus(status), JSON.stringify(validateStatus.errors)).toBe(true);
    expect(validateStatus({ ...status, plan: { ...status.plan, creates: -1 } })).toBe(false);
    expect(validateStatus({ ...status, plan: { ...status.plan, specSha256: "0F".repeat(32) } })).toBe(false);
    expect(validateStatus({ ...status, phase: "Sleeping" })).toBe(true);
    expect(validateStatus({ ...status, phase: "Asleep" })).toBe(false);
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

describe("install options", () => {
  it("documents what the schema accepts", () => {
    expectTypeOf<InstallOptionsInput>().toExtend<z.input<typeof installOptionsSchema>>();
    expectTypeOf<z.input<typeof installOptionsSchema>>().toExtend<InstallOptionsInput>();
  });

  it("defaults to ServiceAccount kubespaces-server in kubespaces-system, group kubespaces-admins and the platform's default namespaces", () => {
    const options = installOptions();
    expect(options).toEqual({
      namespace: "kubespaces-system",
      createNamespace: true,
      server: { serviceAccount: "kubespaces-server" },
      adminGroup: "kubespaces-admins",
      adminUsers: [],
      tenantNamespacePrefix: "kubespaces-tenant-",
      gatewayNamespace: "kubespaces-gateway",
      identityPrefixes: { username: "", groups: "" },
    });
    expect(serverUsername(options)).toBe("system:serviceaccount:kubespaces-system:kubespaces-server");
    expect(serverUsername(installOptions({ server: { user: "kubespaces" } }))).toBe("kubespaces");
  });

  it("names each bad option", () => {
    expect(() => installOptions({ namespace: "Kube Spaces", adminGroup: " " })).toThrow(
      /nothing was created:\n {2}- namespace: must be a DNS-1123 label.*\n {2}- adminGroup: must not be blank/,
    );
    expect(() => installOptions({ tenantNamespacePrefix: "kube" })).toThrow(
      /tenantNamespacePrefix: must be .* ending with '-'/,
    );
  });
});

describe("the server's fence", () => {
  const fenceOf = (input: InstallOptionsInput = {}) =>
    tenantResourceInstallation(installOptions(input))
      .admission.map((i) => i.object as any)
      .filter((o) => o.metadata.name === "kubespaces-server-fence");

  it("matches the server's own writes alone, on the kinds its cluster-wide rights could widen", () => {
    const [policy, binding] = fenceOf({ namespace: "ks" });
    expect(policy.spec.matchConditions).toEqual([
      { name: "the-server", expression: 'request.userInfo.username == "system:serviceaccount:ks:kubespaces-server"' },
    ]);
    expect(policy.spec.matchConstraints.resourceRules.flatMap((r: any) => r.resources)).toEqual([
      "namespaces",
      "rolebindings",
      "clusterroles",
      "clusterrolebindings",
      "priorityclasses",
      "platformrevisions",
    ]);
    expect(binding.spec).toEqual({ policyName: "kubespaces-server-fence", validationActions: ["Deny"] });
  });

  it("keeps the server's updates of a PlatformRevision to its finalizers: no approval, resume or abort, no new spec", () => {
    const [policy] = fenceOf();
    // The main resource alone: the status subresource, which the server writes, is not matched.
    expect(policy.spec.matchConstraints.resourceRules).toContainEqual({
      apiGroups: ["kubespaces.io"],
      apiVersions: ["*"],
      resources: ["platformrevisions"],
      operations: ["UPDATE"],
    });
    const rules = policy.spec.validations.filter((v: any) =>
      v.expression.startsWith('request.resource.resource != "platformrevisions" || '),
    );
    const fields = ["spec", "metadata.labels", "metadata.annotations", "metadata.ownerReferences"];
    expect(rules.map((v: any) => v.expression)).toEqual(
      fields.map(
        (f) =>
          `request.resource.resource != "platformrevisions" || (has(object.${f}) == has(oldObject.${f}) && (!has(object.${f}) || object.${f} == oldObject.${f}))`,
      ),
    );
    expect(rules.map((v: any) => v.message)).toEqual(
      fields.map((f) =>
        expect.stringMatching(new RegExp(`^${f}: the kubespaces server changes only a PlatformRevision's finalizers`)),
      ),
    );
    expect(rules.some((v: any) => v.expression.includes("finalizers"))).toBe(false);
  });

  it("writes the tenant prefix into the rules on namespaces and RoleBindings", () => {
    const [policy] = fenceOf({ tenantNamespacePrefix: "teams-" });
    const on = (resource: string) =>
      policy.spec.validations.filter((v: any) => v.expression.startsWith(`request.resource.resource != "${resource}"`));
    expect(on("namespaces")[0].expression).toContain('variables.target.metadata.name.startsWith("teams-")');
    expect(on("rolebindings")[0].expression).toContain('request.namespace.startsWith("teams-")');
    expect(on("clusterrolebindings")[0].expression).toContain('s.namespace.startsWith("teams-")');
  });
});

describe("the admission policy", () => {
  const policyOf = (input: InstallOptionsInput = {}) =>
    tenantResourceInstallation(installOptions(input)).admission.map((i) => i.object as any);

  it("matches Tenant writes, and lets the server, the admins and the garbage collector through", () => {
    const [policy, binding] = policyOf();
    expect(policy.spec.matchConstraints.resourceRules).toEqual([
      {
        apiGroups: ["kubespaces.io"],
        apiVersions: ["*"],
        operations: ["CREATE", "UPDATE", "DELETE"],
        resources: ["tenants"],
      },
    ]);
    expect(policy.spec.matchConditions.map((c: any) => c.expression)).toEqual([
      'request.userInfo.username != "system:serviceaccount:kubespaces-system:kubespaces-server"',
      '!("kubespaces-admins" in request.userInfo.groups)',
      expect.stringContaining("generic-garbage-collector"),
    ]);
    expect(policy.spec.failurePolicy).toBe("Fail");
    expect(binding.spec).toEqual({ policyName: "kubespaces-tenant-owner", validationActions: ["Deny"] });
  });

  it("treats admin users (a GitOps controller) as admins", () => {
    const [policy] = policyOf({ adminUsers: ["system:serviceaccount:flux-system:kustomize-controller"] });
    expect(policy.spec.matchConditions[1].expression).toBe(
      '!("kubespaces-admins" in request.userInfo.groups) && !(request.userInfo.username in ["system:serviceaccount:flux-system:kustomize-controller"])',
    );
  });

  it("maps a prefixed user to an owner and knows the admins by the prefixed group, when the host prefixes names", () => {
    const [policy] = policyOf({ identityPrefixes: { username: "oidc:", groups: "oidc:" } });
    expect(policy.spec.variables).toContainEqual({
      name: "requester",
      expression:
        'request.userInfo.username.startsWith("oidc:") ? request.userInfo.username.substring(5) : request.userInfo.username',
    });
    const owners = policy.spec.validations.slice(0, 2).map((v: any) => v.expression);
    expect(owners).toEqual([
      'request.operation != "CREATE" || object.spec.owner == variables.requester',
      'request.operation == "CREATE" || oldObject.spec.owner == variables.requester',
    ]);
    expect(policy.spec.matchConditions[1].expression).toBe('!("oidc:kubespaces-admins" in request.userInfo.groups)');
    // Without prefixes, the policy is as it was: no variable, the user name as it is.
    const [plain] = policyOf({});
    expect(plain.spec.variables.map((v: any) => v.name)).not.toContain("requester");
    expect(plain.spec.validations[0].expression).toContain("object.spec.owner == request.userInfo.username");
  });

  it("refuses a prefix that could break out of a CEL string", () => {
    expect(() => installOptions({ identityPrefixes: { username: 'oidc:" || true || "' } })).toThrow(
      /identityPrefixes\.username: must have no spaces, quotes or backslashes/,
    );
  });

  it("names the field and the rule in each message, with the admin group", () => {
    const messages = policyOf({ adminGroup: "platform" })[0].spec.validations.map(
      (v: any) => v.message ?? v.messageExpression,
    );
    expect(messages).toEqual([
      expect.stringMatching(
        /^"spec\.owner: must be the requesting user \(" \+ request\.userInfo\.username \+ "\) unless you are in group platform/,
      ),
      expect.stringMatching(/^"spec\.owner: tenant " .* only its owner may .* unless you are in group platform/),
      expect.stringMatching(/^"spec\.owner: may not be changed .* unless you are in group platform"$/),
      "metadata.annotations[kubespaces.io/approved-generation]: approves a change, which only group platform may; leave it as it was",
      "metadata.annotations[kubespaces.io/approved-spec-sha256]: approves a change, which only group platform may; leave it as it was",
      expect.stringMatching(/^metadata\.finalizers: kubespaces\.io\/finalizer is removed by the kubespaces server/),
    ]);
  });

  it("keeps both approval annotations the admins': anyone else leaves each as it was, and sets neither on a create", () => {
    const [policy] = policyOf();
    const variables = Object.fromEntries(policy.spec.variables.map((v: any) => [v.name, v.expression]));
    const expressions = policy.spec.validations.map((v: any) => v.expression);
    for (const [annotation, stem] of [
      ["kubespaces.io/approved-generation", "approvedGeneration"],
      ["kubespaces.io/approved-spec-sha256", "approvedSpec"],
    ]) {
      expect(variables[`${stem}Now`]).toContain(`object.metadata.annotations["${annotation}"] : ""`);
      expect(variables[`${stem}Before`]).toContain(`oldObject.metadata.annotations["${annotation}"] : ""`);
      expect(expressions).toContain(
        `request.operation == "DELETE" || variables.${stem}Now == (request.operation == "CREATE" ? "" : variables.${stem}Before)`,
      );
    }
  });

  it("writes names into CEL as string literals, quotes and backslashes escaped", () => {
    const [policy] = policyOf({ server: { user: 'kube"spaces\\' }, adminGroup: 'a"b' });
    expect(policy.spec.matchConditions[0].expression).toBe('request.userInfo.username != "kube\\"spaces\\\\"');
    expect(policy.spec.matchConditions[1].expression).toBe('!("a\\"b" in request.userInfo.groups)');
  });
});

describe("the RBAC", () => {
  const rbac = (input: InstallOptionsInput = {}) =>
    tenantResourceInstallation(installOptions(input)).rbac.map((i) => i.object as any);
  const named = (input: InstallOptionsInput, kind: string, name: string) =>
    rbac(input).find((o) => o.kind === kind && o.metadata.name === name);
  /** Whether `rules` grant `verb` on `resource` of `group`. */
  const grants = (rules: any[], group: string, resource: string, verb: string) =>
    rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
  const plural = (kind: string) => kind.toLowerCase().replace(/y$/, "ie") + "s";

  it("lets the server manage every kind of object a tenant renders, by the role that holds where it lives", () => {
    const roleRules = (kind: string, name: string) => named({}, kind, name).rules;
    const cluster = roleRules("ClusterRole", "kubespaces-server");
    const inTenant = roleRules("ClusterRole", "kubespaces-server-tenant");
    const inGateway = roleRules("Role", "kubespaces-server-gateway");
    const spec = validateTenant("team-atlas", {
      owner: "alice@example.com",
      platform: {
        exposure: { baseDomain: "example.com", issuerRef: { name: "ca" } },
        networkPolicy: true,
        namespaceAccess: {
          clusterRole: "kubespaces-server-tenant",
          subject: { kind: "ServiceAccount", name: "kubespaces-server", namespace: "kubespaces-system" },
        },
      },
    });
    const manifests = renderTenant(spec).objects.map((o) => o.manifest);
    expect(manifests.length).toBeGreaterThanOrEqual(9);
    for (const { apiVersion, kind, metadata } of manifests) {
      const group = apiVersion.includes("/") ? apiVersion.split("/")[0] : "";
      // The access binding is made before the server holds anything in the namespace.
      const rules =
        metadata.namespace === undefined || kind === "RoleBinding"
          ? cluster
          : metadata.namespace === spec.namespace
            ? inTenant
            : inGateway;
      expect(metadata.namespace ?? spec.namespace, kind).toMatch(/^(kubespaces-tenant-team-atlas|kubespaces-gateway)$/);
      for (const verb of ["get", "list", "watch", "create", "update", "patch", "delete"])
        expect(grants(rules, group, plural(kind), verb), `${verb} ${kind}`).toBe(true);
    }
  });

  it("holds nothing cluster-wide that takes the cluster over: no Secrets, no pods, no escalate, a bind of its tenant role alone", () => {
    const cluster = named({}, "ClusterRole", "kubespaces-server").rules;
    for (const [group, resource, verb] of [
      ["", "secrets", "get"],
      ["", "secrets", "list"],
      ["", "pods", "create"],
      ["", "pods/exec", "create"],
      ["rbac.authorization.k8s.io", "clusterroles", "escalate"],
      ["", "users", "impersonate"],
      ["", "serviceaccounts/token", "create"],
    ])
      expect(grants(cluster, group, resource, verb), `${verb} ${resource}`).toBe(false);
    expect(cluster.filter((r: any) => r.verbs.includes("bind"))).toEqual([
      {
        apiGroups: ["rbac.authorization.k8s.io"],
        resources: ["clusterroles"],
        verbs: ["bind"],
        resourceNames: ["kubespaces-server-tenant"],
      },
    ]);
    // The tenant role is bound by each tenant's stack in its namespace, never by the installation.
    expect(rbac().filter((o) => o.roleRef?.name === "kubespaces-server-tenant")).toEqual([]);
    expect(grants(named({}, "ClusterRole", "kubespaces-server-tenant").rules, "", "secrets", "get")).toBe(true);
  });

  it("lets the server reconcile Tenants, create and delete them for signed-in people, and write their status; requesters only request them", () => {
    const server = named({}, "ClusterRole", "kubespaces-server").rules;
    for (const verb of ["get", "list", "watch", "update", "patch", "create", "delete"])
      expect(grants(server, "kubespaces.io", "tenants", verb)).toBe(true);
    expect(grants(server, "kubespaces.io", "tenants", "deletecollection")).toBe(false);
    expect(grants(server, "kubespaces.io", "tenants/status", "update")).toBe(true);
    expect(grants(server, "kubespaces.io", "tenants/finalizers", "update")).toBe(true);
    const requester = named({}, "ClusterRole", "kubespaces-tenant-requester").rules;
    expect(requester).toEqual([
      {
        apiGroups: ["kubespaces.io"],
        resources: ["tenants"],
        verbs: ["create", "get", "list", "watch", "update", "patch", "delete"],
      },
    ]);
  });

  it("lets the server read PlatformRevisions, patch them (its finalizer: their spec cannot change) and write their status; no requester may touch them", () => {
    const server = named({}, "ClusterRole", "kubespaces-server").rules;
    for (const verb of ["get", "list", "watch", "patch"])
      expect(grants(server, "kubespaces.io", "platformrevisions", verb)).toBe(true);
    for (const verb of ["create", "update", "delete"])
      expect(grants(server, "kubespaces.io", "platformrevisions", verb)).toBe(false);
    expect(grants(server, "kubespaces.io", "platformrevisions/status", "update")).toBe(true);
    const requester = named({}, "ClusterRole", "kubespaces-tenant-requester").rules;
    expect(grants(requester, "kubespaces.io", "platformrevisions", "get")).toBe(false);
  });

  it("binds the server's roles to its ServiceAccount, or to its user", () => {
    const subjects = (input: InstallOptionsInput) =>
      rbac(input)
        .filter((o) => o.kind.endsWith("Binding"))
        .map((o) => [o.kind, o.metadata.namespace, o.subjects]);
    const account = [{ kind: "ServiceAccount", name: "kubespaces-server", namespace: "ks" }];
    expect(subjects({ namespace: "ks", gatewayNamespace: "gw" })).toEqual([
      ["ClusterRoleBinding", undefined, account],
      ["RoleBinding", "gw", account],
      ["RoleBinding", "ks", account],
    ]);
    const user = [{ kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "kubespaces" }];
    expect(subjects({ server: { user: "kubespaces" } })).toEqual([
      ["ClusterRoleBinding", undefined, user],
      ["RoleBinding", "kubespaces-gateway", user],
      ["RoleBinding", "kubespaces-system", user],
    ]);
    expect(rbac({ server: { user: "kubespaces" } }).map((o) => o.kind)).not.toContain("ServiceAccount");
    expect(rbac({ createNamespace: false }).map((o) => o.kind)).not.toContain("Namespace");
  });

  it("keeps the replicas' Leases to the server's namespace", () => {
    const role = named({ namespace: "ks" }, "Role", "kubespaces-server-leases");
    expect(role.metadata.namespace).toBe("ks");
    for (const verb of ["list", "update", "delete"])
      expect(grants(role.rules, "coordination.k8s.io", "leases", verb)).toBe(true);
  });
});
