/**
 * Registers a tenant's rendered Kubernetes objects and its Helm release as Pulumi resources on the
 * host provider. Each object's kind comes from its slot (known before any value is), its metadata
 * and spec from the render.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import type { RenderedHelmRelease } from "../render/helmRelease";
import { LIMIT_RANGE_TYPE } from "../render/limitRange";
import { childName } from "../contracts/childRoles";
import type { TypeMeta } from "../contracts/typeMeta";
import type { Manifest, ManifestMetadata } from "../render/manifest";
import { NAMESPACE_TYPE, withOwnerId, type OwnedNamespaceMetadata } from "../render/namespace";
import { ROLE_BINDING_TYPE } from "../render/namespaceAccess";
import { NETWORK_POLICY_TYPE } from "../render/networkPolicy";
import { RESOURCE_QUOTA_TYPE } from "../render/resourceQuota";
import type { ObjectSlot, RenderedTenant } from "../render/renderTenant";
import { mapPlainOrOutput, type PlainOrOutput } from "../util/plainOrOutput";

/** What the Kubernetes children of one tenant share. */
export interface KubernetesChildContext {
  /** Tenant name; children are named after it (childName). */
  readonly name: string;
  /** Every value of the tenant, rendered: plain when every input was. */
  readonly rendered: PlainOrOutput<RenderedTenant>;
  /** A check the namespace (and so everything after it) waits for, if any. */
  readonly preflight?: pulumi.Output<true>;
  /** Provider created by the Tenant for the host, if any. */
  readonly provider?: k8s.Provider;
}

type ObjectArgs = {
  metadata: pulumi.Input<ManifestMetadata | OwnedNamespaceMetadata<pulumi.Input<string>>>;
  spec?: pulumi.Input<Manifest["spec"]>;
  roleRef?: pulumi.Input<Manifest["roleRef"]>;
  subjects?: pulumi.Input<Manifest["subjects"]>;
};
type ObjectClass = new (name: string, args: ObjectArgs, opts: pulumi.CustomResourceOptions) => pulumi.CustomResource;

// The SDK classes of the core kinds (their Pulumi types are `kubernetes:core/v1:<Kind>`, which a
// CustomResource would not produce); every other kind is registered as a CustomResource.
const typeKey = (type: TypeMeta): string => `${type.apiVersion}/${type.kind}`;
const SDK_CLASSES: Record<string, ObjectClass> = {
  [typeKey(NAMESPACE_TYPE)]: k8s.core.v1.Namespace as ObjectClass,
  [typeKey(RESOURCE_QUOTA_TYPE)]: k8s.core.v1.ResourceQuota as ObjectClass,
  [typeKey(LIMIT_RANGE_TYPE)]: k8s.core.v1.LimitRange as ObjectClass,
  [typeKey(NETWORK_POLICY_TYPE)]: k8s.networking.v1.NetworkPolicy as ObjectClass,
  [typeKey(ROLE_BINDING_TYPE)]: k8s.rbac.v1.RoleBinding as ObjectClass,
};

const withProvider = (
  context: KubernetesChildContext,
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResourceOptions => ({
  ...opts,
  ...(context.provider && { provider: context.provider }),
});

/**
 * Registers the object of `slot`. The namespace also carries `ownerId`, the owner id the host
 * check recorded, and waits for the preflight, so that nothing is created before it passes.
 */
export function registerObject(
  context: KubernetesChildContext,
  slot: ObjectSlot,
  opts: pulumi.CustomResourceOptions,
  ownerId?: pulumi.Output<string>,
): pulumi.CustomResource {
  const manifest = (r: RenderedTenant): Manifest => {
    const found = r.objects.find((object) => object.role === slot.role);
    if (!found) throw new Error(`kubespaces: no ${slot.role} was rendered for tenant ${context.name}`);
    return found.manifest;
  };
  const field = <K extends keyof Manifest>(key: K) => mapPlainOrOutput(context.rendered, (r) => manifest(r)[key]);
  const metadata = field("metadata");
  const args: ObjectArgs = {
    metadata: slot.role === "namespace" ? namespaceMetadata(context, metadata, ownerId) : metadata,
    // A RoleBinding has no spec: its role and subjects are top-level fields.
    ...(slot.kind === ROLE_BINDING_TYPE.kind
      ? { roleRef: field("roleRef"), subjects: field("subjects") }
      : { spec: field("spec") }),
  };
  const name = childName(context.name, slot.role);
  const sdkClass = SDK_CLASSES[typeKey(slot)];
  if (sdkClass) return new sdkClass(name, args, withProvider(context, opts));
  // Their names stay the same when they are replaced (a new TLSRoute version is a new Pulumi type):
  // the old object must go before the new one is created, or the create would take it over and
  // the delete then remove it.
  const replaceFirst = { deleteBeforeReplace: true };
  return new k8s.apiextensions.CustomResource(
    name,
    { apiVersion: slot.apiVersion, kind: slot.kind, ...args },
    withProvider(context, { ...opts, ...replaceFirst }),
  );
}

/**
 * The namespace's metadata with the owner id. The id, behind the preflight, is one leaf: in a
 * preview where it is not known yet (the host check updates), only that annotation is unknown, so
 * the name stays known and the preview shows an update of the namespace, not a replacement.
 */
function namespaceMetadata(
  context: KubernetesChildContext,
  metadata: PlainOrOutput<ManifestMetadata>,
  ownerId: pulumi.Output<string> | undefined,
): ObjectArgs["metadata"] {
  if (!ownerId)
    throw new Error(`kubespaces: the namespace of tenant ${context.name} is registered before its host check`);
  const leaf = context.preflight ? pulumi.all([context.preflight, ownerId]).apply(([, id]) => id) : ownerId;
  return mapPlainOrOutput(metadata, (m) => withOwnerId(m, leaf));
}

/** Registers the vCluster Helm release. */
export function registerHelmRelease(
  context: KubernetesChildContext,
  opts: pulumi.CustomResourceOptions,
): k8s.helm.v3.Release {
  const release = <T>(select: (r: RenderedHelmRelease) => T) =>
    mapPlainOrOutput(context.rendered, (r) => select(r.helmRelease));
  return new k8s.helm.v3.Release(
    childName(context.name, "vcluster"),
    {
      name: release((r) => r.name),
      namespace: release((r) => r.namespace),
      chart: release((r) => r.chart),
      version: release((r) => r.version ?? ""),
      repositoryOpts: release((r) => (r.repository ? { repo: r.repository } : {})),
      values: release((r) => r.values),
      timeout: release((r) => r.timeoutSeconds),
      maxHistory: release((r) => r.maxHistory),
      // A failed install is rolled back, so the next `up` does not hit "cannot re-use a name".
      atomic: true,
      cleanupOnFail: true,
      createNamespace: false,
    },
    withProvider(context, opts),
  );
}
