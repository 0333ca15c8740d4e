/** A Tenant under mocks in preview mode: nothing waits, readiness outputs stay unknown. */
import { expect, it } from "vitest";
import { Tenant } from "../../provider/index";
import { installMocks, valueOf } from "./support/pulumiMocks";

installMocks(true);

it("leaves the readiness outputs unknown in preview and still knows the rendered ones", async () => {
  const tenant = new Tenant("team-atlas", { owner: "a" });
  expect(await valueOf(tenant.namespace)).toBe("kubespaces-tenant-team-atlas");
  expect(await valueOf(tenant.apiServerUrl)).toBe("https://team-atlas.kubespaces-tenant-team-atlas.svc:443");
  expect(await valueOf(tenant.kubeconfig)).toBeUndefined();
  expect(await valueOf(tenant.status)).toBeUndefined();
});
