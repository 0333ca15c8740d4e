/**
 * The server's install scored by a manifest linter a platform team runs, kube-score (built by the
 * test bed from its Go module): `deploy/server/server.yaml` as shipped, and the component's and the
 * Helm chart's renders with other options. Every check kube-score makes by default passes, but those declined below,
 * each for a reason docs/self-service.md gives ("The install under a linter").
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { REPO_ROOT } from "./support/testbed";

/** The checks declined, each with the reason the docs give at more length. */
const DECLINED = {
  "container-cpu-limit":
    "a CPU limit throttles the engine's bursts; the request reserves the server's share (--ignore-container-cpu-limit)",
  "container-image-pull-policy":
    "IfNotPresent by default, for a tag pinned per release; imagePullPolicy: Always is an option",
  "deployment-has-host-podantiaffinity":
    "the replicas spread over nodes by a topology spread constraint, which kube-score scores OK beside this check",
} as const;

const KUBE_SCORE = execFileSync("bash", [path.join(REPO_ROOT, "test/testbed/testbed.sh"), "tool-path", "kube-score"], {
  encoding: "utf8",
}).trim();

/** kube-score's verdicts on `manifests` (ci format), with the declined checks left out. */
function score(manifests: string): { status: number | null; lines: string[] } {
  const declined = Object.keys(DECLINED).filter((check) => check !== "container-cpu-limit");
  const args = ["score", "-", "--output-format", "ci", "--ignore-container-cpu-limit"];
  for (const check of declined) args.push("--ignore-test", check);
  const result = spawnSync(KUBE_SCORE, args, { input: manifests, encoding: "utf8" });
  return { status: result.status, lines: result.stdout.trim().split("\n") };
}

const failures = (lines: string[]) => lines.filter((line) => /^\[(CRITICAL|WARNING)\]/.test(line));

describe("the server's install under kube-score", () => {
  it("passes as shipped: deploy/server/server.yaml", () => {
    const { status, lines } = score(readFileSync(path.join(REPO_ROOT, "deploy/server/server.yaml"), "utf8"));
    expect(failures(lines)).toEqual([]);
    expect(status).toBe(0);
    // It did score the workload and its policy, not an empty stream.
    expect(
      lines.filter((line) => line.startsWith("[OK]") && line.includes("apps/v1/Deployment")).length,
    ).toBeGreaterThan(5);
    expect(lines.some((line) => line.startsWith("[OK]") && line.includes("NetworkPolicy"))).toBe(true);
  });

  it("passes as the component renders it with other options: a route, a PostgreSQL backend, three replicas", () => {
    const { objects } = serverInstallation({
      image: "registry.example.com/kubespaces-server:1.2.3",
      replicas: 3,
      stateBackend: { url: "postgres://kubespaces@db.example.com:5433/state", credentialsSecret: "state-db" },
      config: { signIn: { issuer: "https://login.example.com" } },
      route: { gateway: { name: "platform", namespace: "gateways" }, hostname: "kubespaces.example.com" },
    });
    const { status, lines } = score(objects.map(({ object }) => stringify(object)).join("---\n"));
    expect(failures(lines)).toEqual([]);
    expect(status).toBe(0);
  });

  it("passes as the Helm chart renders it with other values", () => {
    const helm = execFileSync("bash", [path.join(REPO_ROOT, "test/testbed/testbed.sh"), "tool-path", "helm"], {
      encoding: "utf8",
    }).trim();
    const values = {
      image: "registry.example.com/kubespaces-server:1.2.3",
      replicas: 3,
      stateBackend: { url: "postgres://kubespaces@db.example.com/state", credentialsSecret: "state-db" },
      config: {
        signIn: { issuer: "https://login.example.com" },
        http: { publicUrl: "https://kubespaces.example.com" },
      },
      route: { gateway: { name: "platform", namespace: "gateways" }, hostname: "kubespaces.example.com" },
    };
    const rendered = spawnSync(
      helm,
      ["template", "kubespaces-server", path.join(REPO_ROOT, "deploy/chart/kubespaces-server"), "-f", "-"],
      { input: stringify(values), encoding: "utf8" },
    );
    expect(rendered.status, rendered.stderr).toBe(0);
    const { status, lines } = score(rendered.stdout);
    expect(failures(lines)).toEqual([]);
    expect(status).toBe(0);
    expect(lines.some((line) => line.startsWith("[OK]") && line.includes("apps/v1/Deployment"))).toBe(true);
  });

  it("fails a manifest that breaks a check it makes: kube-score is really scoring", () => {
    const shipped = readFileSync(path.join(REPO_ROOT, "deploy/server/server.yaml"), "utf8");
    const { status, lines } = score(shipped.replaceAll("ephemeral-storage", "ephemeral-storag3"));
    expect(status).not.toBe(0);
    expect(failures(lines).some((line) => line.includes("Ephemeral Storage"))).toBe(true);
  });

  it("has every declined check named, with its reason, in the docs", () => {
    const docs = readFileSync(path.join(REPO_ROOT, "docs/self-service.md"), "utf8");
    for (const check of Object.keys(DECLINED)) expect(docs, check).toContain(`\`${check}\``);
  });
});
