// The demo tenant: team-atlas with its own virtual cluster, exposed under the configured base domain.
// Two roles: the platform team sets the policy once; a team's request asks within it.
// `npm start` sets `vclusterChartPath` to the test bed's chart when it runs on the local test bed.
import * as pulumi from "@pulumi/pulumi";
import { Tenant, type TenantPlatformArgs } from "@kubespaces/pulumi";

const config = new pulumi.Config();
const testbedChart = config.get("vclusterChartPath");

// The platform team's policy: where tenants are published, and (on the test bed) the chart.
const platform: TenantPlatformArgs = {
  exposure: { baseDomain: config.require("baseDomain"), issuerRef: { name: config.require("issuer") } },
  ...(testbedChart && { chart: { localPath: testbedChart } }),
};

// The team's request.
const atlas = new Tenant("team-atlas", {
  owner: "alice@example.com",
  resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
  // Nothing provisions volumes on the test bed.
  ...(testbedChart && {
    vcluster: {
      valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } },
    },
  }),
  platform,
});

export const namespace = atlas.namespace;
export const apiServerUrl = atlas.apiServerUrl;
export const appsDomain = atlas.appsDomain;
export const kubeconfigSecretRef = atlas.kubeconfigSecretRef;
export const status = atlas.status;
export const kubeconfig = atlas.kubeconfig;
