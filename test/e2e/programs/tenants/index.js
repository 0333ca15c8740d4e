// End-to-end program: declares the tenants listed in config `tenants` (JSON) with the package as a
// user's program would import it. JavaScript, so that each `pulumi up` skips a TypeScript compile.
// The vCluster chart is the real pinned chart, packaged by the test bed from the pinned
// github.com/loft-sh/vcluster module (config `chartPath`, a local .tgz: nothing is downloaded).
const pulumi = require("@pulumi/pulumi");
const { Tenant } = require("@kubespaces/pulumi");

const config = new pulumi.Config();
const chartPath = config.require("chartPath");
// The test bed's API server, as its control planes reach it (https://127.0.0.1:<port>): the only
// address the tenants' NetworkPolicy lets them reach the host API server at.
const apiServer = new URL(config.require("apiServer"));
const declared = config.requireObject("tenants");

const tenants = declared.map(
  (t) =>
    new Tenant(t.name, {
      owner: t.owner ?? `${t.name}@example.com`,
      resources: t.resources,
      limitRange: t.limitRange,
      isolation: t.isolation,
      vcluster: {
        kubernetesVersion: t.kubernetesVersion,
        valuesOverrides: {
          controlPlane: {
            statefulSet: {
              // The chart's default (a StatefulSet whose data PVC the test bed's static provisioner
              // binds) unless a tenant turns it off (then the chart renders a Deployment).
              ...(t.persistence === false && { persistence: { volumeClaim: { enabled: false } } }),
              // e.g. kubespaces.io/testbed-hold-control-plane: the test bed then does not start it.
              annotations: t.statefulSetAnnotations ?? {},
            },
          },
        },
      },
      // The platform's policy: the test bed's chart, its API server and short timeouts.
      platform: {
        chart: { localPath: chartPath },
        network: { apiServerCidrs: [`${apiServer.hostname}/32`], apiServerPorts: [Number(apiServer.port)] },
        exposure: t.exposure,
        namespaceAccess: t.namespaceAccess,
        helmTimeoutSeconds: 180,
        readinessTimeoutSeconds: t.readinessTimeoutSeconds ?? 180,
      },
    }),
);

const byName = (pick) => Object.fromEntries(tenants.map((tenant, i) => [declared[i].name, pick(tenant)]));
exports.namespaces = byName((t) => t.namespace);
exports.apiServerUrls = byName((t) => t.apiServerUrl);
exports.appsDomains = byName((t) => t.appsDomain);
// A map holding secrets is itself secret as a whole, so the stack output says whether they were.
exports.kubeconfigs = pulumi.output(byName((t) => t.kubeconfig));
exports.kubeconfigSecretRefs = byName((t) => t.kubeconfigSecretRef);
exports.statuses = byName((t) => t.status);
