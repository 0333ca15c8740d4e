/**
 * `kubespaces server` as plain YAML (`deploy/server/server.yaml`): the render of
 * provider/serverInstall/ with the defaults and placeholders its header names, written by
 * `npm run generate` and checked for staleness by a unit test. It sits in a folder of its own so
 * that `kubectl apply -f deploy/` stays what it was, the Tenant resource alone, applicable as it
 * is; this file is applied once its placeholders are replaced and its Secret exists.
 */
import path from "node:path";
import { INSTALL_DEFAULTS } from "../../provider/tenantResource/installOptions";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { SERVER_INSTALL_DEFAULTS, type ServerInstallInput } from "../../provider/serverInstall/serverInstallOptions";
import { SERVER_SECRET_KEYS } from "../../provider/serverInstall/serverObjectNames";
import { GATEWAY_RBAC_FILE, yamlFile } from "./deployFiles";

/** Where it is written. */
export const SERVER_DEPLOY_FILE = "deploy/server/server.yaml";

/** The values to replace before applying, each where the header names it. */
export const SERVER_PLACEHOLDERS = {
  imageRepository: "registry.example.com/kubespaces-server",
  stateBackend: "s3://kubespaces-state",
  issuer: "https://login.example.com",
  publicUrl: "https://kubespaces.example.com",
} as const;

/**
 * The Secret the file's pods take the state backend's credentials from, each key a variable of the
 * server's environment. Optional, so that one file serves a backend that needs none.
 */
export const STATE_BACKEND_SECRET = "kubespaces-server-state-backend";

/** The keys the state backend's Secret holds, by backend, for the header. */
const STATE_BACKEND_KEYS = [
  "PGPASSWORD for postgres://",
  "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for s3://",
  "PULUMI_ACCESS_TOKEN for https://api.pulumi.com",
  "for gs:// and azblob:// the variables of their clients",
];

/** The installation the file is rendered with: the defaults, and the placeholders. */
export function placeholderInstall(version: string): ServerInstallInput {
  return {
    image: `${SERVER_PLACEHOLDERS.imageRepository}:${version}`,
    stateBackend: {
      url: SERVER_PLACEHOLDERS.stateBackend,
      credentialsSecret: STATE_BACKEND_SECRET,
      credentialsSecretOptional: true,
    },
    config: {
      signIn: { issuer: SERVER_PLACEHOLDERS.issuer },
      http: { publicUrl: SERVER_PLACEHOLDERS.publicUrl },
    },
  };
}

/** The file for package version `version` (the image's tag). */
export function serverDeployFile(version: string): { readonly path: string; readonly content: string } {
  const install = placeholderInstall(version);
  const { options, objects } = serverInstallation(install);
  const { namespace } = options.installation;
  const keys = Object.values(SERVER_SECRET_KEYS).join(", ");
  const header = `# kubespaces server in the host cluster: its configuration, Deployment (${SERVER_INSTALL_DEFAULTS.replicas} replicas), PodDisruptionBudget, Service and NetworkPolicy.
# It runs as ServiceAccount ${INSTALL_DEFAULTS.serviceAccount} of namespace ${INSTALL_DEFAULTS.namespace}: apply deploy/*.yaml (the Tenant resource and that RBAC) first, and ${path.posix.dirname(GATEWAY_RBAC_FILE)}/ when tenants are exposed through the shared Gateway.
# Before applying, replace the placeholders:
#   ${install.image}  the image you built from deploy/image/Containerfile
#   ${SERVER_PLACEHOLDERS.stateBackend}  a state backend every replica shares
#   ${SERVER_PLACEHOLDERS.issuer}  your OpenID Connect issuer (signIn in the configuration)
#   ${SERVER_PLACEHOLDERS.publicUrl}  the URL people reach the server at, through your Gateway or Ingress
# and create Secret ${options.secretName} in namespace ${namespace} with the keys ${keys} (docs/self-service.md).
# The state backend's credentials, when it needs any: create Secret ${STATE_BACKEND_SECRET} in namespace ${namespace},
# each key a variable of the server's environment, read when a pod starts (without the Secret, the pods start with none):
${STATE_BACKEND_KEYS.map((keys) => `#   ${keys}`).join("\n")}
# For other values, install with the Pulumi component KubespacesServer (@kubespaces/pulumi), or change a copy of this file.`;
  return { path: SERVER_DEPLOY_FILE, content: yamlFile(header, objects, "provider/serverInstall/") };
}
