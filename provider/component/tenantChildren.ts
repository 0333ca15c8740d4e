/**
 * Registers a tenant's rendered objects as Pulumi resources, each parented to the Tenant, with
 * the edges that creation and deletion need (deletion runs the graph in reverse).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { Manifest } from "../render/manifest";
import type { RenderedTenant } from "../render/renderTenant";
import type { TenantStructure } from "./tenantStructure";

/** What every child needs: its tenant, its parent and the rendered objects. */
export interface ChildContext {
  /** Tenant name; children are named `<name>-<role>`. */
  readonly name: string;
  /** The Tenant component. */
  readonly parent: pulumi.Resource;
  /** Every object of the tenant, rendered. */
  readonly rendered: pulumi.Output<RenderedTenant>;
  /** Which children exist. */
  readonly structure: TenantStructure;
  /** Provider created by the Tenant for the host, if any. */
  readonly provider?: k8s.Provider;
}

/** The namespace and what fences it in. */
export interface Fence {
  /** The tenant namespace. */
  readonly namespace: k8s.core.v1.Namespace;
  /** Every fence resource the release must wait for. */
  readonly all: pulumi.Resource[];
}

const options = (context: ChildContext, extra: pulumi.CustomResourceOptions = {}): pulumi.CustomResourceOptions => ({
  parent: context.parent,
  ...(context.provider && { provider: context.provider }),
  ...extra,
});

// The spec of a rendered object, typed as the Kubernetes SDK expects it.
const specOf = <T>(manifest: pulumi.Output<Manifest | undefined>) => manifest.apply((m) => m?.spec as T);
const metadataOf = (manifest: pulumi.Output<Manifest | undefined>) => manifest.apply((m) => m?.metadata ?? { name: "", labels: {} });

/** Registers the namespace, its quota, its LimitRange and its NetworkPolicy. */
export function registerFence(context: ChildContext): Fence {
  const { name, rendered } = context;
  const namespace = new k8s.core.v1.Namespace(`${name}-namespace`, { metadata: metadataOf(rendered.namespace) }, options(context));
  // Deleting the namespace deletes these; the engine need not delete them one by one.
  const inNamespace = options(context, { dependsOn: [namespace], deletedWith: namespace });
  const quota = new k8s.core.v1.ResourceQuota(
    `${name}-quota`,
    { metadata: metadataOf(rendered.resourceQuota), spec: specOf(rendered.resourceQuota) },
    inNamespace,
  );
  const limitRange = new k8s.core.v1.LimitRange(
    `${name}-limit-range`,
    { metadata: metadataOf(rendered.limitRange), spec: specOf(rendered.limitRange) },
    inNamespace,
  );
  const all: pulumi.Resource[] = [namespace, quota, limitRange];
  if (context.structure.networkPolicy) {
    const policy = rendered.apply((r) => r.networkPolicy);
    all.push(new k8s.networking.v1.NetworkPolicy(`${name}-network-policy`, { metadata: metadataOf(policy), spec: specOf(policy) }, inNamespace));
  }
  return { namespace, all };
}

/**
 * Registers the Gateway objects. The TLSRoute comes after the ReferenceGrant that admits it; the
 * Certificate and listener depend on `cleanup`, so that its delete (which removes the certificate
 * Secret) runs only after they are gone.
 */
export function registerExposure(context: ChildContext, namespace: k8s.core.v1.Namespace, cleanup: pulumi.Resource): void {
  const { name } = context;
  const exposure = context.rendered.apply((r) => r.exposure);
  const custom = (role: string, manifest: pulumi.Output<Manifest | undefined>, apiVersion: string, kind: string, dependsOn: pulumi.Resource[]) =>
    new k8s.apiextensions.CustomResource(
      `${name}-${role}`,
      { apiVersion, kind, metadata: metadataOf(manifest), spec: specOf(manifest) },
      options(context, { dependsOn }),
    );
  const gateway = "gateway.networking.k8s.io";
  const grant = custom("api-reference-grant", exposure.apply((e) => e?.apiReferenceGrant), `${gateway}/v1`, "ReferenceGrant", [namespace]);
  custom("api-route", exposure.apply((e) => e?.apiRoute), `${gateway}/${context.structure.tlsRouteVersion}`, "TLSRoute", [grant]);
  const certificate = custom("apps-certificate", exposure.apply((e) => e?.appsCertificate), "cert-manager.io/v1", "Certificate", [namespace, cleanup]);
  custom("apps-listener-set", exposure.apply((e) => e?.appsListenerSet), `${gateway}/v1`, "ListenerSet", [certificate]);
}

/** Registers the vCluster Helm release after everything it must schedule under. */
export function registerHelmRelease(context: ChildContext, dependsOn: pulumi.Resource[]): k8s.helm.v3.Release {
  const release = context.rendered.helmRelease;
  return new k8s.helm.v3.Release(
    `${context.name}-vcluster`,
    {
      name: release.name,
      namespace: release.namespace,
      chart: release.chart,
      version: release.apply((r) => r.version ?? ""),
      repositoryOpts: release.apply((r) => (r.repository ? { repo: r.repository } : {})),
      values: release.values,
      timeout: release.timeoutSeconds,
      // A failed install is rolled back, so the next `up` does not hit "cannot re-use a name".
      atomic: true,
      cleanupOnFail: true,
      createNamespace: false,
    },
    options(context, { dependsOn }),
  );
}
