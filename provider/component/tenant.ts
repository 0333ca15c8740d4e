/**
 * `kubespaces:index:Tenant`: a team's virtual cluster on the shared host. A thin layer over the
 * pure spec and render modules: it validates, renders, registers each rendered object as a child
 * and wires the order that creation and deletion need.
 */
import * as pulumi from "@pulumi/pulumi";
import { renderTenant, type RenderedTenant } from "../render/renderTenant";
import { kubeconfigServerUrl } from "../render/vclusterValues";
import { kubeconfigSecretName, KUBECONFIG_SECRET_KEY } from "../spec/names";
import type { TenantSpec } from "../spec/tenantSpec";
import { validateTenant } from "../spec/validateTenant";
import { findMissingKinds, missingKindsMessage, requiredKinds } from "./crdPreflight";
import { registerExposure, registerFence, registerHelmRelease, type ChildContext } from "./tenantChildren";
import { registerCleanup, registerReadiness } from "./lifecycleChildren";
import { hostProviderOptions } from "./hostProvider";
import { claimNamespace, namespaceOwner } from "./namespaceClaims";
import type { KubeconfigSecretRef, TenantArgs, TenantStatus } from "../generated/tenantTypes";
import { readyStatus } from "./readyStatus";
import { tenantStructure } from "./tenantStructure";
import { hasUnresolvedInputs } from "./unresolvedInputs";
import { pick, type Known } from "../util/known";

/** The Pulumi type token of the component. */
export const TENANT_TYPE = "kubespaces:index:Tenant";

/** A team's virtual cluster: namespace, quota, LimitRange, isolation, exposure, vCluster and its kubeconfig. */
export class Tenant extends pulumi.ComponentResource {
  /** Host namespace of the tenant. */
  readonly namespace: pulumi.Output<string>;
  /** URL of the tenant's API server: public when exposed, else the in-cluster Service URL. */
  readonly apiServerUrl: pulumi.Output<string>;
  /** Apps are published at `*.<appsDomain>`; undefined when not exposed. */
  readonly appsDomain: pulumi.Output<string | undefined>;
  /** Kubeconfig of the virtual cluster, cluster-admin inside it (secret). */
  readonly kubeconfig: pulumi.Output<string>;
  /** Where the vCluster stores the kubeconfig on the host. */
  readonly kubeconfigSecretRef: pulumi.Output<KubeconfigSecretRef>;
  /** Phase, Ready condition and message, as the KubeSpaces operator reports them. */
  readonly status: pulumi.Output<TenantStatus>;

  constructor(name: string, args: TenantArgs, opts: pulumi.ComponentResourceOptions = {}) {
    // Plain inputs are checked before anything is registered, the component included.
    const structure = tenantStructure(name, args);
    const plainSpec = hasUnresolvedInputs(args) ? undefined : validateAndClaim(name, args);
    super(TENANT_TYPE, name, {}, opts);

    // The host kubeconfig stays out of the spec, so that only the objects that carry it are secret.
    const { hostKubeconfig: kubeconfigInput, ...specArgs } = args;
    const hostKubeconfig = kubeconfigInput === undefined ? undefined : pulumi.secret(kubeconfigInput as pulumi.Input<string>);
    const spec: Known<TenantSpec> =
      plainSpec ?? pulumi.output(specArgs as pulumi.Input<Record<string, unknown>>).apply((plain) => validateAndClaim(name, plain));
    const rendered: Known<RenderedTenant> = plainSpec ? renderTenant(plainSpec) : (spec as pulumi.Output<TenantSpec>).apply(renderTenant);
    const host = hostProviderOptions(name, this, opts, hostKubeconfig);
    const context: ChildContext = { name, parent: this, rendered, structure, preflight: preflight(spec, hostKubeconfig), ...host };

    const fence = registerFence(context);
    const cleanup = registerCleanup(context, spec, hostKubeconfig, fence.namespace);
    if (structure.exposed) registerExposure(context, fence.namespace, cleanup);
    const release = registerHelmRelease(context, [...fence.all, cleanup]);
    const readiness = registerReadiness(context, spec, hostKubeconfig, release);

    this.namespace = fence.namespace.metadata.name;
    this.apiServerUrl = pulumi.output(pick(spec, kubeconfigServerUrl));
    this.appsDomain = pulumi.output(pick(spec, (s) => s.endpoints?.appsDomain));
    this.kubeconfig = pulumi.secret(readiness.kubeconfig);
    this.kubeconfigSecretRef = pulumi.output(
      pick(spec, (s) => ({ namespace: s.namespace, name: kubeconfigSecretName(s.releaseName), key: KUBECONFIG_SECRET_KEY })),
    );
    this.status = pulumi.all([readiness.readyAt, readiness.waitedMs]).apply(([at, ms]) => readyStatus(name, at, ms));
    this.registerOutputs(tenantOutputs(this));
  }
}

/** The component's outputs, listed once for registerOutputs and the provider plugin's construct. */
export function tenantOutputs(tenant: Tenant): pulumi.Inputs {
  const { namespace, apiServerUrl, appsDomain, kubeconfig, kubeconfigSecretRef, status } = tenant;
  return { namespace, apiServerUrl, appsDomain, kubeconfig, kubeconfigSecretRef, status };
}

function validateAndClaim(name: string, plain: unknown): TenantSpec {
  const spec = validateTenant(name, plain, { namespaceOwner });
  claimNamespace(spec.namespace, name);
  return spec;
}

/**
 * The check that the host serves the exposure's kinds, when asked for: an Output that fails,
 * naming what is missing, and holds back the namespace (and so every other child) until it passes.
 * Not secret: the host kubeconfig it reads with does not flow into the result.
 */
function preflight(spec: Known<TenantSpec>, hostKubeconfig: pulumi.Output<string> | undefined): pulumi.Output<true> | undefined {
  if (!pulumi.Output.isInstance(spec) && !spec.exposure?.verifyCrds) return undefined;
  const checked = pulumi.all([spec, hostKubeconfig]).apply(async ([unwrapped, kubeconfig]) => {
    const s = unwrapped as TenantSpec;
    if (!s.exposure?.verifyCrds) return true as const;
    const missing = await findMissingKinds(kubeconfig, requiredKinds(s.exposure));
    // A RunError prints as its message alone; a ResourceError here would dump the whole resource.
    if (missing.length > 0) throw new pulumi.RunError(missingKindsMessage(s.name, missing));
    return true as const;
  });
  return pulumi.unsecret(checked);
}
