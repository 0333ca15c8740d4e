/**
 * The kubeconfig handed to the tenant: the one the vCluster wrote, with its server set to the URL
 * the tenant reaches (public when exposed) and its cluster, context and user named after the tenant.
 */
import { parse, stringify } from "yaml";
import { parsingSecret } from "../../util/redactedErrors";

type NamedEntry = { name: string } & Record<string, unknown>;

interface KubeconfigDocument {
  clusters?: NamedEntry[];
  contexts?: NamedEntry[];
  users?: NamedEntry[];
  "current-context"?: string;
}

/**
 * Rewrites `kubeconfig` (YAML or JSON) for `tenant`, pointing at `serverUrl`. Uses the current
 * context's cluster and user; fails when the document has no usable context.
 */
export function tenantKubeconfig(kubeconfig: string, tenant: string, serverUrl: string): string {
  const doc = parsingSecret("the kubeconfig the vCluster wrote", () => parse(kubeconfig)) as KubeconfigDocument;
  const contextName = doc["current-context"] ?? doc.contexts?.[0]?.name;
  const context = doc.contexts?.find((c) => c.name === contextName)?.context as
    { cluster?: string; user?: string } | undefined;
  const cluster = doc.clusters?.find((c) => c.name === context?.cluster)?.cluster as
    Record<string, unknown> | undefined;
  const user = doc.users?.find((u) => u.name === context?.user)?.user;
  if (!context || !cluster || !user)
    throw new Error("the vCluster kubeconfig has no current context with a cluster and a user");
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: tenant, cluster: { ...cluster, server: serverUrl } }],
    users: [{ name: tenant, user }],
    contexts: [{ name: tenant, context: { cluster: tenant, user: tenant } }],
    "current-context": tenant,
    preferences: {},
  });
}
