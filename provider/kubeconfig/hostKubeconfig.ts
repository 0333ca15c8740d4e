/**
 * The host cluster's kubeconfig as a tenant's stack gets it: one context of a file, flattened and
 * made current, so that the Kubernetes provider and the lifecycle checks read the same cluster
 * whatever `$KUBECONFIG` the user's own kubectl uses.
 */
import { existsSync, readFileSync } from "node:fs";
import { parsingSecret } from "../util/redactedErrors";
import { ProblemError } from "../util/problemError";

/**
 * Context `context` (default: the current one) of `file` alone, flattened and made current. The
 * Kubernetes client is loaded here, when a host is reached, not when a command starts.
 */
export async function oneContext(file: string, context: string | undefined): Promise<string> {
  if (!existsSync(file))
    throw new ProblemError(`kubeconfig ${file} does not exist (--kubeconfig names another)`, "invalid");
  const { KubeConfig } = await import("@kubernetes/client-node");
  const config = new KubeConfig();
  parsingSecret(`kubeconfig ${file}`, () => config.loadFromString(readFileSync(file, "utf8")));
  const name = context ?? config.getCurrentContext();
  const ctx = config.getContextObject(name);
  if (!ctx) {
    throw new ProblemError(
      `kubeconfig ${file} has no context ${name} (it has: ${
        config
          .getContexts()
          .map((c) => c.name)
          .join(", ") || "none"
      })`,
      "invalid",
    );
  }
  const only = new KubeConfig();
  only.loadFromOptions({
    clusters: config.getClusters().filter((c) => c.name === ctx.cluster),
    users: config.getUsers().filter((u) => u.name === ctx.user),
    contexts: [ctx],
    currentContext: name,
  });
  return only.exportConfig();
}
