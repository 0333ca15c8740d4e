/**
 * Everything that runs `kubespaces server` in a host cluster, as plain objects: the configuration
 * as a ConfigMap, the Deployment and its PodDisruptionBudget, the Service, and optionally an
 * HTTPRoute on the platform's Gateway. The KubespacesServer component registers them and
 * `npm run generate` writes them as YAML (`deploy/server/server.yaml`), from the same options.
 *
 * The namespace, the ServiceAccount and its RBAC are the Tenant resource's installation (TenantCrd,
 * `deploy/rbac.yaml`), not made twice here. No secret value is rendered: the pods mount the Secret
 * `secretName`, which the component makes from secret inputs or the platform makes itself.
 */
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { GATEWAY_GROUP, gatewayParentRef } from "../render/apiRoute";
import type { InstalledObject, KubeObject } from "../tenantResource/kubeObject";
import { configFileText, serverConfigFile } from "./serverConfigFile";
import {
  parseServerInstall,
  ServerInstallError,
  type ServerInstallInput,
  type ServerInstallOptions,
} from "./serverInstallOptions";
import { SERVER_CONFIG_MAP_NAME, SERVER_LABELS, SERVER_SELECTOR, SERVER_WORKLOAD_NAME } from "./serverObjectNames";
import { CONFIG_FILE_KEY } from "./serverPodLayout";
import { HTTP_PORT, METRICS_PORT_NAME, serverDeployment, serverDisruptionBudget } from "./serverWorkload";
import { serverNetworkPolicy } from "./serverNetworkPolicy";

/** An object with its role, when there is one. */
const optional = (role: string, object: KubeObject | undefined): InstalledObject[] =>
  object ? [{ role, object }] : [];

/** The installation: its checked options, and its objects in creation order. */
export interface ServerInstallation {
  /** The options with their defaults. */
  readonly options: ServerInstallOptions;
  /** The objects, each with its role (the component names its child `<name>-<role>`). */
  readonly objects: readonly InstalledObject[];
}

/** The installation for `input`; throws a ServerInstallError naming every bad field, before anything exists. */
export function serverInstallation(input: ServerInstallInput): ServerInstallation {
  const parsed = parseServerInstall(input);
  if (parsed.problems) throw new ServerInstallError(parsed.problems);
  const { options } = parsed;
  // Its problems were parseServerInstall's.
  const configText = configFileText(serverConfigFile(options).config);
  const objects: InstalledObject[] = [
    { role: "config", object: configMap(options, configText) },
    { role: "deployment", object: serverDeployment(options, configText) },
    { role: "disruption-budget", object: serverDisruptionBudget(options) },
    { role: "service", object: service(options) },
    ...optional("network-policy", serverNetworkPolicy(options)),
    ...(options.route ? [{ role: "route", object: httpRoute(options, options.route) }] : []),
  ];
  return { options, objects };
}

/**
 * The server's Secret without its data: what the component fills with the secret inputs it is given.
 * (Never rendered into a file.)
 */
export function serverSecretShell(options: ServerInstallOptions): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: options.secretName, namespace: options.installation.namespace, labels: SERVER_LABELS },
    type: "Opaque",
  };
}

function configMap(options: ServerInstallOptions, configText: string): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: SERVER_CONFIG_MAP_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    data: { [CONFIG_FILE_KEY]: configText },
  };
}

function service(options: ServerInstallOptions): KubeObject {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: SERVER_WORKLOAD_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    spec: {
      type: "ClusterIP",
      selector: SERVER_SELECTOR,
      ports: [
        { name: HTTP_PORT, port: options.servicePort, targetPort: HTTP_PORT, protocol: "TCP" },
        // For Prometheus in the cluster (a ServiceMonitor names it); the HTTPRoute leads to `http` alone.
        { name: METRICS_PORT_NAME, port: METRICS_PORT, targetPort: METRICS_PORT_NAME, protocol: "TCP" },
      ],
    },
  };
}

function httpRoute(options: ServerInstallOptions, route: NonNullable<ServerInstallOptions["route"]>): KubeObject {
  const { gateway } = route;
  return {
    apiVersion: `${GATEWAY_GROUP}/v1`,
    kind: "HTTPRoute",
    metadata: { name: SERVER_WORKLOAD_NAME, namespace: options.installation.namespace, labels: SERVER_LABELS },
    spec: {
      parentRefs: [gatewayParentRef(gateway)],
      hostnames: [route.hostname],
      // The Service's HTTP port: the public route never leads to the metrics.
      rules: [{ backendRefs: [{ group: "", kind: "Service", name: SERVER_WORKLOAD_NAME, port: options.servicePort }] }],
    },
  };
}
