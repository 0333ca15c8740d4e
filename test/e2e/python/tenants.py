"""End-to-end Python program of the kubespaces package: tenants declared with the generated SDK
(pulumi_kubespaces, sdk/python), run by the Pulumi Automation API as an inline program, so that no
Python language host is needed, against the local test bed.

    tenants.py up      [--stack S] [--tenants JSON]   declare the tenants; JSON summary on stdout
    tenants.py outputs [--stack S]   stack outputs as JSON {name: {value, secret}}, secrets in clear
    tenants.py export  [--stack S] [--show-secrets]   `pulumi stack export` (secrets as ciphertext)
    tenants.py destroy [--stack S]   destroy everything, then remove the stack

--tenants is a JSON list of tenants as test/e2e/support/tenantsStack.ts declares them (name, owner,
resources, exposure, limitRange, kubernetesVersion, readinessTimeoutSeconds,
statefulSetAnnotations, persistence), the same shape test/e2e/programs/tenants/index.js gives each
Tenant: the real pinned vCluster chart the test bed packaged ($KUBESPACES_VCLUSTER_CHART). It is kept in the
stack's config, so a later `up` without it declares the same tenants; default: one tenant
"team-python".

Needs the test bed's environment (source "$(test/testbed/testbed.sh env)": pulumi on PATH,
KUBECONFIG, KUBESPACES_TESTBED_DIR, PULUMI_CONFIG_PASSPHRASE) and the provider plugin
pulumi-resource-kubespaces (npm run build:plugin): dist/plugin is put on PATH when it holds it.
State: file://$KUBESPACES_TESTBED_DIR/pulumi-state-python. Engine output goes to stderr; stdout
carries only the JSON the command prints.
"""

import argparse
import json
import os
import re
import urllib.parse
import shutil
import subprocess
import sys

import pulumi
import pulumi_kubespaces as kubespaces
from pulumi import automation as auto

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CHART_PATH = os.environ.get("KUBESPACES_VCLUSTER_CHART", "")
# The test bed's API server (https://127.0.0.1:<port>), where its control planes reach the host's.
API_SERVER = urllib.parse.urlsplit(os.environ.get("KUBESPACES_TESTBED_SERVER", ""))
PLUGIN_DIR = os.path.join(REPO_ROOT, "dist", "plugin")
PROJECT = "kubespaces-e2e-python"
DEFAULT_TENANTS = [{"name": "team-python"}]


def snake(value):
    """camelCase keys (as the TypeScript declarations have them) to the SDK's snake_case, deeply.
    Only for inputs whose keys are all schema properties: never for maps such as annotations."""
    if isinstance(value, dict):
        return {re.sub(r"(?<!^)(?=[A-Z])", "_", k).lower(): snake(v) for k, v in value.items()}
    return value


def schema_names(value):
    """snake_case keys back to the schema's camelCase, deeply. Python exports output-type objects
    (TenantStatus, KubeconfigSecretRef) under their Python names (conditions[].last_transition_time);
    the stack outputs keep the schema's names, as the JavaScript program's do."""
    if isinstance(value, dict):
        return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): schema_names(v) for k, v in value.items()}
    if isinstance(value, list):
        return [schema_names(v) for v in value]
    return value


