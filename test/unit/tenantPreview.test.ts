/** A Tenant under mocks in preview mode: nothing waits, readiness outputs stay unknown. */
import * as pulumi from "@pulumi/pulumi";
import { expect, it } from "vitest";
import { Tenant } from "../../provider/index";
import { childEdges } from "../../provider/graph/childEdges";
import { childRoles } from "../../provider/render/renderTenant";
import { installMocks, registeredEdges, settle, valueOf } from "./support/pulumiMocks";

const registered = installMocks(true);
/** How the mocks show an input value that is unknown in preview. */
const UNKNOWN = { __pulumiUnknown: true };

/** A resource whose id a preview does not know yet. */
class OwnerSource extends pulumi.CustomResource {
  constructor(name: string, opts: pulumi.CustomResourceOptions) {
    super("test:index:OwnerSource", name, {}, opts);
  }
}

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
  expect(metadata).toMatchObject({
    name: "kubespaces-tenant-team-atlas",
    labels: { "kubespaces.io/tenant": "team-atlas" },
  });
  expect(metadata.annotations).toEqual({ "kubespaces.io/owner": "a", "kubespaces.io/owner-id": UNKNOWN });
});

it("registers every child with its edges when an input is still unknown, as a resource's output is in a preview", async () => {
  const source = new OwnerSource("owner-source", {});
  new Tenant("team-borealis", { owner: source.id as pulumi.Output<string> });
  await settle();
  const table = childEdges(childRoles({ networkPolicy: true }));
  for (const [role, edges] of Object.entries(table)) {
    expect(
      registered.some((r) => r.name === `team-borealis-${role}`),
      role,
    ).toBe(true);
    const dependencies = registeredEdges.get(`team-borealis-${role}`)!.dependencies;
    for (const target of edges.dependsOn)
      expect(
        dependencies.some((urn) => urn.endsWith(`::team-borealis-${target}`)),
        `${role} -> ${target}`,
      ).toBe(true);
  }
});
