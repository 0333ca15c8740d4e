/**
 * `npm start` (scripts/start.sh) says what it does in a screenful: a line per step, the engine's
 * whole output in a log file it names (its last lines and its path when it fails), and the
 * tenant's outputs and commands at the end. The script runs from a copy in a temporary checkout
 * whose test bed script, host rule and `npm` and `pulumi` on PATH are stand-ins: the stand-in
 * engine prints 200 lines, the "from $PATH" plugin warning 11 times among them, as `pulumi up` of
 * the demo does on the test bed.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolderEach } from "./support/temporaryFolder";

const START_SCRIPT = path.resolve(__dirname, "../../scripts/start.sh");
const root = temporaryFolderEach("kubespaces-start-");

function write(file: string, text: string, executable = false): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  if (executable) chmodSync(file, 0o755);
}

/**
 * The stand-in engine: `up` prints 200 lines (the plugin warning 11 times) and exits FAKE_UP_EXIT.
 * (Raw text: each `\${` of it is bash's `${`.)
 */
const FAKE_PULUMI = String.raw`#!/usr/bin/env bash
case "$1 $2" in
  "stack select" | "config set") exit 0 ;;
  "stack output")
    case "\${3:-}" in
      namespace) echo team-atlas-x1; exit 0 ;;
      apiServerUrl) echo https://team-atlas.kubespaces.local:443; exit 0 ;;
      --non-interactive) printf 'Current stack outputs (3):\n    OUTPUT        VALUE\n    apiServerUrl  https://team-atlas.kubespaces.local:443\n    namespace     team-atlas-x1\n    kubeconfig    [secret]\n'; exit 0 ;;
    esac
    exit 1 ;;
esac
[[ "$1" == up ]] || { echo "stand-in pulumi: unexpected $*" >&2; exit 2; }
for n in $(seq 1 189); do
  if ((n % 17 == 0)); then
    echo "    kubespaces:index:Tenant team-atlas-$n  warning: using pulumi-language-nodejs from \$PATH at /cache/pulumi-language-nodejs"
  else
    echo " +  kubernetes:core/v1:ConfigMap part-$n created (0.$n s)"
  fi
  if ((n % 20 == 0)); then sleep "\${FAKE_UP_PAUSE:-0}"; fi
done
echo "error: the stand-in engine's own error line" >&2
printf 'Resources:\n    + 27 created\n    1 unchanged\n\nDuration: 45s\n'
exit "\${FAKE_UP_EXIT:-0}"
`.replaceAll("\\${", "${");

/** A checkout with the script and its stand-ins; returns the env to run it with. */
function checkout(): NodeJS.ProcessEnv {
  const dir = root();
  mkdirSync(path.join(dir, "scripts"));
  copyFileSync(START_SCRIPT, path.join(dir, "scripts/start.sh"));
  write(path.join(dir, "bin/hosts/hostChoice.js"), 'exports.hostKind = () => "testbed";\n');
  write(
    path.join(dir, "testbed.env"),
    "export KUBESPACES_VCLUSTER_CHART=/cache/vcluster-0.36.1.tgz\nexport PULUMI_HOME=/nowhere\n",
  );
  write(
    path.join(dir, "test/testbed/testbed.sh"),
    [
      "#!/usr/bin/env bash",
      'case "$1" in',
      '  up) for i in $(seq 1 15); do echo "[testbed 10:00:0$i] starting component $i" >&2; done ;;',
      `  env) echo ${JSON.stringify(path.join(dir, "testbed.env"))} ;;`,
      "  tool-path) echo /cache/pulumi ;;",
      "  vcluster-endpoint) echo https://127.0.0.1:41234 ;;",
      '  *) echo "stand-in testbed.sh: unexpected $*" >&2; exit 2 ;;',
      "esac",
      "",
    ].join("\n"),
    true,
  );
  const stubs = path.join(dir, "stubs");
  write(path.join(stubs, "npm"), "#!/usr/bin/env bash\nexit 0\n", true);
  write(path.join(stubs, "pulumi"), FAKE_PULUMI, true);
  return { PATH: `${stubs}:${process.env.PATH ?? ""}`, HOME: dir, KUBESPACES_CONTEXT: "" };
}

function runStart(env: NodeJS.ProcessEnv) {
  const result = spawnSync("bash", [path.join(root(), "scripts/start.sh")], {
    cwd: root(),
    env: { ...env, PULUMI_BACKEND_URL: "", PULUMI_CONFIG_PASSPHRASE: "" },
    encoding: "utf8",
    timeout: 15_000,
  });
  const text = `${result.stdout}${result.stderr}`;
  return { status: result.status, stdout: result.stdout, text, lines: text.trimEnd().split("\n") };
}

describe("npm start (scripts/start.sh)", () => {
  it("prints a screenful: no plugin warning, the log's path, then the outputs and the commands", () => {
    const run = runStart(checkout());
    expect(run.status, run.text).toBe(0);
    expect(run.lines.length, run.text).toBeLessThanOrEqual(40);
    expect(run.text).not.toContain("from $PATH");
    expect(run.text).not.toContain("starting component");
    const log = path.join(root(), ".testbed/demo-logs/pulumi-up.log");
    expect(run.text).toContain(log);
    expect(run.text).toContain("team-atlas is provisioned in");
    expect(run.text).toContain("+ 27 created");
    expect(run.stdout).toContain("Tenant team-atlas is ready. Its outputs:");
    expect(run.stdout).toContain("apiServerUrl  https://team-atlas.kubespaces.local:443");
    expect(run.stdout).toContain("pulumi destroy --stack demo --yes");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("Stop the test bed: bash test/testbed/testbed.sh down");
  });

  it("shows progress while the engine runs", () => {
    const run = runStart({ ...checkout(), FAKE_UP_PAUSE: "0.3", KUBESPACES_START_PROGRESS_SECONDS: "1" });
    expect(run.status, run.text).toBe(0);
    expect(run.text).toMatch(/\d+ resources created \(\d+s\)/);
    expect(run.lines.length, run.text).toBeLessThanOrEqual(40);
  });

  it("when pulumi up fails: exits non-zero with the log's last lines and its path, and no outputs", () => {
    const run = runStart({ ...checkout(), FAKE_UP_EXIT: "255" });
    expect(run.status).not.toBe(0);
    expect(run.text).toContain(path.join(root(), ".testbed/demo-logs/pulumi-up.log"));
    expect(run.text).toContain("error: the stand-in engine's own error line");
    expect(run.text).toContain("Duration: 45s");
    expect(run.text).not.toContain("from $PATH");
    expect(run.text).not.toContain("Tenant team-atlas is ready");
    expect(run.lines.length, run.text).toBeLessThanOrEqual(40);
  });
});
