/**
 * The access check: it returns once the API server says the stack's runner may create in the
 * tenant namespace, waits (saying so once) while it says no, and gives up with a message naming
 * the namespace, the binding and the right after its limit. The host is a fake AuthorizationV1Api
 * behind loadHostKubeConfig, answering each SelfSubjectAccessReview from a queue of answers.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AccessCheckInputs } from "../../provider/contracts/accessCheckSchema";
import {
  accessNotGrantedMessage,
  awaitNamespaceAccess,
  CHECKED_ACCESS,
} from "../../provider/lifecycle/accessCheck/namespaceAccessWait";
import { accessCheckOperations } from "../../provider/lifecycle/resourceOperations";

/** The answers the fake host gives, in order; the last one is repeated. */
let answers: boolean[] = [];
const reviews: unknown[] = [];

vi.mock("../../provider/lifecycle/hostAccess", () => ({
  loadHostKubeConfig: () => ({
    makeApiClient: () => ({
      async createSelfSubjectAccessReview({ body }: { body: unknown }) {
        reviews.push(body);
        const allowed = answers.length > 1 ? answers.shift()! : answers[0];
        return { status: { allowed } };
      },
    }),
  }),
}));

const inputs: AccessCheckInputs = {
  tenantName: "team-atlas",
  namespace: "kubespaces-tenant-team-atlas",
  roleBinding: "kubespaces-namespace-access",
};

beforeEach(() => {
  answers = [];
  reviews.length = 0;
});

describe("the access check", () => {
  it("asks about creating a ResourceQuota in the tenant namespace, and creates at once when allowed", async () => {
    answers = [true];
    const progress: string[] = [];
    const created = await accessCheckOperations(() => (line) => progress.push(line)).create(inputs);
    expect(created).toEqual({ id: "kubespaces-tenant-team-atlas/kubespaces-namespace-access", outs: inputs });
    expect(reviews).toEqual([
      {
        spec: {
          resourceAttributes: { namespace: inputs.namespace, verb: "create", group: "", resource: "resourcequotas" },
        },
      },
    ]);
    expect(progress).toEqual([]);
  });

  it("waits while the binding is not in force yet, says so once, and returns when it is", async () => {
    answers = [false, false, false, true];
    const progress: string[] = [];
    await accessCheckOperations(() => (line) => progress.push(line)).create(inputs);
    expect(reviews).toHaveLength(4);
    expect(progress).toEqual([
      "waiting for RoleBinding kubespaces-namespace-access to take effect in namespace kubespaces-tenant-team-atlas",
    ]);
  });

  it("gives up after its limit, naming the namespace, the binding and the right it lacks", async () => {
    const asked: string[] = [];
    const waiting = awaitNamespaceAccess(inputs, () => undefined, {
      mayCreate: async (namespace) => (asked.push(namespace), false),
      limitMs: 50,
      intervalMs: 5,
    });
    await expect(waiting).rejects.toThrow(accessNotGrantedMessage(inputs, 50));
    expect(asked.length).toBeGreaterThan(1);
    expect(new Set(asked)).toEqual(new Set([inputs.namespace]));
    expect(accessNotGrantedMessage(inputs, 60_000)).toBe(
      `tenant team-atlas: after 60 s the identity running this stack still may not ${CHECKED_ACCESS.verb} ${CHECKED_ACCESS.resource} in namespace kubespaces-tenant-team-atlas. If its rights there come from RoleBinding kubespaces-namespace-access (platform.namespaceAccess), check that the binding's subject is this identity and its ClusterRole grants that`,
    );
  });

  it("waits again on an update only when an input changed", async () => {
    const ops = accessCheckOperations(() => () => undefined);
    expect(await ops.diff!("id", inputs, { ...inputs })).toEqual({ changes: false });
    expect(await ops.diff!("id", inputs, { ...inputs, namespace: "elsewhere" })).toEqual({ changes: true });
    answers = [true];
    expect(await ops.update!("id", inputs, { ...inputs, namespace: "elsewhere" })).toEqual({
      outs: { ...inputs, namespace: "elsewhere" },
    });
    expect(reviews).toHaveLength(1);
  });
});
