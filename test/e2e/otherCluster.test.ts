/**
 * A destroy run against another cluster deletes nothing there: the tenant recorded its host's
 * identity (the kube-system UID) when it was created, and its readiness resource, which a destroy
 * deletes first, refuses a host with another identity. The other cluster is a second test bed in a
 * run directory of its own, reached through an ambient KUBECONFIG as a user's shell would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, expect, it } from "vitest";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { REPO_ROOT, testbedEnv } from "./support/testbed";
import { removeStack, tenantsStack } from "./support/tenantsStack";

const TENANT = "e2e-elsewhere";
const NAMESPACE = `kubespaces-tenant-${TENANT}`;
const otherDir = mkdtempSync(path.join(os.tmpdir(), "kubespaces-other-cluster-"));
const otherTestbed = (...args: string[]) =>
  execFileSync("bash", [path.join(REPO_ROOT, "test/testbed/testbed.sh"), ...args], {
    env: { ...process.env, KUBESPACES_TESTBED_DIR: otherDir },
    stdio: ["ignore", "inherit", "inherit"],
  });
let stack: Stack;
let other: CoreV1Api;

beforeAll(async () => {
  otherTestbed("up");
  const config = new KubeConfig();
  config.loadFromFile(path.join(otherDir, "kubeconfig"));
  other = config.makeApiClient(CoreV1Api);
  // A namespace of the same name on the other cluster, labelled as the tenant's would be.
  await other.createNamespace({ body: { metadata: { name: NAMESPACE, labels: { "kubespaces.io/tenant": TENANT } } } });
  stack = await tenantsStack("other-cluster", [{ name: TENANT }]);
  await stack.up();
});

afterAll(async () => {
  stack.workspace.envVars.KUBECONFIG = testbedEnv().KUBECONFIG;
  await removeStack(stack);
  otherTestbed("down");
  rmSync(otherDir, { recursive: true, force: true });
});

it("refuses to destroy from a shell pointed at another cluster, and deletes nothing on either", async () => {
  stack.workspace.envVars.KUBECONFIG = path.join(otherDir, "kubeconfig");
  const failed = await stack.destroy().then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed?.message).toContain(
    `refusing to delete tenant ${TENANT}: the host cluster reached now is not the one the tenant was created on`,
  );
  expect(await readOrUndefined(() => other.readNamespace({ name: NAMESPACE }))).toBeDefined();
  expect(await readOrUndefined(() => hostClients().core.readNamespace({ name: NAMESPACE }))).toBeDefined();
});
