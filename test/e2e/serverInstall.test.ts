/**
 * `kubespaces server` installed from the generated YAML on the test bed's real API server (1.36):
 * the Tenant resource's YAML (the namespace, the ServiceAccount, its RBAC), then
 * deploy/server/server.yaml as it is, its placeholders left in. The API server's strict field
 * validation and Pod Security admission (the namespace enforces `restricted` here) judge the
 * objects; KWOK stands in for the kubelet and makes the pods Running and Ready without running a
 * container, so the server process itself does not run here: what this shows is that the
 * manifests are accepted and their pods admitted, scheduled and counted Ready. The HTTPRoute the
 * component adds with a route is applied too, against the test bed's Gateway API CRDs.
 *
 * Then the same installation from the Helm chart (deploy/chart/kubespaces-server/) with the test
 * bed's Helm, from the values of the same placeholders: `helm install` makes the objects the YAML
 * made (compared as the API server holds them), its pods pass the same checks, and `helm
 * uninstall` leaves none of them.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { SERVER_CHART_DIR, SERVER_CHART_NAME } from "../../scripts/generators/serverChart";
import { chartValuesOf } from "../../scripts/generators/serverChartValues";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";
import { eventually } from "./support/hostCluster";
import { REPO_ROOT, testbedEnv } from "./support/testbed";

const env = testbedEnv();
const DEPLOY = ["tenant-crd.yaml", "admission.yaml", "rbac.yaml"].map((file) => path.join(REPO_ROOT, "deploy", file));
const SERVER_YAML = path.join(REPO_ROOT, "deploy/server/server.yaml");
const NAMESPACE = "kubespaces-system";
const RESTRICTED = "pod-security.kubernetes.io/enforce";
const HELM = spawnSync("bash", [path.join(REPO_ROOT, "test/testbed/testbed.sh"), "tool-path", "helm"], {
  encoding: "utf8",
}).stdout.trim();
const SERVER_POD_SELECTOR = "app.kubernetes.io/name=kubespaces-server";
const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
/** The kinds the installation makes in its namespace. */
const INSTALLED_KINDS = "configmap,deployment,poddisruptionbudget,service,networkpolicy";

