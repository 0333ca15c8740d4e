/**
 * The server in a pod reaches its host as the pod's ServiceAccount, through the token FILE the
 * kubelet mounts and rotates: a fake ServiceAccount folder stands in for the kubelet's, and a
 * rotation is a new file content plus a minute on the clock.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import type https from "node:https";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { loadHostKubeConfig } from "../../provider/lifecycle/hostAccess";
import { inClusterHost, runsInPod, SERVICE_ACCOUNT_DIR } from "../../provider/hosts/inClusterHost";
import { temporaryFolderEach } from "./support/temporaryFolder";

const root = temporaryFolderEach("kubespaces-in-cluster-");
const accountDir = () => path.join(root(), SERVICE_ACCOUNT_DIR);

/** The kubelet's files: the token, the cluster's CA and the pod's namespace. */
function mountServiceAccount(token = "token-one"): void {
  mkdirSync(accountDir(), { recursive: true });
  writeFileSync(path.join(accountDir(), "token"), token);
  writeFileSync(path.join(accountDir(), "ca.crt"), "-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n");
  writeFileSync(path.join(accountDir(), "namespace"), "kubespaces-system");
}

async function hostKubeconfig(): Promise<string> {
  const host = inClusterHost(root());
  if (!host) throw new Error("no in-cluster host");
  return (await host.resolve(() => {})).kubeconfig;
}

/** The Authorization header client-node puts on a request made with `kubeconfig`. */
async function authorizationOf(kubeconfig: ReturnType<typeof loadHostKubeConfig>): Promise<unknown> {
  const options: https.RequestOptions = {};
  await kubeconfig.applyToHTTPSOptions(options);
  return (options.headers as Record<string, unknown> | undefined)?.Authorization;
}

beforeEach(() => {
  vi.stubEnv("KUBERNETES_SERVICE_HOST", "10.96.0.1");
  vi.stubEnv("KUBERNETES_SERVICE_PORT", "443");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("whether the server runs in a pod", () => {
  it("needs both the API server's address in the environment and the mounted token", () => {
    expect(runsInPod(root())).toBe(false);
    expect(inClusterHost(root())).toBeUndefined();
    mountServiceAccount();
    expect(runsInPod(root())).toBe(true);
    vi.stubEnv("KUBERNETES_SERVICE_HOST", "");
    expect(runsInPod(root())).toBe(false);
  });
});

describe("the in-cluster host", () => {
  it("hands on a kubeconfig that names the token file, the cluster's CA file and the pod's namespace, and no token", async () => {
    mountServiceAccount("the-token-itself");
    const text = await hostKubeconfig();
    expect(parse(text)).toEqual({
      apiVersion: "v1",
      kind: "Config",
      clusters: [
        {
          name: "in-cluster",
          cluster: { server: "https://10.96.0.1:443", "certificate-authority": path.join(accountDir(), "ca.crt") },
        },
      ],
      users: [{ name: "service-account", user: { tokenFile: path.join(accountDir(), "token") } }],
      contexts: [
        {
          name: "in-cluster",
          context: { cluster: "in-cluster", user: "service-account", namespace: "kubespaces-system" },
        },
      ],
      "current-context": "in-cluster",
    });
    expect(text).not.toContain("the-token-itself");
  });

  it("writes an IPv6 API server address in brackets", async () => {
    vi.stubEnv("KUBERNETES_SERVICE_HOST", "fd00::1");
    mountServiceAccount();
    expect((parse(await hostKubeconfig()) as any).clusters[0].cluster.server).toBe("https://[fd00::1]:443");
  });

  it("is reached with the file's token and the CA, and follows the kubelet's rotation of the token", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    mountServiceAccount("token-one");
    const kubeconfig = loadHostKubeConfig(await hostKubeconfig());
    expect(await authorizationOf(kubeconfig)).toBe("Bearer token-one");
    const options: https.RequestOptions = {};
    await kubeconfig.applyToHTTPSOptions(options);
    expect(String(options.ca)).toContain("fake");

    writeFileSync(path.join(accountDir(), "token"), "token-two");
    // client-node reads the file again once a minute has passed (client-go: likewise).
    vi.setSystemTime(new Date("2026-01-01T00:00:30Z"));
    expect(await authorizationOf(kubeconfig)).toBe("Bearer token-one");
    vi.setSystemTime(new Date("2026-01-01T00:01:01Z"));
    expect(await authorizationOf(kubeconfig)).toBe("Bearer token-two");
  });
});

describe("a host kubeconfig whose user is a token", () => {
  it("is read as before: the token, once", async () => {
    const kubeconfig = loadHostKubeConfig(
      [
        "apiVersion: v1",
        "kind: Config",
        "clusters: [{ name: c, cluster: { server: 'https://127.0.0.1:6443' } }]",
        "users: [{ name: u, user: { token: plain-token } }]",
        "contexts: [{ name: x, context: { cluster: c, user: u } }]",
        "current-context: x",
      ].join("\n"),
    );
    expect(await authorizationOf(kubeconfig)).toBe("Bearer plain-token");
  });
});
