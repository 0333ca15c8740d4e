/**
 * What an installation of the Tenant resource depends on: who the server is, where it runs, and
 * which group holds the platform's admins. A zod schema checks them and fills in the defaults
 * (which the GitOps YAML under `deploy/` is rendered with).
 */
import { z } from "zod";
import { dnsLabel, requiredText } from "../model/schemaParts";
import { DEFAULT_GATEWAY_NAMESPACE, DEFAULT_NAMESPACE_PREFIX } from "../model/tenantPlatformSchema";

/** The defaults, named once: the generated YAML's header quotes them. */
export const INSTALL_DEFAULTS = {
  namespace: "kubespaces-system",
  serviceAccount: "kubespaces-server",
  adminGroup: "kubespaces-admins",
  tenantNamespacePrefix: DEFAULT_NAMESPACE_PREFIX,
  gatewayNamespace: DEFAULT_GATEWAY_NAMESPACE,
} as const;

/**
 * A prefix the API server puts before names from an identity provider: text without spaces, quotes
 * or backslashes, since the admission policy writes it into CEL strings.
 */
const identityPrefix = (description: string) =>
  z
    .string()
    .max(63, { error: "must be at most 63 characters" })
    .regex(/^[^\s"'\\]*$/, { error: "must have no spaces, quotes or backslashes" })
    .describe(description);

// Documented on InstallOptionsInput below; the descriptions here only name the fields.
const serverIdentity = z.union([
  z.strictObject({ serviceAccount: dnsLabel("The server's ServiceAccount.") }),
  z.strictObject({ user: requiredText("The server's user name.") }),
]);

/** An installation's options. */
export const installOptionsSchema = z.strictObject({
  namespace: dnsLabel("The server's namespace.").default(INSTALL_DEFAULTS.namespace),
  createNamespace: z.boolean().default(true),
  server: serverIdentity.default({ serviceAccount: INSTALL_DEFAULTS.serviceAccount }),
  adminGroup: requiredText("The admins' group.").default(INSTALL_DEFAULTS.adminGroup),
  adminUsers: z.array(requiredText("An admin's user name.")).readonly().default([]),
  tenantNamespacePrefix: z
    .string()
    .regex(/^[a-z0-9][-a-z0-9]*-$/, {
      error: "must be lower-case letters, digits and '-', starting with a letter or digit and ending with '-'",
    })
    .max(40, { error: "must be at most 40 characters" })
    .default(INSTALL_DEFAULTS.tenantNamespacePrefix),
  gatewayNamespace: dnsLabel("The gateway namespace.").default(INSTALL_DEFAULTS.gatewayNamespace),
  identityPrefixes: z
    .strictObject({
      username: identityPrefix("The user names' prefix.").default(""),
      groups: identityPrefix("The groups' prefix.").default(""),
    })
    .prefault({}),
});

/** Who the server is: a ServiceAccount of the server's namespace, or a user. */
export type ServerIdentity =
  | {
      /** The server runs as this ServiceAccount of the server's namespace, which the installation creates. */
      readonly serviceAccount: string;
    }
  | {
      /** The server authenticates as this user (a client certificate's CN, an OIDC user). */
      readonly user: string;
    };

/** Options as written: all may be left out. (A unit test checks that this is what the schema accepts.) */
export interface InstallOptionsInput {
  /**
   * The server's namespace: its replicas' Leases and tenant claims, and its ServiceAccount.
   * @default "kubespaces-system"
   */
  readonly namespace?: string;
  /**
   * Create the namespace; false when it exists already.
   * @default true
   */
  readonly createNamespace?: boolean;
  /**
   * Who the server is: its RBAC is bound to it and the admission policy lets it through.
   * @default { serviceAccount: "kubespaces-server" }
   */
  readonly server?: ServerIdentity;
  /**
   * The platform's admins: the admission policy lets them create and change any tenant, give it
   * another owner and approve a previewed change.
   * @default "kubespaces-admins"
   */
  readonly adminGroup?: string;
  /**
   * User names the admission policy treats as admins, besides the group's members: above all the
   * GitOps controller that applies a reviewed folder of Tenant files for every team (Flux's
   * `system:serviceaccount:flux-system:kustomize-controller`, Argo CD's application controller),
   * since a ServiceAccount cannot be put in a group. The repository's review then decides owners.
   * @default []
   */
  readonly adminUsers?: readonly string[];
  /**
   * The start of every tenant namespace's name: the platform's `namespacePrefix`. The server may
   * write only namespaces named so, and RoleBindings only in them (serverFence.ts); the Tenant
   * CRD refuses a name too long for its namespace under it (tenantCrd.ts). It ends with '-', so
   * that no namespace of another name merely begins with it by chance.
   * @default "kubespaces-tenant-"
   */
  readonly tenantNamespacePrefix?: string;
  /**
   * The namespace of the platform's shared Gateway (`platform.exposure.gateway.namespace`), where
   * the server makes each exposed tenant's TLSRoute, ListenerSet and Certificate. It must exist.
   * @default "kubespaces-gateway"
   */
  readonly gatewayNamespace?: string;
  /**
   * How a Kubernetes user and group map to a tenant's owner and the admin group: the prefixes the
   * host's API server puts before the names from your identity provider (kube-apiserver's
   * `--oidc-username-prefix` and `--oidc-groups-prefix`, or a structured authentication
   * configuration's claim mappings, such as `oidc:`). The admission policy strips the user name's
   * prefix before comparing it with `spec.owner`, so that the person who owns a tenant in the portal
   * and the API (by the sign-in's email) owns it with kubectl too, and it knows the admins as the
   * prefixed `adminGroup`. A name without the prefix (a client certificate's, a ServiceAccount's) is
   * compared as it is.
   * @default { username: "", groups: "" }
   */
  readonly identityPrefixes?: {
    /**
     * Before user names.
     * @default ""
     */
    readonly username?: string;
    /**
     * Before group names.
     * @default ""
     */
    readonly groups?: string;
  };
}

/** Options with the defaults filled in. */
export type InstallOptions = z.output<typeof installOptionsSchema>;

/** Bad options, each field named. Marked so that the Pulumi CLI prints the message without a stack trace. */
export class InstallOptionsError extends Error {
  /** The marker `pulumi.RunError.isInstance` checks. */
  readonly __pulumiRunError = true;
}

/** The options, checked, with defaults; throws an InstallOptionsError naming each bad field. */
export function installOptions(input: InstallOptionsInput = {}): InstallOptions {
  const parsed = installOptionsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join(".") || "options"}: ${issue.message}`);
  throw new InstallOptionsError(
    `the Tenant resource's options are invalid; nothing was created:\n${problems.join("\n")}`,
  );
}

/** The user name the API server sees for the server's requests. */
export function serverUsername(options: InstallOptions): string {
  return "user" in options.server
    ? options.server.user
    : `system:serviceaccount:${options.namespace}:${options.server.serviceAccount}`;
}

/** The RBAC subject of the server. */
export function serverSubject(options: InstallOptions): Record<string, string> {
  return "user" in options.server
    ? { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: options.server.user }
    : { kind: "ServiceAccount", name: options.server.serviceAccount, namespace: options.namespace };
}
