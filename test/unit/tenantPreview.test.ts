/** A Tenant under mocks in preview mode: nothing waits, readiness outputs stay unknown. */
import { expect, it } from "vitest";
import { Tenant } from "../../provider/index";
import { installMocks, settle, valueOf } from "./support/pulumiMocks";

const registered = installMocks(true);
/** How the mocks show an input value that is unknown in preview. */
const UNKNOWN = { __pulumiUnknown: true };

it("leaves the readiness outputs unknown in preview and still knows the rendered ones", async () => {
  const tenant = new Tenant("team-atlas", { owner: "a" });
  expect(await valueOf(tenant.namespace)).toBe("kubespaces-tenant-team-atlas");
  expect(await valueOf(tenant.apiServerUrl)).toBe("https://team-atlas.kubespaces-tenant-team-atlas.svc:443");
  expect(await valueOf(tenant.kubeconfig)).toBeUndefined();
  expect(await valueOf(tenant.status)).toBeUndefined();
});

it("in a preview where the owner id is not known yet, keeps the namespace's name and other metadata known", async () => {
  new Tenant("team-atlas", { owner: "a" });
  await settle();
  const metadata = registered.find((r) => r.name === "team-atlas-namespace")?.inputs.metadata;
  expect(metadata).toMatchObject({ name: "kubespaces-tenant-team-atlas", labels: { "kubespaces.io/tenant": "team-atlas" } });
  expect(metadata.annotations).toEqual({ "kubespaces.io/owner": "a", "kubespaces.io/owner-id": UNKNOWN });
});
