/**
 * How the lifecycle operations (host check, readiness, cleanup, CRD preflight) and the server reach
 * the host cluster: with the kubeconfig the Tenant was given, else the ambient one, as the
 * Kubernetes provider does.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { parse } from "yaml";
import { parsingSecret } from "../util/redactedErrors";

/** The host cluster's KubeConfig: the given kubeconfig text, else the ambient one. */
export function loadHostKubeConfig(kubeconfig: string | undefined): KubeConfig {
  const config = new KubeConfig();
  if (kubeconfig)
    parsingSecret("the host kubeconfig", () => {
      config.loadFromString(kubeconfig);
      followTokenFiles(config, kubeconfig);
    });
  else config.loadFromDefault();
  return config;
}

/** A kubeconfig's user entries, as far as token files go. */
interface UserEntries {
  readonly users?: readonly ({ readonly name?: unknown; readonly user?: Record<string, unknown> } | null)[];
}

/**
 * Gives each user whose credential is a token file (client-go's `tokenFile`, what a pod's
 * kubeconfig names: the kubelet rotates that file) client-node's file authenticator, the one its
 * `loadFromCluster` uses, which reads the file again once a minute has passed since it last did.
 * client-node alone ignores `tokenFile`: the requests would carry no token.
 */
function followTokenFiles(config: KubeConfig, text: string): void {
  const entries = ((parse(text) as UserEntries | null)?.users ?? []).flatMap((entry) =>
    entry && typeof entry.name === "string" && typeof entry.user?.tokenFile === "string" && !entry.user.token
      ? [[entry.name, entry.user.tokenFile] as const]
      : [],
  );
  const tokenFiles = new Map<string, string>(entries);
  if (tokenFiles.size === 0) return;
  config.users = config.users.map((user) => {
    const tokenFile = tokenFiles.get(user.name);
    return tokenFile ? { ...user, authProvider: { name: "tokenFile", config: { tokenFile } } } : user;
  });
}
