/**
 * The generated SDKs in sdk/ (scripts/generateSdks.sh): they match schema.json, the Go SDK builds,
 * and the Python SDK installs with pip and registers a Tenant as the schema says. These shell out
 * to Go and Python and fail, naming what is missing, when a toolchain is not there.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
const MINUTES = 60_000;

/** Runs a command in the repo; on failure throws with its output, so the test log says why. */
function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): string {
  const result = spawnSync(cmd, args, {
    cwd: opts.cwd ?? root,
    env: opts.env ?? process.env,
    input: opts.input,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (result.error) throw new Error(`${cmd} ${args.join(" ")}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${cmd} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Fails (never skips) when a tool the check needs is not on PATH. */
function requireTool(tool: string, why: string): void {
  try {
    execFileSync("bash", ["-c", `command -v ${tool}`], { stdio: "ignore" });
  } catch {
    throw new Error(`${tool} is not on PATH: ${why}`);
  }
}

describe("generated SDKs", () => {
  it(
    "sdk/python and sdk/go are what schema.json generates (npm run generate:sdks)",
    () => {
      requireTool("go", "scripts/generateSdks.sh --check builds sdkgen and tidies sdk/go with Go");
      run("bash", ["scripts/generateSdks.sh", "--check"]);
    },
    5 * MINUTES,
  );

  it(
    "the Go SDK builds (go build ./... in sdk/go, go.sum complete)",
    () => {
      requireTool("go", "the Go SDK check needs Go 1.25 or newer");
      // -mod=readonly: a go.mod or go.sum that needs changing is an error, not an edit.
      run("go", ["build", "-mod=readonly", "./..."], { cwd: path.join(root, "sdk/go") });
      const goMod = readFileSync(path.join(root, "sdk/go/go.mod"), "utf8");
      expect(goMod).toMatch(/^module github\.com\/kubespaces\/pulumi-kubespaces\/sdk\/go$/m);
      expect(goMod).toMatch(/^\s*github\.com\/pulumi\/pulumi\/sdk\/v3 v3\.248\.0$/m);
    },
    5 * MINUTES,
  );

  it(
    "the Python SDK installs with pip, imports as pulumi_kubespaces and registers a Tenant with the schema's names",
    () => {
      requireTool("python3", "the Python SDK check needs Python 3.9 or newer with venv and pip");
      const python = run("bash", ["test/e2e/python/venv.sh"]).trim();
      const report = JSON.parse(run(python, ["-c", PYTHON_CHECK])) as PythonReport;
      expect(report.version).toBe(version);
      expect(report.plugin).toEqual({ resource: true, name: "kubespaces", version });
      expect(report.isComponent).toBe(true);
      expect(report.outputs).toEqual([
        "api_server_url",
        "apps_domain",
        "kubeconfig",
        "kubeconfig_secret_ref",
        "namespace",
        "status",
      ]);
      expect(report.registered).toEqual({
        type: "kubespaces:index:Tenant",
        name: "team-atlas",
        inputs: {
          owner: "alice@example.com",
          resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
          limitRange: { defaultLimit: { cpu: "2" } },
          // The SDK fills in the schema's default of a top-level input too: the same as the component's.
          sleep: false,
          // A map input: its keys are the chart's, never translated.
          vcluster: {
            valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } },
          },
          // Args classes fill in the schema's defaults (plain dicts do not): the same as the component's.
          platform: expect.objectContaining({
            exposure: {
              baseDomain: "kubespaces.example.com",
              issuerRef: { name: "letsencrypt", kind: "ClusterIssuer", group: "cert-manager.io" },
              tlsRouteVersion: "v1",
              verifyCrds: true,
            },
            chart: { localPath: "/charts/vcluster" },
            readinessTimeoutSeconds: 120,
          }),
        },
      });
    },
    5 * MINUTES,
  );

  it(
    "examples/python declares team-atlas with the quickstart's inputs",
    () => {
      requireTool("python3", "the Python example check needs Python 3.9 or newer with venv and pip");
      const python = run("bash", ["test/e2e/python/venv.sh"]).trim();
      const registered = JSON.parse(run(python, ["-c", EXAMPLE_CHECK])) as {
        type: string;
        name: string;
        inputs: Record<string, unknown>;
      };
      expect(registered).toMatchObject({
        type: "kubespaces:index:Tenant",
        name: "team-atlas",
        inputs: {
          owner: "alice@example.com",
          resources: { cpu: "8", memory: "16Gi", storage: "50Gi" },
          vcluster: {
            valuesOverrides: { controlPlane: { statefulSet: { persistence: { volumeClaim: { enabled: false } } } } },
          },
          platform: {
            exposure: { baseDomain: "kubespaces.local", issuerRef: { name: "kubespaces-testbed-selfsigned" } },
            chart: { localPath: "/charts/vcluster" },
          },
        },
      });
    },
    5 * MINUTES,
  );
});

interface PythonReport {
  version: string;
  plugin: unknown;
  isComponent: boolean;
  outputs: string[];
  registered: unknown;
}

/** Python mocks that record the last registered resource in `registered`; both checks start with them. */
const PYTHON_MOCKS = String.raw`
import json
import pulumi

registered = {}

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        registered.update(type=args.typ, name=args.name, inputs=args.inputs)
        return args.name, {}
    def call(self, args):
        return {}
`;

/** Imports the SDK and declares a Tenant under Pulumi's Python mocks; prints what was registered. */
const PYTHON_CHECK = String.raw`${PYTHON_MOCKS}
import importlib.resources
import pulumi_kubespaces as ks

pulumi.runtime.set_mocks(Mocks(), preview=False)

@pulumi.runtime.test
def declare():
    tenant = ks.Tenant(
        "team-atlas",
        owner="alice@example.com",
        resources=ks.TenantResourcesArgs(cpu="8", memory="16Gi", storage="50Gi"),
        limit_range={"default_limit": {"cpu": "2"}},
        vcluster={"values_overrides": {"controlPlane": {"statefulSet": {"persistence": {"volumeClaim": {"enabled": False}}}}}},
        platform=ks.TenantPlatformArgs(
            exposure=ks.TenantPlatformExposureArgs(base_domain="kubespaces.example.com", issuer_ref=ks.TenantPlatformExposureIssuerRefArgs(name="letsencrypt")),
            chart={"local_path": "/charts/vcluster"},
            readiness_timeout_seconds=120,
        ),
    )
    return tenant.urn  # awaited by pulumi.runtime.test: the registration is done

declare()

plugin = json.loads(importlib.resources.files("pulumi_kubespaces").joinpath("pulumi-plugin.json").read_text())
outputs = sorted(n for n, v in vars(ks.Tenant).items() if isinstance(v, property))
print(json.dumps({
    "version": ks._utilities.get_version(),
    "plugin": plugin,
    "isComponent": issubclass(ks.Tenant, pulumi.ComponentResource),
    "outputs": outputs,
    "registered": registered,
}))
`;

/** Runs examples/python/__main__.py under Pulumi's Python mocks with a local chart configured. */
const EXAMPLE_CHECK = String.raw`${PYTHON_MOCKS}
import runpy

pulumi.runtime.set_mocks(Mocks(), project="kubespaces-python", stack="demo", preview=False)
pulumi.runtime.set_all_config({
    "kubespaces-python:baseDomain": "kubespaces.local",
    "kubespaces-python:issuer": "kubespaces-testbed-selfsigned",
    "kubespaces-python:vclusterChartPath": "/charts/vcluster",
})

@pulumi.runtime.test
def run():
    runpy.run_path("examples/python/__main__.py")

run()
print(json.dumps(registered))
`;
