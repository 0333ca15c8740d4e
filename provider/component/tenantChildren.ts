/**
 * Registers a tenant's rendered objects as Pulumi resources, each parented to the Tenant, with
 * the edges that creation and deletion need (deletion runs the graph in reverse).
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { Manifest } from "../render/manifest";
import type { RenderedHelmRelease } from "../render/helmRelease";
import type { RenderedExposure, RenderedTenant } from "../render/renderTenant";
import type { TenantStructure } from "./tenantStructure";
import { pick, type Known } from "../util/known";

/** What every child needs: its tenant, its parent and the rendered objects. */
export interface ChildContext {
  /** Tenant name; children are named `<name>-<role>`. */
  readonly name: string;
  /** The Tenant component. */
  readonly parent: pulumi.Resource;
  /** Every object of the tenant, rendered: plain when every input was. */
  readonly rendered: Known<RenderedTenant>;
  /** Which children exist. */
  readonly structure: TenantStructure;
  /** A check the namespace (and so everything after it) waits for, if any. */
  readonly preflight?: pulumi.Output<true>;
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

/** Metadata and spec of the rendered object `select` picks, as Kubernetes SDK arguments. */
function objectArgs<Spec>(
  rendered: Known<RenderedTenant>,
  select: (r: RenderedTenant) => Manifest | undefined,
): { metadata: pulumi.Input<Manifest["metadata"]>; spec: pulumi.Input<NonNullable<Spec>> } {
  const manifest = (r: RenderedTenant): Manifest => {
    const found = select(r);
    if (!found) throw new Error("kubespaces: a child was registered for an object that was not rendered");
    return found;
  };
  return {
    metadata: pick(rendered, (r) => manifest(r).metadata),
    spec: pick(rendered, (r) => manifest(r).spec as NonNullable<Spec>),
  };
}

/** Registers the namespace, its quota, its LimitRange and its NetworkPolicy. */
export function registerFence(context: ChildContext): Fence {
  const { name, rendered } = context;
  const { metadata } = objectArgs(rendered, (r) => r.namespace);
  const checkedMetadata = context.preflight ? pulumi.all([context.preflight, metadata]).apply(([, m]) => m) : metadata;
  const namespace = new k8s.core.v1.Namespace(`${name}-namespace`, { metadata: checkedMetadata }, options(context));
  // Deleting the namespace deletes these; the engine need not delete them one by one.
  const inNamespace = options(context, { dependsOn: [namespace], deletedWith: namespace });
  const quota = new k8s.core.v1.ResourceQuota(`${name}-quota`, objectArgs(rendered, (r) => r.resourceQuota), inNamespace);
  const limitRange = new k8s.core.v1.LimitRange(`${name}-limit-range`, objectArgs(rendered, (r) => r.limitRange), inNamespace);
  const all: pulumi.Resource[] = [namespace, quota, limitRange];
  if (context.structure.networkPolicy) {
    all.push(new k8s.networking.v1.NetworkPolicy(`${name}-network-policy`, objectArgs(rendered, (r) => r.networkPolicy), inNamespace));
  }
  return { namespace, all };
}

/**
 * Registers the Gateway objects. The TLSRoute comes after the ReferenceGrant that admits it; the
 * Certificate and listener depend on `cleanup`, so that its delete (which removes the certificate
 * Secret) runs only after they are gone.
 */
export function registerExposure(context: ChildContext, namespace: k8s.core.v1.Namespace, cleanup: pulumi.Resource): void {
  const { name, rendered } = context;
  type Select = (e: RenderedExposure) => Manifest;
  const custom = (role: string, select: Select, apiVersion: string, kind: string, dependsOn: pulumi.Resource[]) =>
    new k8s.apiextensions.CustomResource(
      `${name}-${role}`,
      { apiVersion, kind, ...objectArgs(rendered, (r) => r.exposure && select(r.exposure)) },
      options(context, { dependsOn }),
    );
  const gateway = "gateway.networking.k8s.io";
  const grant = custom("api-reference-grant", (e) => e.apiReferenceGrant, `${gateway}/v1`, "ReferenceGrant", [namespace]);
  custom("api-route", (e) => e.apiRoute, `${gateway}/${context.structure.tlsRouteVersion}`, "TLSRoute", [grant]);
  const certificate = custom("apps-certificate", (e) => e.appsCertificate, "cert-manager.io/v1", "Certificate", [namespace, cleanup]);
  custom("apps-listener-set", (e) => e.appsListenerSet, `${gateway}/v1`, "ListenerSet", [certificate]);
}

/** Registers the vCluster Helm release after everything it must schedule under. */
export function registerHelmRelease(context: ChildContext, dependsOn: pulumi.Resource[]): k8s.helm.v3.Release {
  const release = <T>(select: (r: RenderedHelmRelease) => T) => pick(context.rendered, (r) => select(r.helmRelease));
  return new k8s.helm.v3.Release(
    `${context.name}-vcluster`,
    {
      name: release((r) => r.name),
      namespace: release((r) => r.namespace),
      chart: release((r) => r.chart),
      version: release((r) => r.version ?? ""),
      repositoryOpts: release((r) => (r.repository ? { repo: r.repository } : {})),
      values: release((r) => r.values),
      timeout: release((r) => r.timeoutSeconds),
      // A failed install is rolled back, so the next `up` does not hit "cannot re-use a name".
      atomic: true,
      cleanupOnFail: true,
      createNamespace: false,
    },
    options(context, { dependsOn }),
  );
}
