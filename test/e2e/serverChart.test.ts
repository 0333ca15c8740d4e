/**
 * The Helm chart (deploy/chart/kubespaces-server/) with the test bed's Helm, offline: `helm lint`,
 * `helm template` and `helm package` reach no cluster. Rendered from deploy/server/server.yaml's
 * placeholders it makes that file's objects, and from other values the objects the
 * KubespacesServer component renders for the same options; its values.schema.json refuses a
 * missing required value, naming it. (The test bed's Go tools are built before this tier, which
 * is where its Helm comes from; the test bed itself is not used.)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments, stringify } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import type { ServerInstallInput } from "../../provider/serverInstall/serverInstallOptions";
import { CONFIG_FILE_KEY } from "../../provider/serverInstall/serverPodLayout";
import { CONFIG_DIGEST_ANNOTATION } from "../../provider/serverInstall/serverObjectNames";
import { SERVER_CHART_DIR, SERVER_CHART_NAME } from "../../scripts/generators/serverChart";
import { chartValuesOf } from "../../scripts/generators/serverChartValues";
import { placeholderInstall, SERVER_DEPLOY_FILE } from "../../scripts/generators/serverDeployFile";
import { REPO_ROOT } from "./support/testbed";

const HELM = execFileSync("bash", [path.join(REPO_ROOT, "test/testbed/testbed.sh"), "tool-path", "helm"], {
  encoding: "utf8",
}).trim();
const CHART = path.join(REPO_ROOT, SERVER_CHART_DIR);
const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const work = mkdtempSync(path.join(os.tmpdir(), "kubespaces-chart-"));
let valuesFiles = 0;

/** Helm with `values` in a values file; the result rather than a throw. */
function helm(args: readonly string[], values: unknown) {
  const file = path.join(work, `values-${valuesFiles++}.yaml`);
  writeFileSync(file, stringify(values));
  const result = spawnSync(HELM, [...args, "-f", file], { encoding: "utf8" });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

/** Objects by kind and name: Helm writes them in its own order (by kind), the component in its. */
const byName = (objects: readonly any[]) =>
  new Map(objects.filter(Boolean).map((object) => [`${object.kind}/${object.metadata.name}`, object]));

/** What `helm template` renders from `values`, released in `namespace`. */
function template(values: unknown, namespace: string) {
  const result = helm(["template", SERVER_CHART_NAME, CHART, "--namespace", namespace], values);
  if (!result.ok) throw new Error(`helm template failed: ${result.stderr}`);
  return byName(parseAllDocuments(result.stdout).map((document) => document.toJS()));
}

/** What the component renders for `input`. */
const componentObjects = (input: ServerInstallInput) =>
  byName(serverInstallation(input).objects.map(({ object }) => object));

const placeholders = placeholderInstall(version);

it("passes helm lint --strict with the values a platform must set", () => {
  const { values } = chartValuesOf(placeholders);
  const linted = helm(["lint", "--strict", CHART], values);
  expect(linted.ok, linted.stdout + linted.stderr).toBe(true);
  expect(linted.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
});

it(`renders the objects of ${SERVER_DEPLOY_FILE} from its placeholders`, () => {
  const { values, namespace } = chartValuesOf(placeholders);
  const file = parseAllDocuments(readFileSync(path.join(REPO_ROOT, SERVER_DEPLOY_FILE), "utf8"));
  expect(template(values, namespace)).toEqual(byName(file.map((document) => document.toJS())));
});

describe.each([
  {
    name: "three replicas, a route to a listener, other resources, ports, names and a backend with credentials",
    input: {
      ...placeholders,
      image: "registry.example.org/platform/kubespaces-server:0.1.0-rc.1",
      imagePullPolicy: "Always",
      replicas: 3,
      installation: {
        namespace: "platform-ks",
        server: { serviceAccount: "ks-server" },
        adminGroup: "platform-admins",
      },
      stateBackend: { url: "postgres://kubespaces@db.example.org:5432/kubespaces", credentialsSecret: "ks-state" },
      secretName: "ks-secrets",
      port: 8081,
      servicePort: 8443,
      route: {
        gateway: { name: "shared", namespace: "kubespaces-gateway", sectionName: "https" },
        hostname: "ks.example.org",
      },
      resources: { requests: { cpu: "2", memory: "3Gi" }, limits: { cpu: "4", memory: "8Gi" } },
      terminationGracePeriodSeconds: 120,
      networkPolicy: { httpFrom: [{ namespaceSelector: { matchLabels: { team: "edge" } } }], egressPorts: [3128, 443] },
    },
  },
  {
    name: "a route to every listener, URLs on ports of their own, and whom the metrics are for",
    input: {
      ...placeholders,
      stateBackend: { url: "postgresql://kubespaces@db.example.org:6432/kubespaces" },
      config: { signIn: { issuer: "https://login.example.com:8443" }, http: { publicUrl: "https://ks.example.org" } },
      route: { gateway: { name: "shared", namespace: "kubespaces-gateway" }, hostname: "kubespaces.example.com" },
      resources: { requests: { memory: "2Gi" } },
      networkPolicy: {
        metricsFrom: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } }],
      },
    },
  },
  {
    name: "no NetworkPolicy, a backend without credentials and empty resources",
    input: {
      ...placeholders,
      stateBackend: { url: "gs://kubespaces-state" },
      resources: {},
      networkPolicy: { enabled: false },
    },
  },
] satisfies { name: string; input: ServerInstallInput }[])("with $name", ({ input }) => {
  it("renders what the component renders for the same options", () => {
    const { values, namespace } = chartValuesOf(input);
    expect(template(values, namespace)).toEqual(componentObjects(input));
  });
});

