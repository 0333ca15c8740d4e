/**
 * The access binding the server asks each tenant's stack for (`platform.namespaceAccess`): its
 * ClusterRole `kubespaces-server-tenant`, bound in the tenant namespace to the server itself, as the
 * API server names it (a SelfSubjectReview). The server holds its rights on what lives in tenant
 * namespaces through these bindings alone (docs/policy.md, "What the server may do").
 */
import { AuthenticationV1Api, type KubeConfig } from "@kubernetes/client-node";
import { TENANT_RESOURCE_OBJECTS } from "../../contracts/tenantResourceNames";
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";

/** A subject of a RoleBinding, as `platform.namespaceAccess.subject` takes it. */
export interface AccessSubject {
  /** `ServiceAccount` or `User`. */
  readonly kind: "ServiceAccount" | "User";
  /** The account's or the user's name. */
  readonly name: string;
  /** The ServiceAccount's namespace. */
  readonly namespace?: string;
}

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** The subject the API server knows `username` as: a ServiceAccount when it names one, else a user. */
export function subjectOf(username: string): AccessSubject {
  const account = SERVICE_ACCOUNT.exec(username);
  return account
    ? { kind: "ServiceAccount", namespace: account[1], name: account[2] }
    : { kind: "User", name: username };
}

/** Who the server is on the host, by the API server's own answer. */
export async function ownSubject(kubeConfig: KubeConfig): Promise<AccessSubject> {
  const review = await kubeConfig
    .makeApiClient(AuthenticationV1Api)
    .createSelfSubjectReview({ body: { apiVersion: "authentication.k8s.io/v1", kind: "SelfSubjectReview" } });
  const username = review.status?.userInfo?.username;
  if (!username) throw new Error("the host's API server did not say who the server is (SelfSubjectReview)");
  return subjectOf(username);
}

/** `platform` with the server's access binding: the server's own identity, whatever the file said. */
export function withServerAccess(platform: TenantPlatformInput, subject: AccessSubject): TenantPlatformInput {
  return {
    ...platform,
    namespaceAccess: { clusterRole: TENANT_RESOURCE_OBJECTS.serverTenantClusterRole, subject },
  };
}
