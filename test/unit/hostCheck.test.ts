/** The host check's decisions that need no cluster: an update that would move a tenant stops first. */
import { expect, it } from "vitest";
import { recheckHost } from "../../provider/lifecycle/hostCheck/hostCheckOperations";

const olds = { tenantName: "team-atlas", namespace: "kubespaces-tenant-team-atlas" };

it("stops an update that moves the tenant to another namespace, unless the platform allows moves", async () => {
  const moved = { ...olds, namespace: "teams-team-atlas" };
  await expect(recheckHost(olds as never, moved)).rejects.toThrow(
    "tenant team-atlas: this update moves it from namespace kubespaces-tenant-team-atlas to teams-team-atlas, which replaces the namespace and deletes kubespaces-tenant-team-atlas",
  );
});

it("lets an update that keeps the namespace through, keeping the recorded host", async () => {
  // No recorded identity and the same namespace: nothing to ask the cluster.
  expect(await recheckHost({ ...olds, hostUid: "" } as never, olds)).toEqual({ ...olds, hostUid: "" });
});
