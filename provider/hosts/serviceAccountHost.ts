/**
 * The server as its own ServiceAccount: a host port whose kubeconfig names a short-lived token of
 * the server's ServiceAccount (a TokenRequest made with the credentials the wrapped host gives), so
 * the server holds exactly the RBAC the package installs for it and nothing of the admin's. Used on
 * the local test bed, where the host's own credentials are the test bed's admin.
 *
 * As the kubelet mounts a pod's token, the token is written to one file in the test bed's run
 * folder, which the kubeconfig names (`tokenFile`): every replica on the test bed hands on the same
 * kubeconfig text, and a replica that starts writes a new token to the same file. A kubeconfig
 * that changed at each start would change every tenant stack's host input, and so make the next
 * resync of each tenant an update. As the kubelet does, a running replica writes a new token
 * before the old one expires; the readers (client-node, the engines' client-go) read the file again.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { stringify } from "yaml";
import { apiErrorText } from "../util/kubeClientErrors";
import { writeAtomically } from "../util/atomicFile";
import { parsingSecret } from "../util/redactedErrors";
import type { HostPort, HostTarget } from "../tenants/ports";

/** The ServiceAccount the server runs as. */
export interface ServiceAccountRef {
  /** Its namespace. */
  readonly namespace: string;
  /** Its name. */
  readonly name: string;
}

/** How long a token lasts; the server asks for one when it starts. */
const TOKEN_SECONDS = 24 * 60 * 60;
/** When a running replica asks for the next token: at four fifths of a token's life, as the kubelet does. */
export const TOKEN_RENEW_MS = TOKEN_SECONDS * 1000 * 0.8;
/** How soon a renewal that failed (the API server unreachable, say) is tried again. */
export const TOKEN_RETRY_MS = 60 * 1000;

/**
 * `host`, reached as ServiceAccount `account`. `prepare` runs first with the host's own
 * credentials (the test bed installs the Tenant API there, which makes the ServiceAccount). The
 * token is renewed until the `signal` given to `resolve` aborts.
 */
export function serviceAccountHost(
  host: HostPort,
  account: ServiceAccountRef,
  prepare: (admin: KubeConfig, progress: (line: string) => void) => Promise<void>,
): HostPort {
  return {
    async resolve(progress, signal) {
      const target = await host.resolve(progress, signal);
      const admin = new KubeConfig();
      parsingSecret("the host kubeconfig", () => admin.loadFromString(target.kubeconfig));
      await prepare(admin, progress);
      const tokenFile = testbedTokenFile(target, account);
      mkdirSync(path.dirname(tokenFile), { recursive: true, mode: 0o700 });
      const writeToken = async () => writeAtomically(tokenFile, await requestToken(admin, account), 0o600);
      await writeToken();
      keepRenewing(writeToken, progress, signal);
      progress(`reaching the host as ServiceAccount ${account.namespace}/${account.name}`);
      return { ...target, kubeconfig: tokenFileKubeconfig(admin, account, tokenFile) } satisfies HostTarget;
    },
    engineEnvForReads: () => host.engineEnvForReads(),
  };
}

/**
 * Writes the next token TOKEN_RENEW_MS after the last one, and again TOKEN_RETRY_MS after a failure
 * (said in `progress`), until `signal` aborts. The timer keeps no process alive.
 */
function keepRenewing(writeToken: () => Promise<void>, progress: (line: string) => void, signal?: AbortSignal): void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delayMs: number) => {
    if (signal?.aborted) return;
    timer = setTimeout(() => void renew(), delayMs).unref();
  };
  const renew = async () => {
    try {
      await writeToken();
      schedule(TOKEN_RENEW_MS);
    } catch (error) {
      progress(
        `renewing the ServiceAccount token failed (${apiErrorText(error)}); trying again in ${TOKEN_RETRY_MS / 1000} s`,
      );
      schedule(TOKEN_RETRY_MS);
    }
  };
  signal?.addEventListener("abort", () => clearTimeout(timer), { once: true });
  schedule(TOKEN_RENEW_MS);
}

/** Where the test bed keeps `account`'s token for every replica: its run folder, from its env file. */
function testbedTokenFile(target: HostTarget, account: ServiceAccountRef): string {
  const dir = target.engineEnv.KUBESPACES_TESTBED_DIR;
  if (!dir) throw new Error("kubespaces: the test bed's env file sets no KUBESPACES_TESTBED_DIR");
  return path.join(dir, "serviceaccounts", account.namespace, account.name, "token");
}

/** A token of `account`, from the TokenRequest API. */
async function requestToken(admin: KubeConfig, account: ServiceAccountRef): Promise<string> {
  const core = admin.makeApiClient(CoreV1Api);
  const response = await core.createNamespacedServiceAccountToken({
    name: account.name,
    namespace: account.namespace,
    body: { spec: { audiences: [], expirationSeconds: TOKEN_SECONDS } },
  });
  const token = response.status?.token;
  if (!token) throw new Error(`the API server issued no token for ServiceAccount ${account.namespace}/${account.name}`);
  return token;
}

/** A kubeconfig of the admin's cluster (its server and CA) whose only user reads its token from `tokenFile`. */
function tokenFileKubeconfig(admin: KubeConfig, account: ServiceAccountRef, tokenFile: string): string {
  const cluster = admin.getCurrentCluster();
  if (!cluster) throw new Error("the host kubeconfig has no current cluster");
  const context = `${account.name}@${cluster.name}`;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name: cluster.name,
        cluster: {
          server: cluster.server,
          ...(cluster.caData && { "certificate-authority-data": cluster.caData }),
          ...(cluster.caFile && { "certificate-authority": cluster.caFile }),
        },
      },
    ],
    users: [{ name: account.name, user: { tokenFile } }],
    contexts: [{ name: context, context: { cluster: cluster.name, user: account.name, namespace: account.namespace } }],
    "current-context": context,
  });
}
