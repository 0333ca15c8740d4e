/**
 * @kubespaces/pulumi: KubeSpaces tenants as a Pulumi component. Each Tenant gets a virtual cluster
 * (vCluster) in its own host namespace, fenced by quota, LimitRange, network isolation and pod
 * security, optionally exposed through Gateway API, and handed back as a kubeconfig.
 *
 * What a program needs: the Tenant, its input and output types, and the pure validation and
 * rendering for reviewing a tenant without Pulumi. The children (host check, readiness, cleanup)
 * stay internal.
 */
export { Tenant } from "./component/tenant";
export type * from "./generated/tenantTypes";
export * from "./validation";
export { renderTenant, type RenderedTenant, type RenderedObject } from "./render/renderTenant";
export type { ObjectRole } from "./contracts/childRoles";
export type { RenderedHelmRelease } from "./render/helmRelease";
export type { Manifest, ManifestMetadata } from "./render/manifest";
export type { TypeMeta } from "./contracts/typeMeta";
export { TenantSet, type TenantSetArgs } from "./tenantFiles/tenantSet";
export { TenantCrd, type TenantCrdArgs } from "./tenantResource/tenantCrdComponent";
export type { ServerIdentity } from "./tenantResource/installOptions";
export {
  KubespacesServer,
  type KubespacesServerArgs,
  type KubespacesServerSecrets,
} from "./serverInstall/kubespacesServerComponent";
export type { GatewayParentInput, ServerInstallInput } from "./serverInstall/serverInstallOptions";
