// The platform's tenants stack, fed by Tenant files: each team commits a kubespaces.io/v1alpha1
// Tenant manifest (its request) under ./tenants, the pull request shows this stack's preview, and
// the merge runs `pulumi up`. Removing a team's file tears its tenant down on the next `up`.
// The policy below is the platform team's; a file cannot change it.
import * as pulumi from "@pulumi/pulumi";
import { TenantSet, type TenantPlatformArgs } from "@kubespaces/pulumi";

const config = new pulumi.Config();
// On the local test bed, the chart the test bed packaged (`npm start` style); elsewhere the pinned mirror.
const testbedChart = config.get("vclusterChartPath");

const platform: TenantPlatformArgs = {
  podSecurity: { default: "baseline", allowed: ["baseline", "restricted"] },
  quota: { ceilings: { cpu: "16", memory: "64Gi", storage: "200Gi", servicesNodePorts: 0, servicesLoadBalancers: 0 } },
  ...(testbedChart && { chart: { localPath: testbedChart } }),
};

const tenants = new TenantSet("tenants", {
  path: config.get("tenantsDir") ?? "tenants",
  platform,
  // `${OWNER_DOMAIN}` in a file becomes this stack's value.
  variables: { OWNER_DOMAIN: config.get("ownerDomain") ?? "example.com" },
});

export const names = tenants.names;
export const namespaces = Object.fromEntries(
  Object.entries(tenants.tenants).map(([name, tenant]) => [name, tenant.namespace]),
);
export const kubeconfigs = pulumi.secret(
  Object.fromEntries(Object.entries(tenants.tenants).map(([name, tenant]) => [name, tenant.kubeconfig])),
);
