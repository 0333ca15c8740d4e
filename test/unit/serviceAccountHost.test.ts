/**
 * The test bed's ServiceAccount host writes its token to one file, and a running replica writes the
 * next one before the old expires, as the kubelet renews a pod's token: at four fifths of its life,
 * again a minute after a failed try, and never after the server stops. The API server is a fake
 * TokenRequest behind client-node's KubeConfig; time is vitest's fake clock.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { serviceAccountHost, TOKEN_RENEW_MS, TOKEN_RETRY_MS } from "../../provider/hosts/serviceAccountHost";
import type { HostPort } from "../../provider/tenants/ports";

/** The tokens the fake API server has issued, and whether its next answer is an error. */
const issued: string[] = [];
let failing = false;

vi.mock("@kubernetes/client-node", async (importOriginal) => {
  const real = await importOriginal<typeof import("@kubernetes/client-node")>();
  class FakeKubeConfig extends real.KubeConfig {
    makeApiClient() {
      return {
        async createNamespacedServiceAccountToken() {
          if (failing) throw Object.assign(new Error("unreachable"), { code: 503 });
          issued.push(`token-${issued.length + 1}`);
          return { status: { token: issued.at(-1) } };
        },
      } as never;
    }
  }
  return { ...real, KubeConfig: FakeKubeConfig };
});

const ADMIN_KUBECONFIG = `apiVersion: v1
kind: Config
clusters: [{ name: testbed, cluster: { server: "https://127.0.0.1:6443" } }]
users: [{ name: admin, user: { token: admin-token } }]
contexts: [{ name: testbed, context: { cluster: testbed, user: admin } }]
current-context: testbed
`;

let runDir = "";
const account = { namespace: "kubespaces-system", name: "kubespaces-server" };
const tokenFile = () => path.join(runDir, "serviceaccounts", account.namespace, account.name, "token");
const testbed: HostPort = {
  resolve: async () => ({
    description: "the local test bed",
    kubeconfig: ADMIN_KUBECONFIG,
    engineEnv: { KUBESPACES_TESTBED_DIR: runDir },
  }),
  engineEnvForReads: () => ({}),
};

beforeEach(() => {
  vi.useFakeTimers();
  runDir = mkdtempSync(path.join(tmpdir(), "sa-host-"));
  issued.length = 0;
  failing = false;
});
afterEach(() => vi.useRealTimers());

/** Lets the renewal timer that is due run, and the token write it starts finish. */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("the test bed's ServiceAccount host", () => {
  it("names the token file in the kubeconfig, and writes the next token at four fifths of a token's life", async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    const host = serviceAccountHost(testbed, account, async () => undefined);
    const target = await host.resolve((line) => lines.push(line), stop.signal);
    expect(parse(target.kubeconfig).users).toEqual([{ name: account.name, user: { tokenFile: tokenFile() } }]);
    expect(readFileSync(tokenFile(), "utf8")).toBe("token-1");

    await advance(TOKEN_RENEW_MS - 1000);
    expect(readFileSync(tokenFile(), "utf8")).toBe("token-1");
    await advance(1000);
    expect(readFileSync(tokenFile(), "utf8")).toBe("token-2");
    await advance(TOKEN_RENEW_MS);
    expect(readFileSync(tokenFile(), "utf8")).toBe("token-3");
    expect(lines.join("\n")).not.toContain("token-");
    stop.abort();
  });

  it("tries again a minute after a renewal fails, saying so without the answer's body", async () => {
    const stop = new AbortController();
    const lines: string[] = [];
    await serviceAccountHost(testbed, account, async () => undefined).resolve((line) => lines.push(line), stop.signal);
    failing = true;
    await advance(TOKEN_RENEW_MS);
    expect(lines.at(-1)).toBe(
      `renewing the ServiceAccount token failed (the API server answered HTTP 503); trying again in ${TOKEN_RETRY_MS / 1000} s`,
    );
    failing = false;
    await advance(TOKEN_RETRY_MS);
    expect(readFileSync(tokenFile(), "utf8")).toBe("token-2");
    stop.abort();
  });

  it("renews nothing once the server has stopped", async () => {
    const stop = new AbortController();
    await serviceAccountHost(testbed, account, async () => undefined).resolve(() => undefined, stop.signal);
    stop.abort();
    await advance(3 * TOKEN_RENEW_MS);
    expect(issued).toEqual(["token-1"]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
