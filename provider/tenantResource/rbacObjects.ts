/**
 * The RBAC that comes with the Tenant resource: the server's ServiceAccount (when it runs as one),
 * its ClusterRole, the ClusterRole it holds in tenant namespaces alone (bound there by each
 * tenant's stack), its Roles in the gateway namespace and for the replicas' Leases with their bindings,
 * and the ClusterRole of people who request tenants, which the platform binds to its teams.
 */
import { serverSubject, type InstallOptions } from "./installOptions";
import { PART_OF_KUBESPACES, type InstalledObject } from "./kubeObject";
import { granted, type DocumentedRule } from "./rbacRule";
import { SERVER_CLUSTER_RULES, SERVER_GATEWAY_RULES, SERVER_NAMESPACE_RULES, SERVER_TENANT_RULES } from "./serverRules";
import { TENANT_GROUP, TENANT_PLURAL, TENANT_RESOURCE_OBJECTS as NAMES } from "../contracts/tenantResourceNames";

const RBAC = "rbac.authorization.k8s.io/v1";

const metadata = (name: string, namespace?: string) => ({
  name,
  ...(namespace && { namespace }),
  labels: PART_OF_KUBESPACES,
});

/** A role (`ClusterRole`, or a `Role` in `namespace`) of documented rules. */
function role(as: string, name: string, rules: readonly DocumentedRule[], namespace?: string): InstalledObject {
  return {
    role: as,
    object: {
      apiVersion: RBAC,
      kind: namespace ? "Role" : "ClusterRole",
      metadata: metadata(name, namespace),
      rules: rules.map((r) => r.rule),
    },
    ruleReasons: rules.map((r) => r.why),
  };
}

/** A binding of role `name` to the server, named like the role. */
function serverBinding(options: InstallOptions, as: string, name: string, namespace?: string): InstalledObject {
  const kind = namespace ? "Role" : "ClusterRole";
  return {
    role: as,
    object: {
      apiVersion: RBAC,
      kind: `${kind}Binding`,
      metadata: metadata(name, namespace),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind, name },
      subjects: [serverSubject(options)],
    },
  };
}

/** The server's identity and permissions, in creation order (the ServiceAccount before its bindings). */
export function serverRbac(options: InstallOptions): InstalledObject[] {
  const serviceAccount: InstalledObject[] =
    "serviceAccount" in options.server
      ? [
          {
            role: "server-service-account",
            object: {
              apiVersion: "v1",
              kind: "ServiceAccount",
              metadata: metadata(options.server.serviceAccount, options.namespace),
            },
          },
        ]
      : [];
  return [
    ...serviceAccount,
    role("server-cluster-role", NAMES.serverClusterRole, SERVER_CLUSTER_RULES),
    serverBinding(options, "server-cluster-role-binding", NAMES.serverClusterRole),
    // Bound in each tenant namespace by that tenant's stack (platform.namespaceAccess), never here.
    role("server-tenant-role", NAMES.serverTenantClusterRole, SERVER_TENANT_RULES),
    role("gateway-role", NAMES.serverGatewayRole, SERVER_GATEWAY_RULES, options.gatewayNamespace),
    serverBinding(options, "gateway-role-binding", NAMES.serverGatewayRole, options.gatewayNamespace),
    role("leases-role", NAMES.serverLeasesRole, SERVER_NAMESPACE_RULES, options.namespace),
    serverBinding(options, "leases-role-binding", NAMES.serverLeasesRole, options.namespace),
  ];
}

/**
 * The ClusterRole of people who request tenants: Tenants, not their status (the server's alone).
 * Bound by the platform, for example to a group per team; the admission policy keeps each one to
 * tenants they own.
 */
export function requesterRole(): InstalledObject {
  return role("requester-cluster-role", NAMES.requesterClusterRole, [
    granted(
      "Request, read, change and delete Tenants; the admission policy keeps each user to the tenants they own.",
      [TENANT_GROUP],
      [TENANT_PLURAL],
      ["create", "get", "list", "watch", "update", "patch", "delete"],
    ),
  ]);
}
