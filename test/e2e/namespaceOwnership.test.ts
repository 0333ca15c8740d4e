/**
 * Two stacks, one tenant name: the second stack's tenant never takes over the namespace the first
 * one created. Each host check records an owner id of its own stack, and the namespace carries the
 * first one's, so the second stack's check refuses it before anything is created; the second
 * stack's destroy then has nothing of the first one's to delete. A tenant created before owner ids
 * (its state and namespace stripped of them here) adopts its namespace on its next update.
 * The tests run in order and share the two stacks.
 */
import type { Deployment, Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { readWorkload, tenantNamespace } from "./support/tenantAssertions";
import { removeStack, stepRecorder, tenantsStack, type Step, type TenantDecl } from "./support/tenantsStack";

const TENANT: TenantDecl = { name: "e2e-owned", resources: { cpu: "4", memory: "5Gi" }, persistence: false };
const NAMESPACE = tenantNamespace(TENANT.name);
const OWNER_ID = "kubespaces.io/owner-id";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const { core } = hostClients();
let first: Stack;
let second: Stack | undefined;

/** What the first tenant has on the host, and who wrote each object (its field managers). */
async function firstTenantOnHost() {
  const namespace = await core.readNamespace({ name: NAMESPACE });
  const managers = (object: { metadata?: { managedFields?: { manager?: string }[] } }) =>
    object.metadata?.managedFields?.map((f) => f.manager).sort();
  const limitRange = await core.readNamespacedLimitRange({ name: "kubespaces-defaults", namespace: NAMESPACE });
  const quota = await core.readNamespacedResourceQuota({ name: "kubespaces-quota", namespace: NAMESPACE });
  const secret = await readOrUndefined(() =>
    core.readNamespacedSecret({ name: `vc-${TENANT.name}`, namespace: NAMESPACE }),
  );
  return {
    namespace: {
      uid: namespace.metadata?.uid,
      resourceVersion: namespace.metadata?.resourceVersion,
      ownerId: namespace.metadata?.annotations?.[OWNER_ID],
      managers: managers(namespace),
    },
    limitRange: {
      uid: limitRange.metadata?.uid,
      resourceVersion: limitRange.metadata?.resourceVersion,
      managers: managers(limitRange),
    },
    quota: { uid: quota.metadata?.uid, managers: managers(quota) },
    secret: secret?.metadata?.uid,
    workloadReady: (await readWorkload(TENANT.name)).status?.readyReplicas,
  };
}

/** The state of the stack's resource named `name`. */
async function stateOf(stack: Stack, name: string) {
  const { deployment } = await stack.exportStack();
  return (deployment.resources as { urn: string; type: string; inputs?: any; outputs?: any }[]).find((r) =>
    r.urn.endsWith(`::${name}`),
  );
}

/** `up` of the second stack, which must fail: its error and the steps the engine began. */
async function upRefused(stack: Stack): Promise<{ message: string; steps: Step[] }> {
  const { steps, record } = stepRecorder();
  const failed = await stack.up({ onEvent: record }).then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed, "the second stack's up must fail").toBeDefined();
  return { message: failed!.message, steps };
}

beforeAll(async () => {
  first = await tenantsStack("ownership-first", [TENANT]);
  await first.up();
  second = await tenantsStack("ownership-second", [TENANT]);
});

afterAll(async () => {
  await removeStack(second);
  await removeStack(first);
});

