/**
 * Registers a tenant's cleanup and readiness resources (dynamic resources in TypeScript programs,
 * the plugin's custom resources elsewhere) with the edges teardown and the wait need.
 */
import type * as k8s from "@pulumi/kubernetes";
import type * as pulumi from "@pulumi/pulumi";
import { kubeconfigServerUrl } from "../render/vclusterValues";
import { appsCertificateSecretName } from "../spec/names";
import type { TenantSpec } from "../spec/tenantSpec";
import { pick, type Known } from "../util/known";
import { lifecycleResources, type ReadinessResource } from "./lifecycleResources";
import type { ChildContext } from "./tenantChildren";

/**
 * The cleanup resource, after the namespace: the release and the certificate depend on it, so its
 * delete (which removes what they leave) runs after theirs and before the namespace's.
 */
export function registerCleanup(
  context: ChildContext,
  spec: Known<TenantSpec>,
  hostKubeconfig: pulumi.Output<string> | undefined,
  namespace: k8s.core.v1.Namespace,
): pulumi.Resource {
  const { name } = context;
  const certificateSecret = (s: TenantSpec) => s.exposure && { namespace: s.exposure.gateway.namespace, name: appsCertificateSecretName(name) };
  return lifecycleResources().cleanup(
    `${name}-cleanup`,
    {
      tenantName: name,
      namespace: pick(spec, (s) => s.namespace),
      releaseName: pick(spec, (s) => s.releaseName),
      certificateSecret: pick(spec, certificateSecret),
      hostKubeconfig,
    },
    { parent: context.parent, dependsOn: [namespace] },
  );
}

/** The readiness wait, after the release; a new release revision makes it wait again. */
export function registerReadiness(
  context: ChildContext,
  spec: Known<TenantSpec>,
  hostKubeconfig: pulumi.Output<string> | undefined,
  release: k8s.helm.v3.Release,
): ReadinessResource {
  return lifecycleResources().readiness(
    `${context.name}-readiness`,
    {
      tenantName: context.name,
      namespace: pick(spec, (s) => s.namespace),
      releaseName: pick(spec, (s) => s.releaseName),
      serverUrl: pick(spec, kubeconfigServerUrl),
      timeoutSeconds: pick(spec, (s) => s.readiness.timeoutSeconds),
      hostKubeconfig,
      releaseRevision: release.status.revision.apply(String),
    },
    { parent: context.parent, dependsOn: [release] },
  );
}
