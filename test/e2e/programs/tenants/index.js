// End-to-end program: declares the tenants listed in config `tenants` (JSON) with the package as a
// user's program would import it. JavaScript, so that each `pulumi up` skips a TypeScript compile.
// The vCluster chart is the local stand-in (config `chartPath`): the real images cannot run on the
// test bed.
const pulumi = require("@pulumi/pulumi");
const { Tenant } = require("@kubespaces/pulumi");

const config = new pulumi.Config();
const chartPath = config.require("chartPath");
const declared = config.requireObject("tenants");

const tenants = declared.map(
  (t) =>
    new Tenant(t.name, {
      owner: t.owner ?? `${t.name}@example.com`,
      resources: t.resources,
      limitRange: t.limitRange,
      vcluster: {
        kubernetesVersion: t.kubernetesVersion,
        valuesOverrides: {
          controlPlane: {
            statefulSet: {
              // Nothing provisions volumes on the test bed.
              persistence: { volumeClaim: { enabled: false } },
              // e.g. kubespaces.io/stand-in-withhold-secret: the stand-in then writes no kubeconfig.
              annotations: t.statefulSetAnnotations ?? {},
            },
          },
        },
      },
      // The platform's policy: the test bed's chart and short timeouts.
      platform: {
        chart: { localPath: chartPath },
        exposure: t.exposure,
        helmTimeoutSeconds: 120,
        readinessTimeoutSeconds: t.readinessTimeoutSeconds ?? 120,
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