describe("one tenant name in two stacks", () => {
  it("writes the first stack's owner id, recorded in its state, on the namespace", async () => {
    const ownerId = (await stateOf(first, `${TENANT.name}-host-check`))?.outputs?.ownerId;
    expect(ownerId).toMatch(UUID);
    expect((await firstTenantOnHost()).namespace.ownerId).toBe(ownerId);
  });

  it("refuses the second stack's tenant, naming both owner ids, and creates and changes nothing", async () => {
    const before = await firstTenantOnHost();
    const { message, steps } = await upRefused(second!);
    expect(message).toMatch(
      new RegExp(
        `namespace ${NAMESPACE} was created by another stack's tenant ${TENANT.name} \\(its owner id "${before.namespace.ownerId}", this stack's [0-9a-f-]{36}; its kubespaces.io/owner "${TENANT.name}@example.com"\\)`,
      ),
    );
    expect(message).toContain(
      "Choose another tenant name or namespace, or manage this tenant from the stack that created it.",
    );
    // The engine began only the host check of the tenant's children: nothing in the namespace.
    expect(steps.filter((s) => s.name.startsWith(`${TENANT.name}-`)).map((s) => `${s.op} ${s.name}`)).toEqual([
      `create ${TENANT.name}-host-check`,
    ]);
    const { deployment } = await second!.exportStack();
    expect(
      (deployment.resources as { type: string }[]).map((r) => r.type).filter((t) => !t.startsWith("pulumi:")),
    ).toEqual(["kubespaces:index:Tenant"]);
    expect(await firstTenantOnHost()).toEqual(before);
  });

  it("destroys the refused second stack without touching the first tenant", async () => {
    const before = await firstTenantOnHost();
    await removeStack(second);
    second = undefined;
    expect(await firstTenantOnHost()).toEqual(before);
    expect(before.secret).toBeDefined();
    expect(before.workloadReady).toBe(1);
  });
});

describe("a tenant created before owner ids", () => {
  it("adopts its namespace on the next update: a new id, recorded and written on the namespace", async () => {
    await stripOwnerIds(first);
    const { steps, record } = stepRecorder();
    expect((await first.up({ onEvent: record })).summary.result).toBe("succeeded");
    const op = (name: string) => steps.find((s) => s.name === `${TENANT.name}-${name}`)?.op;
    expect([op("host-check"), op("namespace")]).toEqual(["update", "update"]);
    const ownerId = (await stateOf(first, `${TENANT.name}-host-check`))?.outputs?.ownerId;
    expect(ownerId).toMatch(UUID);
    expect((await firstTenantOnHost()).namespace.ownerId).toBe(ownerId);
  });

  it("keeps that id through the next preview and up", async () => {
    const ownerId = (await stateOf(first, `${TENANT.name}-host-check`))?.outputs?.ownerId;
    const previewed = stepRecorder();
    await first.preview({ onEvent: previewed.record });
    const { steps, record } = stepRecorder();
    await first.up({ onEvent: record });
    for (const seen of [previewed.steps, steps]) {
      const op = (name: string) => seen.find((s) => s.name === `${TENANT.name}-${name}`)?.op;
      expect([op("host-check"), op("namespace")]).toEqual(["same", "same"]);
    }
    expect((await stateOf(first, `${TENANT.name}-host-check`))?.outputs?.ownerId).toBe(ownerId);
    expect((await firstTenantOnHost()).namespace.ownerId).toBe(ownerId);
  });
});

/**
 * Makes the first stack's tenant look as a release before owner ids left it: no id in its host
 * check's state, none in the namespace's state, none on the namespace.
 */
async function stripOwnerIds(stack: Stack): Promise<void> {
  const exported: Deployment = await stack.exportStack();
  for (const resource of exported.deployment.resources as { urn: string; inputs?: any; outputs?: any }[]) {
    if (resource.urn.endsWith(`::${TENANT.name}-host-check`)) delete resource.outputs.ownerId;
    if (resource.urn.endsWith(`::${TENANT.name}-namespace`)) dropKey([resource.inputs, resource.outputs], OWNER_ID);
  }
  await stack.importStack(exported);
  const path = `/metadata/annotations/${OWNER_ID.replace("/", "~1")}`;
  await core.patchNamespace({ name: NAMESPACE, body: [{ op: "remove", path }] });
  expect((await firstTenantOnHost()).namespace.ownerId).toBeUndefined();
}

/** Deletes `key` wherever it appears in `value` (the namespace's state holds its metadata more than once). */
function dropKey(value: unknown, key: string): void {
  if (Array.isArray(value)) value.forEach((item) => dropKey(item, key));
  else if (value && typeof value === "object") {
    delete (value as Record<string, unknown>)[key];
    Object.values(value).forEach((item) => dropKey(item, key));
  }
}
