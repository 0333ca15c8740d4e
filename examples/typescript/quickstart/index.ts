// The demo tenant: team-atlas with its own virtual cluster, exposed under the configured base domain.
// `npm start` sets `vclusterChartPath` to the vCluster stand-in chart when it runs on the local
// test bed, where the real vCluster images cannot run.
import * as pulumi from "@pulumi/pulumi";
import { Tenant } from "@kubespaces/pulumi";

const config = new pulumi.Config();
const standInChart = config.get("vclusterChartPath");

const atlas = new Tenant("team-atlas", {
  owner: "alice@example.com",
  resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
  exposure: {
    baseDomain: config.require("baseDomain"),
    issuerRef: { name: config.require("issuer") },
  },
  vcluster: standInChart
    ? {
        chart: { localPath: standInChart },
        // Nothing provisions volumes on the test bed.
        valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } },
      }
    : {},
});

export const namespace = atlas.namespace;
export const apiServerUrl = atlas.apiServerUrl;
export const appsDomain = atlas.appsDomain;
export const kubeconfigSecretRef = atlas.kubeconfigSecretRef;
export const status = atlas.status;
export const kubeconfig = atlas.kubeconfig;