def read_text(path):
    """The whole text of the file at `path`."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def without_none(d):
    """An absent input is left out, not sent as null (as undefined is in JavaScript)."""
    return {k: v for k, v in d.items() if v is not None}


def program():
    """Declares the tenants in config `tenants`, as test/e2e/programs/tenants/index.js does."""
    declared = pulumi.Config().require_object("tenants")
    tenants = {}
    for t in declared:
        name = t["name"]
        tenants[name] = kubespaces.Tenant(
            name,
            owner=t.get("owner", f"{name}@example.com"),
            resources=snake(t.get("resources")),
            limit_range=snake(t.get("limitRange")),
            vcluster=without_none({
                "kubernetes_version": t.get("kubernetesVersion"),
                "values_overrides": {
                    "controlPlane": {
                        "statefulSet": without_none({
                            # The chart's default (a StatefulSet with a data PVC) unless turned off.
                            "persistence": {"volumeClaim": {"enabled": False}} if t.get("persistence") is False else None,
                            # e.g. kubespaces.io/testbed-hold-control-plane: its control plane is not started.
                            "annotations": t.get("statefulSetAnnotations", {}),
                        })
                    }
                },
            }),
            # The platform's policy: the test bed's chart, its API server and short timeouts.
            platform=without_none({
                "chart": {"local_path": CHART_PATH},
                "network": {"api_server_cidrs": [f"{API_SERVER.hostname}/32"], "api_server_ports": [API_SERVER.port]},
                # The platform's host access, secret as a user would pass it (`hostKubeconfig: true`).
                "host_kubeconfig": pulumi.Output.secret(read_text(os.environ["KUBECONFIG"])) if t.get("hostKubeconfig") else None,
                "exposure": snake(t.get("exposure")),
                "helm_timeout_seconds": 120,
                "readiness_timeout_seconds": t.get("readinessTimeoutSeconds", 120),
            }),
        )

    def by_name(pick):
        return {name: pick(tenant) for name, tenant in tenants.items()}

    pulumi.export("namespaces", by_name(lambda t: t.namespace))
    pulumi.export("apiServerUrls", by_name(lambda t: t.api_server_url))
    pulumi.export("appsDomains", by_name(lambda t: t.apps_domain))
    # One Output of the whole map: secret as a whole since the kubeconfigs are.
    pulumi.export("kubeconfigs", pulumi.Output.all(**by_name(lambda t: t.kubeconfig)))
    pulumi.export("kubeconfigSecretRefs", by_name(lambda t: t.kubeconfig_secret_ref.apply(schema_names)))
    pulumi.export("statuses", by_name(lambda t: t.status.apply(schema_names)))


def fail(message):
    print(f"tenants.py: {message}", file=sys.stderr)
    sys.exit(2)


def environment():
    """The test bed's environment, with dist/plugin on PATH; fails naming what is missing."""
    env = dict(os.environ)
    missing = [k for k in ("KUBESPACES_TESTBED_DIR", "KUBECONFIG", "KUBESPACES_TESTBED_SERVER") if not env.get(k)]
    if missing:
        fail(f"{', '.join(missing)} not set: source \"$(test/testbed/testbed.sh env)\" first")
    if os.access(os.path.join(PLUGIN_DIR, "pulumi-resource-kubespaces"), os.X_OK):
        env["PATH"] = PLUGIN_DIR + os.pathsep + env.get("PATH", "")
    if not shutil.which("pulumi-resource-kubespaces", path=env["PATH"]):
        fail("pulumi-resource-kubespaces not found in dist/plugin nor on PATH: run npm run build:plugin")
    if not shutil.which("pulumi", path=env["PATH"]):
        fail("pulumi CLI not on PATH: source \"$(test/testbed/testbed.sh env)\" first")
    env.setdefault("PULUMI_CONFIG_PASSPHRASE", "testbed")
    state = os.path.join(env["KUBESPACES_TESTBED_DIR"], "pulumi-state-python")
    os.makedirs(state, exist_ok=True)
    env["PULUMI_BACKEND_URL"] = "file://" + state
    # The Automation API finds the CLI on this process's PATH.
    os.environ["PATH"] = env["PATH"]
    return env


def stack(name, create):
    """The stack, created if `create` (up, destroy: destroying a missing stack is a no-op)."""
    env = environment()
    # A fixed work dir keeps the stack's settings (config, passphrase salt) between commands.
    work_dir = os.path.join(env["KUBESPACES_TESTBED_DIR"], "pulumi-work-python")
    os.makedirs(work_dir, exist_ok=True)
    select = auto.create_or_select_stack if create else auto.select_stack
    return env, work_dir, select(
        stack_name=name,
        project_name=PROJECT,
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=work_dir,
            env_vars=env,
            project_settings=auto.ProjectSettings(name=PROJECT, runtime="python"),
        ),
    )


def to_stderr(line):
    print(line, file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["up", "outputs", "export", "destroy"])
    parser.add_argument("--stack", default="python", help="stack name (default: python)")
    parser.add_argument("--tenants", help="JSON list of tenant declarations (up only)")
    parser.add_argument("--show-secrets", action="store_true", help="export: decrypt secrets")
    args = parser.parse_args()
    try:
        env, work_dir, s = stack(args.stack, create=args.command in ("up", "destroy"))
    except auto.StackNotFoundError:
        fail(f"no stack {args.stack} in file://$KUBESPACES_TESTBED_DIR/pulumi-state-python")

    if args.command == "up":
        if args.tenants is not None:
            tenants = json.loads(args.tenants)
        else:
            try:
                tenants = json.loads(s.get_config("tenants").value)
            except auto.CommandError:
                tenants = DEFAULT_TENANTS
        s.set_config("tenants", auto.ConfigValue(json.dumps(tenants)))
        steps = []

        def record(event):
            pre = event.resource_pre_event
            if pre is not None and pre.metadata is not None:
                meta = pre.metadata
                steps.append({"op": str(meta.op.value if hasattr(meta.op, "value") else meta.op),
                              "type": meta.type, "name": meta.urn.split("::")[-1]})

        try:
            result = s.up(on_output=to_stderr, on_event=record, color="never")
        except auto.CommandError as error:
            # The engine's output (with the errors) already went to stderr.
            print(json.dumps({"result": "failed", "error": str(error), "steps": steps}))
            sys.exit(1)
        print(json.dumps({
            "result": result.summary.result,
            "resourceChanges": result.summary.resource_changes,
            "steps": steps,
        }))
    elif args.command == "outputs":
        print(json.dumps({k: {"value": v.value, "secret": v.secret} for k, v in s.outputs().items()}))
    elif args.command == "export":
        # The CLI itself: the Automation API's export_stack always passes --show-secrets.
        cmd = ["pulumi", "stack", "export", "--stack", args.stack] + (["--show-secrets"] if args.show_secrets else [])
        sys.stdout.write(subprocess.run(cmd, cwd=work_dir, env=env, check=True, stdout=subprocess.PIPE, text=True).stdout)
    elif args.command == "destroy":
        result = s.destroy(on_output=to_stderr, color="never")
        s.workspace.remove_stack(args.stack)
        print(json.dumps({"result": result.summary.result, "resourceChanges": result.summary.resource_changes}))


if __name__ == "__main__":
    main()
