/**
 * Tenant files through `pulumi up` of the example stack (examples/typescript/tenant-files): a file
 * added, changed and removed; each preview shows exactly that tenant's changes. A bad file stops
 * the preview, naming the file, the document and the field, and changes nothing.
 */
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LocalWorkspace, type Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { changes, stepRecorder } from "./support/tenantsStack";
import { expectNothingLeft } from "./support/tenantAssertions";
import { REPO_ROOT, testbedEnv } from "./support/testbed";

const EXAMPLE = path.join(REPO_ROOT, "examples/typescript/tenant-files");
const tenantsDir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-tenant-files-"));
const manifest = (name: string, cpu: string) =>
  `apiVersion: kubespaces.io/v1alpha1\nkind: Tenant\nmetadata:\n  name: ${name}\nspec:\n  owner: ${name}@\${OWNER_DOMAIN}\n  resources: { cpu: "${cpu}", memory: 4Gi, storage: 10Gi }\n`;
const write = (file: string, text: string) => writeFileSync(path.join(tenantsDir, file), text);
let stack: Stack;

/** The changes a preview of the stack shows, as "op name". */
async function previewChanges(): Promise<string[]> {
  const { steps, record } = stepRecorder();
  await stack.preview({ onEvent: record });
  return changes(steps)
    .map((s) => `${s.op} ${s.name}`)
    .sort();
}

beforeAll(async () => {
  const env = testbedEnv();
  Object.assign(process.env, env);
  const stateDir = path.join(env.KUBESPACES_TESTBED_DIR, "pulumi-state");
  stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "tenant-files", workDir: EXAMPLE },
    { envVars: { ...env, PULUMI_BACKEND_URL: `file://${stateDir}` } },
  );
  await stack.setAllConfig({
    vclusterChartPath: { value: env.KUBESPACES_VCLUSTER_CHART },
    tenantsDir: { value: tenantsDir },
  });
  write("files-a.yaml", manifest("files-a", "3"));
  await stack.up();
});

afterAll(async () => {
  await stack.destroy();
  await stack.workspace.removeStack(stack.name);
  rmSync(tenantsDir, { recursive: true, force: true });
});

it("adds a tenant for an added file, and its preview shows only that tenant's creates", async () => {
  write("files-b.yaml", manifest("files-b", "3"));
  const previewed = await previewChanges();
  expect(previewed.length).toBeGreaterThan(5);
  expect(previewed.every((change) => change.startsWith("create files-b"))).toBe(true);
  await stack.up();
  expect(
    await readOrUndefined(() => hostClients().core.readNamespace({ name: "kubespaces-tenant-files-b" })),
  ).toBeDefined();
});

it("updates only the quota of a tenant whose file asks for more CPU", async () => {
  write("files-a.yaml", manifest("files-a", "4"));
  expect(await previewChanges()).toEqual(["update files-a-quota"]);
  await stack.up();
  const quota = await hostClients().core.readNamespacedResourceQuota({
    namespace: "kubespaces-tenant-files-a",
    name: "kubespaces-quota",
  });
  expect(quota.spec?.hard?.["limits.cpu"]).toBe("4");
});

it("refuses a bad file at preview, naming the file, the document and the field, and changes nothing", async () => {
  write("files-c.yaml", manifest("files-c", "64"));
  const failed = await stack.preview().then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed?.message).toContain(
    `${path.join(tenantsDir, "files-c.yaml")}, document 1 (files-c): spec.resources.cpu: 64 is above the platform's ceiling`,
  );
  unlinkSync(path.join(tenantsDir, "files-c.yaml"));
  expect(await previewChanges()).toEqual([]);
});

it("tears down the tenant whose file is removed, and only it", async () => {
  unlinkSync(path.join(tenantsDir, "files-b.yaml"));
  const previewed = await previewChanges();
  expect(previewed.every((change) => change.startsWith("delete files-b"))).toBe(true);
  await stack.up();
  await expectNothingLeft("files-b");
  expect(
    await readOrUndefined(() => hostClients().core.readNamespace({ name: "kubespaces-tenant-files-a" })),
  ).toBeDefined();
});
