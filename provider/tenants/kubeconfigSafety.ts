/**
 * What a tenant's kubeconfig may hold before any door hands it out: a vCluster issues certificates
 * and tokens only, so a user entry that runs a command (`exec`) or a plugin (`auth-provider`)
 * cannot be the vCluster's, and would run on the machine of whoever uses it.
 */
import { parse } from "yaml";
import { parsingSecret } from "../util/redactedErrors";

/** The user entries of `kubeconfig` that run something, by name. */
export function commandRunningUsers(kubeconfig: string): string[] {
  const config = parsingSecret("the tenant's kubeconfig", () => parse(kubeconfig)) as {
    users?: { name?: unknown; user?: Record<string, unknown> }[];
  } | null;
  return (config?.users ?? [])
    .filter((entry) => entry?.user && ("exec" in entry.user || "auth-provider" in entry.user))
    .map((entry) => String(entry.name ?? "(unnamed)"));
}