/** kubectl on the test bed as its admin; the result rather than a throw. */
function kubectl(args: readonly string[], input?: string) {
  const result = spawnSync("kubectl", args, { env, encoding: "utf8", input });
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

/** kubectl that must succeed. */
function kubectlOk(args: readonly string[], input?: string): string {
  const result = kubectl(args, input);
  if (!result.ok) throw new Error(`kubectl ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout;
}

/** The route the component renders for the test bed's shared Gateway. */
const route = serverInstallation({
  ...placeholderInstall("0.0.0-e2e"),
  route: { gateway: { name: "shared", namespace: "kubespaces-gateway" }, hostname: "kubespaces.e2e.example.com" },
}).objects.find((installed) => installed.role === "route")!.object;

beforeAll(() => {
  for (const file of DEPLOY) kubectlOk(["apply", "-f", file]);
  kubectlOk(["label", "namespace", NAMESPACE, `${RESTRICTED}=restricted`, "--overwrite"]);
  const values = Object.values(SERVER_SECRET_KEYS).map(
    (key) => `--from-literal=${key}=${randomBytes(32).toString("hex")}`,
  );
  kubectlOk(["-n", NAMESPACE, "create", "secret", "generic", "kubespaces-server", ...values]);
});

afterAll(() => {
  spawnSync(HELM, ["uninstall", SERVER_CHART_NAME, "-n", NAMESPACE, "--wait", "--ignore-not-found"], { env });
  kubectl(["delete", "-f", "-", "--ignore-not-found"], stringify(route));
  kubectl(["delete", "-f", SERVER_YAML, "--ignore-not-found", "--wait=true", "--timeout=60s"]);
  kubectl(["-n", NAMESPACE, "delete", "secret", "kubespaces-server", "--ignore-not-found"]);
  kubectl(["label", "namespace", NAMESPACE, `${RESTRICTED}-`]);
  for (const file of [...DEPLOY].reverse()) kubectl(["delete", "-f", file, "--ignore-not-found"]);
});

/** The installation's objects in its namespace, by `kind/name`. */
const installedNames = () =>
  kubectlOk(["-n", NAMESPACE, "get", INSTALLED_KINDS, "-o", "name"])
    .split("\n")
    .filter((line) => line.includes("kubespaces-server"))
    .sort();

/** What the installer (kubectl or Helm) and the API server wrote of their own, which the two installs do not share. */
const INSTALLER_ANNOTATIONS = [
  "kubectl.kubernetes.io/last-applied-configuration",
  "meta.helm.sh/release-name",
  "meta.helm.sh/release-namespace",
  "deployment.kubernetes.io/revision",
];

/** An object as the API server holds it, less what the server assigned and what the installer marked it with. */
function asDeclared(object: any): unknown {
  const { metadata, spec } = object;
  for (const field of ["uid", "resourceVersion", "creationTimestamp", "managedFields", "generation"])
    delete metadata[field];
  for (const key of INSTALLER_ANNOTATIONS) delete metadata.annotations?.[key];
  if (metadata.annotations && Object.keys(metadata.annotations).length === 0) delete metadata.annotations;
  if (metadata.labels?.["app.kubernetes.io/managed-by"] === "Helm")
    delete metadata.labels["app.kubernetes.io/managed-by"];
  if (object.kind === "Service") for (const field of ["clusterIP", "clusterIPs"]) delete spec[field];
  delete object.status;
  return object;
}

/** The installation's objects as declared, by `kind/name`. */
const installedObjects = () =>
  new Map(
    installedNames().map((name) => [
      name,
      asDeclared(JSON.parse(kubectlOk(["-n", NAMESPACE, "get", name, "-o", "json"]))),
    ]),
  );

/** The Deployment's pods become Ready under KWOK, admitted as restricted and run as the installation's ServiceAccount. */
async function expectPodsReadyAsRestricted(): Promise<void> {
  // KWOK makes an admitted, scheduled pod Ready at once; a pod Pod Security refused would never exist.
  await eventually(
    async () => {
      const deployment = parse(kubectlOk(["-n", NAMESPACE, "get", "deployment", "kubespaces-server", "-o", "yaml"]));
      return deployment.status?.readyReplicas === deployment.spec.replicas;
    },
    120_000,
    "the Deployment's pods to be Ready",
  );
  const pods = parse(kubectlOk(["-n", NAMESPACE, "get", "pods", "-l", SERVER_POD_SELECTOR, "-o", "yaml"])).items as {
    spec: { serviceAccountName: string };
  }[];
  expect(pods.map((pod) => pod.spec.serviceAccountName)).toEqual(["kubespaces-server", "kubespaces-server"]);
  const events = kubectl(["-n", NAMESPACE, "get", "events", "--field-selector", "reason=FailedCreate", "-o", "name"]);
  expect(events.stdout.trim()).toBe("");
  // The namespace does enforce restricted: a pod that is not restricted is refused there.
  const plain = kubectl(["-n", NAMESPACE, "run", "e2e-not-restricted", "--image=busybox", "--dry-run=server"]);
  expect(plain.ok).toBe(false);
  expect(plain.stderr).toContain("violates PodSecurity");
}

const INSTALLED = [
  "configmap/kubespaces-server-config",
  "deployment.apps/kubespaces-server",
  "networkpolicy.networking.k8s.io/kubespaces-server",
  "poddisruptionbudget.policy/kubespaces-server",
  "service/kubespaces-server",
];
/** The YAML install's objects as the API server held them, for the Helm install to match. */
let yamlInstalled: Map<string, unknown>;

it("applies deploy/server/server.yaml under strict field validation, in a namespace that enforces restricted", () => {
  const applied = kubectl(["apply", "--validate=strict", "-f", SERVER_YAML]);
  expect(applied.ok, applied.stderr).toBe(true);
  expect(applied.stderr).not.toContain("Warning");
  expect(installedNames()).toEqual(INSTALLED);
});

it("has its pods admitted as restricted, run as the installation's ServiceAccount, and Ready under KWOK", async () => {
  await expectPodsReadyAsRestricted();
  yamlInstalled = installedObjects();
});

it("accepts the component's HTTPRoute on the test bed's Gateway API", () => {
  const applied = kubectl(["apply", "--validate=strict", "-f", "-"], stringify(route));
  expect(applied.ok, applied.stderr).toBe(true);
  expect(kubectlOk(["-n", NAMESPACE, "get", "httproute", "kubespaces-server", "-o", "name"]).trim()).toBe(
    "httproute.gateway.networking.k8s.io/kubespaces-server",
  );
});

describe("installed with the Helm chart from the same placeholders' values instead", () => {
  /** Helm on the test bed; the result rather than a throw. */
  function helm(args: readonly string[]) {
    const result = spawnSync(HELM, args, { env, encoding: "utf8" });
    return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
  }

  it("makes with helm install the objects the YAML made, as the API server holds them", () => {
    kubectlOk(["delete", "-f", SERVER_YAML, "--wait=true", "--timeout=60s"]);
    expect(installedNames()).toEqual([]);
    // Its pods go too, so that those counted below are the release's.
    kubectlOk(["-n", NAMESPACE, "wait", "--for=delete", "pod", "-l", SERVER_POD_SELECTOR, "--timeout=60s"]);
    const { values, namespace } = chartValuesOf(placeholderInstall(version));
    const valuesFile = path.join(mkdtempSync(path.join(os.tmpdir(), "kubespaces-helm-")), "values.yaml");
    writeFileSync(valuesFile, stringify(values));
    const chart = path.join(REPO_ROOT, SERVER_CHART_DIR);
    const installed = helm(["install", SERVER_CHART_NAME, chart, "-n", namespace, "-f", valuesFile]);
    expect(installed.ok, installed.stderr).toBe(true);
    expect(installed.stderr).not.toContain("Warning");
    expect(installedObjects()).toEqual(yamlInstalled);
  });

  it("has its pods admitted as restricted, run as the installation's ServiceAccount, and Ready under KWOK", async () => {
    await expectPodsReadyAsRestricted();
    expect(helm(["status", SERVER_CHART_NAME, "-n", NAMESPACE, "-o", "json"]).stdout).toContain('"status":"deployed"');
  });

  it("leaves none of its objects after helm uninstall", () => {
    const removed = helm(["uninstall", SERVER_CHART_NAME, "-n", NAMESPACE, "--wait"]);
    expect(removed.ok, removed.stderr).toBe(true);
    expect(installedNames()).toEqual([]);
  });
});
