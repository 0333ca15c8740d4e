/**
 * The host check's decisions: an update that would move a tenant stops first, and a namespace is
 * this stack's only if it carries the tenant's label and this stack's owner id. The host cluster
 * is a fake CoreV1Api behind loadHostKubeConfig, holding the namespaces each test puts there.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { recheckHost } from "../../provider/lifecycle/hostCheck/hostCheckOperations";
import type { HostCheckInputs, StoredHostCheck } from "../../provider/contracts/hostCheckSchema";
import { createRefusal } from "../../provider/lifecycle/hostCheck/namespaceOwnership";
import { hostCheckOperations } from "../../provider/lifecycle/resourceOperations";

/** Namespaces on the fake host, by name: their labels and annotations. */
const host = new Map<string, { labels?: Record<string, string>; annotations?: Record<string, string> }>();
const reads: string[] = [];

vi.mock("../../provider/lifecycle/hostAccess", () => ({
  loadHostKubeConfig: () => ({
    makeApiClient: () => ({
      async readNamespace({ name }: { name: string }) {
        reads.push(name);
        if (name === "kube-system") return { metadata: { name, uid: "uid-of-kube-system" } };
        const found = host.get(name);
        if (!found) throw Object.assign(new Error(`namespaces "${name}" not found`), { code: 404 });
        return { metadata: { name, ...found } };
      },
    }),
  }),
}));

const TENANT = "team-atlas";
const NS = "kubespaces-tenant-team-atlas";
const inputs: HostCheckInputs = { tenantName: TENANT, namespace: NS };
const OURS = "11111111-1111-4111-8111-111111111111";
const THEIRS = "22222222-2222-4222-8222-222222222222";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** State of this stack's check; without `ownerId`, as a tenant created before owner ids left it. */
const stored = (ownerId?: string): StoredHostCheck => ({
  ...inputs,
  hostUid: "uid-of-kube-system",
  ...(ownerId && { ownerId }),
});
const labelled = (annotations?: Record<string, string>) => ({
  labels: { "kubespaces.io/tenant": TENANT },
  annotations,
});
const ops = hostCheckOperations();

beforeEach(() => {
  host.clear();
  reads.length = 0;
});