it("puts the configuration's other fields in as the component does: the same configuration, its own digest", () => {
  const input: ServerInstallInput = {
    ...placeholders,
    config: {
      signIn: { issuer: "https://login.example.com", portalClientId: "portal", scopes: ["openid", "email"] },
      http: { publicUrl: "https://kubespaces.example.com", sessionHours: 4 },
      requireApproval: true,
      platform: { quota: { ceilings: { cpu: "16", memory: "64Gi" } } },
      // Its URL's port is one the NetworkPolicy opens.
      snapshots: {
        s3: {
          bucket: "snapshots",
          url: "http://minio.example.org:9000",
          accessKeyIdFile: "/etc/kubespaces/snapshots/access-key-id",
          secretAccessKeyFile: "/etc/kubespaces/snapshots/secret-access-key",
        },
      },
    },
  };
  const { values, namespace } = chartValuesOf(input);
  const chart = template(values, namespace);
  const component = componentObjects(input);
  const configOf = (objects: Map<string, any>) =>
    objects.get("ConfigMap/kubespaces-server-config").data[CONFIG_FILE_KEY];
  const chartConfig: string = configOf(chart);
  expect(parse(chartConfig)).toEqual(parse(configOf(component)));
  const annotations = (objects: Map<string, any>) =>
    objects.get("Deployment/kubespaces-server").spec.template.metadata.annotations;
  expect(annotations(chart)[CONFIG_DIGEST_ANNOTATION]).toBe(createHash("sha256").update(chartConfig).digest("hex"));
  // Beyond the text (Helm's YAML writes lists and key order its own way) and its digest, the same objects.
  for (const objects of [chart, component]) {
    objects.get("ConfigMap/kubespaces-server-config").data[CONFIG_FILE_KEY] = "";
    annotations(objects)[CONFIG_DIGEST_ANNOTATION] = "";
  }
  expect(chart).toEqual(component);
});

it("refuses values that are missing, naming each, and values that are not the chart's", () => {
  const missing = helm(["template", CHART], {});
  expect(missing.ok).toBe(false);
  expect(missing.stderr).toContain("missing property 'image'");
  expect(missing.stderr).toMatch(/at '\/stateBackend': missing property 'url'/);
  expect(missing.stderr).toMatch(/at '\/config\/signIn': missing property 'issuer'/);
  expect(missing.stderr).toMatch(/at '\/config\/http': missing property 'publicUrl'/);
  const { values } = chartValuesOf(placeholders);
  const notTheChart = helm(["template", CHART], {
    ...(values as object),
    installation: { namespace: "elsewhere" },
    config: { ...placeholders.config, http: { publicUrl: "https://kubespaces.example.com", listen: "0.0.0.0:80" } },
  });
  expect(notTheChart.ok).toBe(false);
  // The namespace is the release's; where the server listens is the chart's, from `port`.
  expect(notTheChart.stderr).toMatch(/at '\/installation': additional properties 'namespace' not allowed/);
  expect(notTheChart.stderr).toMatch(/at '\/config\/http': additional properties 'listen' not allowed/);
});

it("packages as a chart archive of the package's version", () => {
  const packaged = spawnSync(HELM, ["package", CHART, "--destination", work], { encoding: "utf8" });
  expect(packaged.status, packaged.stderr).toBe(0);
  const archive = path.join(work, `${SERVER_CHART_NAME}-${version}.tgz`);
  expect(existsSync(archive)).toBe(true);
  const shown = parse(execFileSync(HELM, ["show", "chart", archive], { encoding: "utf8" }));
  expect(shown).toMatchObject({ name: SERVER_CHART_NAME, version, appVersion: version });
});
