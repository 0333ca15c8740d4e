/**
 * The host cluster's kubeconfig as a tenant's stack gets it: one context of a file, flattened and
 * made current, so that the Kubernetes provider and the lifecycle checks read the same cluster
 * whatever `$KUBECONFIG` the user's own kubectl uses.
 */
import { existsSync, readFileSync } from "node:fs";
import { parsingSecret } from "../util/redactedErrors";
import { ProblemError } from "../util/problemError";
import { markerOf } from "./kubeconfigMerge";
import { parseKubeconfigText } from "./kubeconfigText";

/**
 * Whether `file` has a context `name` that can be a host cluster: one of the file's, not one that
 * kubespaces merged for a tenant (a tenant's virtual cluster is never a host). False when there is
 * no file.
 */
export function isHostContext(file: string, name: string): boolean {
  if (!existsSync(file)) return false;
  const { value } = parseKubeconfigText(readFileSync(file, "utf8"), `kubeconfig ${file}`);
  return (value.contexts ?? []).some((entry) => entry?.name === name && markerOf(entry, "contexts") === undefined);
}

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
