/**
 * `kubespaces server` installed from the generated YAML on the test bed's real API server (1.36):
 * the Tenant resource's YAML (the namespace, the ServiceAccount, its RBAC), then
 * deploy/server/server.yaml as it is, its placeholders left in. The API server's strict field
 * validation and Pod Security admission (the namespace enforces `restricted` here) judge the
 * objects; KWOK stands in for the kubelet and makes the pods Running and Ready without running a
 * container, so the server process itself does not run here: what this shows is that the
 * manifests are accepted and their pods admitted, scheduled and counted Ready. The HTTPRoute the
 * component adds with a route is applied too, against the test bed's Gateway API CRDs.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";
import { eventually } from "./support/hostCluster";
import { REPO_ROOT, testbedEnv } from "./support/testbed";

const env = testbedEnv();
const DEPLOY = ["tenant-crd.yaml", "admission.yaml", "rbac.yaml"].map((file) => path.join(REPO_ROOT, "deploy", file));
const SERVER_YAML = path.join(REPO_ROOT, "deploy/server/server.yaml");
const NAMESPACE = "kubespaces-system";
const RESTRICTED = "pod-security.kubernetes.io/enforce";

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
  kubectl(["delete", "-f", "-", "--ignore-not-found"], stringify(route));
  kubectl(["delete", "-f", SERVER_YAML, "--ignore-not-found", "--wait=true", "--timeout=60s"]);
  kubectl(["-n", NAMESPACE, "delete", "secret", "kubespaces-server", "--ignore-not-found"]);
  kubectl(["label", "namespace", NAMESPACE, `${RESTRICTED}-`]);
  for (const file of [...DEPLOY].reverse()) kubectl(["delete", "-f", file, "--ignore-not-found"]);
});

it("applies deploy/server/server.yaml under strict field validation, in a namespace that enforces restricted", () => {
  const applied = kubectl(["apply", "--validate=strict", "-f", SERVER_YAML]);
  expect(applied.ok, applied.stderr).toBe(true);
  expect(applied.stderr).not.toContain("Warning");
  const names = kubectlOk([
    "-n",
    NAMESPACE,
    "get",
    "configmap,deployment,poddisruptionbudget,service,networkpolicy",
    "-o",
    "name",
  ]);
  expect(
    names
      .split("\n")
      .filter((line) => line.includes("kubespaces-server"))
      .sort(),
  ).toEqual([
    "configmap/kubespaces-server-config",
    "deployment.apps/kubespaces-server",
    "networkpolicy.networking.k8s.io/kubespaces-server",
    "poddisruptionbudget.policy/kubespaces-server",
    "service/kubespaces-server",
  ]);
});

it("has its pods admitted as restricted, run as the installation's ServiceAccount, and Ready under KWOK", async () => {
  // KWOK makes an admitted, scheduled pod Ready at once; a pod Pod Security refused would never exist.
  await eventually(
    async () => {
      const deployment = parse(kubectlOk(["-n", NAMESPACE, "get", "deployment", "kubespaces-server", "-o", "yaml"]));
      return deployment.status?.readyReplicas === deployment.spec.replicas;
    },
    120_000,
    "the Deployment's pods to be Ready",
  );
  const pods = parse(
    kubectlOk(["-n", NAMESPACE, "get", "pods", "-l", "app.kubernetes.io/name=kubespaces-server", "-o", "yaml"]),
  ).items as { spec: { serviceAccountName: string } }[];
  expect(pods.map((pod) => pod.spec.serviceAccountName)).toEqual(["kubespaces-server", "kubespaces-server"]);
  const events = kubectl(["-n", NAMESPACE, "get", "events", "--field-selector", "reason=FailedCreate", "-o", "name"]);
  expect(events.stdout.trim()).toBe("");
  // The namespace does enforce restricted: a pod that is not restricted is refused there.
  const plain = kubectl(["-n", NAMESPACE, "run", "e2e-not-restricted", "--image=busybox", "--dry-run=server"]);
  expect(plain.ok).toBe(false);
  expect(plain.stderr).toContain("violates PodSecurity");
});

it("accepts the component's HTTPRoute on the test bed's Gateway API", () => {
  const applied = kubectl(["apply", "--validate=strict", "-f", "-"], stringify(route));
  expect(applied.ok, applied.stderr).toBe(true);
  expect(kubectlOk(["-n", NAMESPACE, "get", "httproute", "kubespaces-server", "-o", "name"]).trim()).toBe(
    "httproute.gateway.networking.k8s.io/kubespaces-server",
  );
});
