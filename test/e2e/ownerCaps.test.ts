/**
 * Caps per owner on the test bed: `kubespaces server` runs with `caps.perOwner.tenants: 1`, and
 * alice applies two Tenants with kubectl. Admission cannot count her Tenants, so the second is
 * stored; the server then refuses its first generation before anything runs: Failed, reason
 * InvalidRequest, the status naming the cap and the tenant she has, an InvalidRequest Event, and
 * no namespace. The API's and
 * the portal's refusals, and the other caps, are unit-tested (ownerCaps.test.ts): they run the same
 * check before anything is written.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { hostClients, readOrUndefined } from "./support/hostCluster";
import { kubectl, tenantEventReasons } from "./support/hostKubectl";
import { newCliUser } from "./support/kubespacesCli";
import { startServedKubespaces, stopServedKubespaces, type ServedKubespaces } from "./support/servedKubespaces";
import { expectNothingLeft, tenantNamespace } from "./support/tenantAssertions";

const ALICE = { user: "alice@example.com" };
const FIRST = "team-caps-a";
const SECOND = "team-caps-b";
const REQUESTERS = "e2e-caps-requesters";

let served: ServedKubespaces | undefined;

/** Alice's Tenant `name`, applied by her with kubectl. */
function applyAlices(name: string, spec: object) {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-caps-")), `${name}.yaml`);
  const tenant = { apiVersion: "kubespaces.io/v1alpha1", kind: "Tenant", metadata: { name }, spec };
  writeFileSync(file, stringify(tenant));
  return kubectl(ALICE, "apply", "-f", file);
}

/** Tenant `name`'s status, as the API server holds it. */
async function statusOf(name: string): Promise<{ phase: string; message: string; conditions: { reason: string }[] }> {
  const { stdout } = await kubectl(undefined, "get", "tenant", name, "-o", "json");
  return JSON.parse(stdout).status;
}

beforeAll(async () => {
  served = await startServedKubespaces(newCliUser(), "caps", { caps: { perOwner: { tenants: 1 } } });
  await kubectl(undefined, "delete", "clusterrolebinding", REQUESTERS, "--ignore-not-found");
  await kubectl(
    undefined,
    "create",
    "clusterrolebinding",
    REQUESTERS,
    "--clusterrole=kubespaces-tenant-requester",
    `--user=${ALICE.user}`,
  );
});

afterAll(async () => {
  // As their owner, while the server still reconciles: its finalizer goes once each teardown ends.
  if (served)
    await kubectl(
      ALICE,
      "delete",
      "tenant",
      FIRST,
      SECOND,
      "--ignore-not-found",
      "--wait=true",
      "--timeout=300s",
    ).catch(() => undefined);
  await stopServedKubespaces(served);
  await kubectl(undefined, "delete", "clusterrolebinding", REQUESTERS, "--ignore-not-found");
});

it("refuses alice's second Tenant applied with kubectl: Failed, InvalidRequest, naming the cap; nothing is made for it", async () => {
  await applyAlices(FIRST, { owner: ALICE.user, resources: { cpu: "3", memory: "4Gi" } });
  await kubectl(undefined, "wait", "--for=condition=Ready", `tenant/${FIRST}`, "--timeout=600s");

  // Admission lets it through: it cannot count her Tenants.
  await applyAlices(SECOND, { owner: ALICE.user, resources: { cpu: "3", memory: "4Gi" } });
  await kubectl(undefined, "wait", "--for=jsonpath={.status.phase}=Failed", `tenant/${SECOND}`, "--timeout=120s");
  const status = await statusOf(SECOND);
  expect(status.conditions[0]!.reason).toBe("InvalidRequest");
  expect(status.message).toContain(
    `caps.perOwner.tenants: alice@example.com may own 1 tenant(s) and owns 1 (${FIRST})`,
  );
  expect(await tenantEventReasons(SECOND)).toContain("InvalidRequest");
  const { core } = hostClients();
  expect(await readOrUndefined(() => core.readNamespace({ name: tenantNamespace(SECOND) }))).toBeUndefined();
  // Her first tenant is left as it was.
  expect((await statusOf(FIRST)).phase).toBe("Ready");
});

it("leaves nothing of either tenant once both are deleted", async () => {
  await kubectl(ALICE, "delete", "tenant", FIRST, SECOND, "--wait=true", "--timeout=300s");
  await expectNothingLeft(FIRST);
  await expectNothingLeft(SECOND);
});
