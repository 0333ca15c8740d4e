/**
 * Readiness on the real engine and API server when things go wrong: a virtual cluster that never
 * writes its kubeconfig, and an API server restarted while `up` waits. The test bed does not
 * start a vCluster's control plane (which writes the kubeconfig Secret) while its workload carries
 * the test-bed annotation HOLD_CONTROL_PLANE, as a node that cannot start the container.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, hostClients, readOrUndefined } from "./support/hostCluster";
import {
  HOLD_CONTROL_PLANE,
  removeStack,
  setTenants,
  stepRecorder,
  tenantsStack,
  type TenantDecl,
} from "./support/tenantsStack";
import { testbed, testbedEvidence } from "./support/testbed";

const { core, apps } = hostClients();
let stack: Stack;

const withheld = (name: string, readinessTimeoutSeconds: number): TenantDecl => ({
  name,
  resources: { cpu: "4", memory: "5Gi" },
  persistence: false,
  statefulSetAnnotations: { [HOLD_CONTROL_PLANE]: "true" },
  readinessTimeoutSeconds,
});

/** Lets the test bed start the control plane, which then writes the kubeconfig. */
async function releaseKubeconfig(name: string): Promise<void> {
  const namespace = `kubespaces-tenant-${name}`;
  await apps.patchNamespacedDeployment({
    name,
    namespace,
    body: [{ op: "remove", path: `/metadata/annotations/${HOLD_CONTROL_PLANE.replace("/", "~1")}` }],
  });
}

const secretExists = (name: string) => async () =>
  (await readOrUndefined(() =>
    core.readNamespacedSecret({ name: `vc-${name}`, namespace: `kubespaces-tenant-${name}` }),
  )) !== undefined;

beforeAll(async () => {
  stack = await tenantsStack("readiness", []);
});

afterAll(() => removeStack(stack));

describe("readiness that does not come at once", () => {
  it("fails within the timeout naming what is missing, then converges on the next up", async () => {
    await setTenants(stack, [withheld("team-late", 20)]);
    const started = Date.now();
    const failed = await stack.up().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failed?.message).toContain("virtual cluster not ready after 20s");
    expect(failed?.message).toContain("Secret vc-team-late not found");
    // Helm install and the wait, well under Helm's own 120 s timeout.
    expect(Date.now() - started).toBeLessThan(110_000);

    await releaseKubeconfig("team-late");
    await eventually(secretExists("team-late"), 120_000, "the control plane to write vc-team-late");
    const { steps, record } = stepRecorder();
    const result = await stack.up({ onEvent: record });
    expect(result.summary.result).toBe("succeeded");
    expect(steps.find((s) => s.name === "team-late-readiness")?.op).toBe("create");
    expect((await stack.outputs()).statuses.value["team-late"].phase).toBe("Ready");
  });

  it("recovers when the API server restarts while up waits", async () => {
    await setTenants(stack, [withheld("team-late", 20), withheld("team-restart", 240)]);
    let waiting!: () => void;
    const readinessStarted = new Promise<void>((resolve) => (waiting = resolve));
    const up = stack.up({
      onEvent: (event) => {
        const meta = event.resourcePreEvent?.metadata;
        if (meta?.op === "create" && meta.urn.endsWith("::team-restart-readiness")) waiting();
      },
    });
    await readinessStarted;
    await eventually(
      async () =>
        (await apps.readNamespacedDeployment({ name: "team-restart", namespace: "kubespaces-tenant-team-restart" }))
          .status?.readyReplicas === 1,
      60_000,
      "team-restart to run",
    );
    testbed("restart-apiserver");
    await releaseKubeconfig("team-restart");
    const result = await up.catch((error: Error) => {
      throw new Error(`${error.message}\n${testbedEvidence("kubespaces-tenant-team-restart")}`);
    });
    expect(result.summary.result).toBe("succeeded");
    expect((await stack.outputs()).statuses.value["team-restart"].phase).toBe("Ready");
  });
});