describe("which existing namespace a tenant may create into", () => {
  it.each<[string, Parameters<typeof createRefusal>[2], string | undefined]>([
    ["none: it is new", undefined, undefined],
    ["this stack's: tenant label and this stack's owner id", { tenant: TENANT, ownerId: OURS }, undefined],
    [
      "another stack's: tenant label and another owner id",
      { tenant: TENANT, ownerId: THEIRS, owner: "alice@example.com" },
      `namespace ${NS} was created by another stack's tenant ${TENANT} (its owner id "${THEIRS}", this stack's ${OURS}; its kubespaces.io/owner "alice@example.com"); tenant ${TENANT} will not take it over, because deleting it from this stack would delete that tenant and its data. Choose another tenant name or namespace, or manage this tenant from the stack that created it.`,
    ],
    [
      "the tenant label without an owner id",
      { tenant: TENANT },
      `namespace ${NS} carries kubespaces.io/tenant=${TENANT} but no kubespaces.io/owner-id annotation, so it is not this stack's (owner id ${OURS}): someone made it by hand, or another stack did with a kubespaces release from before owner ids; tenant ${TENANT} will not take it over`,
    ],
    [
      "another tenant's",
      { tenant: "team-zephyr", ownerId: OURS },
      `namespace ${NS} already exists and belongs to tenant team-zephyr; tenant ${TENANT} will not take it over`,
    ],
    [
      "unlabelled",
      { ownerId: OURS },
      `namespace ${NS} already exists and has no kubespaces.io/tenant label; tenant ${TENANT} will not take it over`,
    ],
  ])("%s", (_, found, refusal) => {
    const got = createRefusal(TENANT, NS, found, OURS);
    if (refusal === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(refusal);
  });

  it("quotes another stack's text as JSON, cut short, so that it cannot write to the terminal", () => {
    const got = createRefusal(TENANT, NS, { tenant: TENANT, ownerId: `\u001b[2J${"x".repeat(200)}` }, OURS);
    expect(got).toContain(`its owner id "\\u001b[2J${"x".repeat(76)}…"`);
    expect(got).not.toContain("\u001b");
  });
});

describe("create", () => {
  it("accepts a new namespace and records a fresh owner id and the host", async () => {
    const { outs } = await ops.create(inputs);
    expect(outs).toEqual({ ...inputs, hostUid: "uid-of-kube-system", ownerId: expect.stringMatching(UUID) });
    expect(reads).toEqual([NS, "kube-system"]);
  });

  it("gives each stack an owner id of its own", async () => {
    const first = await ops.create(inputs);
    const second = await ops.create(inputs);
    expect(first.outs!.ownerId).not.toBe(second.outs!.ownerId);
  });

  it("refuses another stack's namespace of the same tenant, naming both owner ids", async () => {
    host.set(NS, labelled({ "kubespaces.io/owner-id": THEIRS }));
    await expect(ops.create(inputs)).rejects.toThrow(
      new RegExp(`its owner id "${THEIRS}", this stack's [0-9a-f-]{36}\\)`),
    );
  });

  it("refuses a namespace with the tenant's label and no owner id", async () => {
    host.set(NS, labelled());
    await expect(ops.create(inputs)).rejects.toThrow(
      `but no kubespaces.io/owner-id annotation, so it is not this stack's (owner id `,
    );
  });
});

describe("diff and update keep the owner id", () => {
  it("reports no change for this stack's own check, and a change for one without an owner id", async () => {
    expect((await ops.diff!("id", stored(OURS), inputs)).changes).toBe(false);
    expect((await ops.diff!("id", stored(), inputs)).changes).toBe(true);
  });

  it("keeps the recorded owner id through an update, and reads nothing for it", async () => {
    const news = { ...inputs, allowNamespaceMove: true };
    expect((await ops.update!("id", stored(OURS), news)).outs).toEqual({
      ...news,
      hostUid: "uid-of-kube-system",
      ownerId: OURS,
    });
    expect(reads).toEqual(["kube-system"]);
  });

  it("adopts the namespace of a tenant created before owner ids: an id now, kept from then on", async () => {
    host.set(NS, labelled());
    const adopted = (await ops.update!("id", stored(), inputs)).outs!;
    expect(adopted.ownerId).toMatch(UUID);
    expect(reads).toContain(NS);
    expect((await ops.diff!("id", adopted, inputs)).changes).toBe(false);
    expect((await ops.update!("id", adopted, { ...inputs, allowNamespaceMove: true })).outs!.ownerId).toBe(
      adopted.ownerId,
    );
  });

  it("does not adopt a namespace another stack has already written its owner id on", async () => {
    host.set(NS, labelled({ "kubespaces.io/owner-id": THEIRS }));
    await expect(ops.update!("id", stored(), inputs)).rejects.toThrow(
      `refusing to update tenant ${TENANT}: namespace ${NS} was claimed by another stack (owner id "${THEIRS}")`,
    );
  });

  it("holds a move into an existing namespace to the rules of a create, with the recorded owner id", async () => {
    const moved = { ...inputs, namespace: "teams-team-atlas", allowNamespaceMove: true };
    host.set("teams-team-atlas", labelled({ "kubespaces.io/owner-id": THEIRS }));
    await expect(recheckHost(stored(OURS), moved)).rejects.toThrow(`its owner id "${THEIRS}", this stack's ${OURS})`);
    host.set("teams-team-atlas", labelled({ "kubespaces.io/owner-id": OURS }));
    expect((await recheckHost(stored(OURS), moved)).ownerId).toBe(OURS);
  });
});

it("stops an update that moves the tenant to another namespace, unless the platform allows moves", async () => {
  const moved = { ...inputs, namespace: "teams-team-atlas" };
  await expect(recheckHost(stored(OURS), moved)).rejects.toThrow(
    "tenant team-atlas: this update moves it from namespace kubespaces-tenant-team-atlas to teams-team-atlas, which replaces the namespace and deletes kubespaces-tenant-team-atlas",
  );
  expect(reads).toEqual(["kube-system"]);
});

it("lets an update that keeps the namespace through, keeping the recorded host", async () => {
  // No recorded identity, an owner id and the same namespace: nothing to ask the cluster.
  expect(await recheckHost({ ...stored(OURS), hostUid: "" }, inputs)).toEqual({
    ...inputs,
    hostUid: "",
    ownerId: OURS,
  });
  expect(reads).toEqual([]);
});
