/**
 * The server's configuration file as the installation writes it: the platform's configuration with
 * what the installation decides put in, each from its one source: the namespace and the admin group
 * from the Tenant resource's installation (so that the Leases are where the server's Leases Role
 * allows them, and the API's admins are the admission policy's), where to listen from the port (and
 * the metrics' own port), and the Secret's files where the pod mounts them. It is checked with the
 * server's own schemas, so that a configuration the server would refuse at start is refused before
 * anything is created.
 */
import { stringify } from "yaml";
import { METRICS_PORT } from "../contracts/metricsEndpoint";
import { toProblem } from "../model/inputProblems";
import { tenantPlatformSchema } from "../model/tenantPlatformSchema";
import type { InputProblem } from "../model/validationError";
import { serverConfigSchema } from "../server/serverConfig";
import { isPlainObject } from "../util/plainObject";
import { SERVER_SECRET_KEYS } from "./serverObjectNames";
import { SIGN_IN_SECRETS_DIR } from "./serverPodLayout";

/** The configuration's fields the installation sets, and where each one's value comes from. */
const SET_BY_INSTALLATION: readonly { readonly path: readonly [string, ...string[]]; readonly from: string }[] = [
  { path: ["namespace"], from: "installation.namespace" },
  { path: ["adminGroup"], from: "installation.adminGroup" },
  { path: ["http", "listen"], from: "port" },
  { path: ["metricsListen"], from: `the metrics port, ${METRICS_PORT}` },
  { path: ["http", "sessionKeyFile"], from: `the Secret's key ${SERVER_SECRET_KEYS.sessionKey}` },
  {
    path: ["signIn", "portalClientSecretFile"],
    from: `the Secret's key ${SERVER_SECRET_KEYS.portalClientSecret}`,
  },
];

/**
 * What of an installation's options the configuration is made from (ServerInstallOptions has them;
 * named here so that the options' schema, which checks the configuration with this file, and this
 * file do not import each other).
 */
export interface ConfigSources {
  /** The platform's part of the configuration, as given. */
  readonly config: Record<string, unknown>;
  /** The installation: the server's namespace and the admins' group. */
  readonly installation: { readonly namespace: string; readonly adminGroup: string };
  /** The port the server listens on in its pod. */
  readonly port: number;
  /** The route on the platform's Gateway, whose hostname is the default public URL. */
  readonly route?: { readonly hostname: string };
}

/** The configuration the server is started with, or every problem with the platform's part of it. */
export function serverConfigFile(options: ConfigSources): {
  readonly config: Record<string, unknown>;
  readonly problems: InputProblem[];
} {
  const given = options.config;
  const problems: InputProblem[] = SET_BY_INSTALLATION.filter(({ path }) => valueAt(given, path) !== undefined).map(
    ({ path, from }) => ({
      path: ["config", ...path].join("."),
      message: `is set by the installation (from ${from}); leave it out`,
    }),
  );
  const config = withInstallation(given, options);
  if (config.signIn === undefined)
    problems.push({
      path: "config.signIn",
      message:
        "is required: the issuer and the portal's and command's clients people sign in with (no local identity provider runs in a cluster)",
    });
  if (!isPlainObject(config.http) || config.http.publicUrl === undefined)
    problems.push({
      path: "config.http.publicUrl",
      message: "is required when no route is given: the URL people reach the server at, where sign-in comes back to",
    });
  problems.push(...schemaProblems(config));
  return { config, problems };
}

/** The configuration as the server reads it: YAML. */
export const configFileText = (config: Record<string, unknown>): string => stringify(config, { lineWidth: 0 });

/** The given configuration with the installation's fields put in (over any given, which are refused above). */
function withInstallation(given: Record<string, unknown>, options: ConfigSources): Record<string, unknown> {
  const { namespace: _namespace, adminGroup: _adminGroup, ...rest } = given;
  const http = isPlainObject(given.http) ? given.http : {};
  const publicUrl = http.publicUrl ?? (options.route && `https://${options.route.hostname}`);
  return {
    namespace: options.installation.namespace,
    adminGroup: options.installation.adminGroup,
    ...rest,
    // On every address of the pod, as the API's: Prometheus scrapes the pod's own.
    metricsListen: `0.0.0.0:${METRICS_PORT}`,
    http: {
      ...http,
      listen: `0.0.0.0:${options.port}`,
      ...(publicUrl !== undefined && { publicUrl }),
      sessionKeyFile: `${SIGN_IN_SECRETS_DIR}/${SERVER_SECRET_KEYS.sessionKey}`,
    },
    ...(given.signIn !== undefined && {
      signIn: {
        ...(isPlainObject(given.signIn) ? given.signIn : {}),
        portalClientSecretFile: `${SIGN_IN_SECRETS_DIR}/${SERVER_SECRET_KEYS.portalClientSecret}`,
      },
    }),
  };
}

/** What the server's schema and the policy's schema refuse in `config`, each path under `config.`. */
function schemaProblems(config: Record<string, unknown>): InputProblem[] {
  const problems: InputProblem[] = [];
  const parsed = serverConfigSchema.safeParse(config, { reportInput: true });
  if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => toProblem(issue, ["config"])));
  const platform = config.platform ?? {};
  if (isPlainObject(platform) && platform.hostKubeconfig !== undefined) {
    problems.push({
      path: "config.platform.hostKubeconfig",
      message: "does not belong in the server's configuration: the server reaches its host as its own ServiceAccount",
    });
  } else {
    const policy = tenantPlatformSchema.safeParse(platform, { reportInput: true });
    if (!policy.success) problems.push(...policy.error.issues.map((issue) => toProblem(issue, ["config", "platform"])));
  }
  return problems;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((at, key) => (isPlainObject(at) ? at[key] : undefined), value);
}
