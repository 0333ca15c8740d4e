/** Names and labels of the objects that run `kubespaces server`, written once. */
import { PART_OF_KUBESPACES } from "../tenantResource/kubeObject";

/** The Deployment, its Service, PodDisruptionBudget and HTTPRoute are named so. */
export const SERVER_WORKLOAD_NAME = "kubespaces-server";
/** The ConfigMap of the configuration file. */
export const SERVER_CONFIG_MAP_NAME = `${SERVER_WORKLOAD_NAME}-config`;

/** What selects the server's pods: the Service, the PodDisruptionBudget and the spread constraint. */
export const SERVER_SELECTOR: Readonly<Record<string, string>> = { "app.kubernetes.io/name": SERVER_WORKLOAD_NAME };

/** Labels of every object of the server's installation. */
export const SERVER_LABELS: Readonly<Record<string, string>> = {
  ...PART_OF_KUBESPACES,
  ...SERVER_SELECTOR,
  "app.kubernetes.io/component": "server",
};

/** The pod annotation that holds the configuration file's SHA-256, so that a changed file rolls the pods. */
export const CONFIG_DIGEST_ANNOTATION = "kubespaces.io/config-sha256";

/**
 * The keys of the server's Secret: the portal client's secret, the key that seals sessions (shared
 * by every replica) and the passphrase of the stacks' secrets (shared likewise).
 */
export const SERVER_SECRET_KEYS = {
  portalClientSecret: "portal-client-secret",
  sessionKey: "session-key",
  statePassphrase: "state-passphrase",
} as const;
