/**
 * One installed object (a CRD, RBAC, the server's workload, ...) registered as a child of a
 * component, through its kind's class in the Kubernetes SDK so that the child has its Kubernetes
 * type (`kubernetes:rbac.authorization.k8s.io/v1:Role`, ...); a kind the SDK does not know (the
 * HTTPRoute, a CRD's kind) becomes a CustomResource. The TenantCrd and the KubespacesServer share it.
 */
import * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import type { InstalledObject, KubeObject } from "./kubeObject";

type ObjectClass = new (
  name: string,
  args: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions,
) => pulumi.CustomResource;

/** The SDK's class of each kind the installations render. */
const SDK_CLASSES: Record<string, ObjectClass> = {
  CustomResourceDefinition: k8s.apiextensions.v1.CustomResourceDefinition as unknown as ObjectClass,
  Namespace: k8s.core.v1.Namespace as unknown as ObjectClass,
  ServiceAccount: k8s.core.v1.ServiceAccount as unknown as ObjectClass,
  ConfigMap: k8s.core.v1.ConfigMap as unknown as ObjectClass,
  Secret: k8s.core.v1.Secret as unknown as ObjectClass,
  Service: k8s.core.v1.Service as unknown as ObjectClass,
  Deployment: k8s.apps.v1.Deployment as unknown as ObjectClass,
  PodDisruptionBudget: k8s.policy.v1.PodDisruptionBudget as unknown as ObjectClass,
  NetworkPolicy: k8s.networking.v1.NetworkPolicy as unknown as ObjectClass,
  ClusterRole: k8s.rbac.v1.ClusterRole as unknown as ObjectClass,
  ClusterRoleBinding: k8s.rbac.v1.ClusterRoleBinding as unknown as ObjectClass,
  Role: k8s.rbac.v1.Role as unknown as ObjectClass,
  RoleBinding: k8s.rbac.v1.RoleBinding as unknown as ObjectClass,
  ValidatingAdmissionPolicy: k8s.admissionregistration.v1.ValidatingAdmissionPolicy as unknown as ObjectClass,
  ValidatingAdmissionPolicyBinding: k8s.admissionregistration.v1
    .ValidatingAdmissionPolicyBinding as unknown as ObjectClass,
};

/**
 * Registers `installed` as child `<name>-<role>` of `parent`.
 * @param opts further options (dependsOn, retainOnDelete); the parent is always `parent`.
 */
export function installedObjectChild(
  parent: pulumi.Resource,
  name: string,
  installed: InstalledObject,
  opts: pulumi.CustomResourceOptions = {},
): pulumi.CustomResource {
  const childName = `${name}-${installed.role}`;
  const childOpts = { ...opts, parent };
  const { apiVersion, kind, ...fields }: KubeObject = installed.object;
  const sdkClass = SDK_CLASSES[kind];
  if (sdkClass) return new sdkClass(childName, fields, childOpts);
  return new k8s.apiextensions.CustomResource(childName, { apiVersion, kind, ...fields }, childOpts);
}
