/**
 * `kubespaces:index:Tenant`: a team's virtual cluster on the shared host. A thin layer over the
 * pure model and render modules: it validates, renders, and registers what was rendered along the
 * edge table; its outputs are the rendered ones and what the readiness wait returns.
 */
import * as pulumi from "@pulumi/pulumi";
import type { KubeconfigSecretRef, TenantArgs, TenantPlatformArgs, TenantStatus } from "../generated/tenantTypes";
import { dynamicLifecycleResources, type LifecycleResources } from "../lifecycle/lifecycleResources";
import { readyStatus } from "../lifecycle/readiness/readyStatus";
import { TENANT_TOKEN } from "../model/tokens";
import { structureOfSpec } from "../model/tenantStructure";
import { tenantOutputsSchema, TENANT_OUTPUT_NAMES, type TenantOutputs } from "../model/tenantOutputsSchema";
import type { TenantSpec } from "../model/tenantSpec";
import { resolvedInputProblems, validateTenant } from "../model/validateTenant";
import { TenantValidationError } from "../model/validationError";
import { objectSlots, renderTenant, type RenderedTenant } from "../render/renderTenant";
import { mapPlainOrOutput, type PlainOrOutput } from "../util/plainOrOutput";
import { secretFieldNames } from "../util/zodFields";
import { exposurePreflight } from "./exposurePreflight";
import { hostAccessProblems, hostProviderOptions } from "./hostProvider";
import { NamespaceClaims, programNamespaceClaims } from "./namespaceClaims";
import { afterVerdict, validateOnceResolved } from "./deferredValidation";
import { registerChildren, type TenantChildren } from "./registerChildren";
import { structureOfArgs } from "./structuralInputs";
import { hasUnresolvedInputs, resolvedPart, pendingPaths } from "./unresolvedInputs";

/**
 * What differs between the places a Tenant is constructed in: a TypeScript program (the defaults)
 * or the provider plugin, which passes its own. (Not the host cluster: that is the Kubernetes
 * provider and `platform.hostKubeconfig`.)
 * @internal
 */
export interface TenantConstructionContext {
  /** Factories of the lifecycle resources: the host check, the readiness wait and the cleanup. */
  readonly lifecycle: LifecycleResources;
  /** The namespace claims of the program the Tenant belongs to. */
  readonly claims: NamespaceClaims;
}

const SECRET_OUTPUTS = new Set<string>(secretFieldNames(tenantOutputsSchema));

/** A team's virtual cluster: namespace, quota, LimitRange, isolation, exposure, vCluster and its kubeconfig. */
export class Tenant extends pulumi.ComponentResource {
  /** Host namespace of the tenant. */
  declare readonly namespace: pulumi.Output<string>;
  /** URL of the tenant's API server: public when exposed, else the in-cluster Service URL. */
  declare readonly apiServerUrl: pulumi.Output<string>;
  /** Apps are published at `*.<appsDomain>`; undefined when not exposed. */
  declare readonly appsDomain: pulumi.Output<string | undefined>;
  /** Kubeconfig of the virtual cluster, cluster-admin inside it (secret). */
  declare readonly kubeconfig: pulumi.Output<string>;
  /** Where the vCluster stores the kubeconfig on the host. */
  declare readonly kubeconfigSecretRef: pulumi.Output<KubeconfigSecretRef>;
  /** The Ready condition and message, as the KubeSpaces operator reports them. */
  declare readonly status: pulumi.Output<TenantStatus>;

  /**
   * @param name the tenant's name: a DNS label that starts with a letter, of at most 45 characters
   *   under the default namespace prefix (the rule: model/tenantName.ts).
   * @param args a team's request, and the platform's policy it is held to (`platform`).
   * @param opts resource options; a Kubernetes `provider` here is the host cluster.
   * @param context internal: the provider plugin's lifecycle resources and claims.
   */
  constructor(
    name: string,
    args: TenantArgs,
    opts: pulumi.ComponentResourceOptions = {},
    context?: TenantConstructionContext,
  ) {
    // Plain inputs are checked before anything is registered, the component included; with
    // Outputs among them, what has resolved already is, and the rest once it resolves.
    const accessProblems = hostAccessProblems(
      opts,
      (args.platform as { hostKubeconfig?: unknown } | undefined)?.hostKubeconfig,
    );
    if (accessProblems.length > 0) throw new TenantValidationError(name, accessProblems);
    const claims = context?.claims ?? programNamespaceClaims();
    const plainSpec = hasUnresolvedInputs(args) ? undefined : validateAndClaim(name, args, claims);
    if (!plainSpec) checkResolvedInputs(name, args);
    const structure = plainSpec ? structureOfSpec(plainSpec) : structureOfArgs(name, args);
    super(TENANT_TOKEN, name, {}, opts);

    // The host kubeconfig stays out of the spec, so that only the objects that carry it are secret.
    const { hostKubeconfig: kubeconfigInput, ...platform } = (args.platform ?? {}) as TenantPlatformArgs;
    const hostKubeconfig =
      kubeconfigInput === undefined ? undefined : pulumi.secret(kubeconfigInput as pulumi.Input<string>);
    const deferred = plainSpec
      ? undefined
      : validateOnceResolved(this, name, deferredArgs(args, platform, kubeconfigInput), (plain) =>
          validateAndClaim(name, plain, claims),
        );
    const spec: PlainOrOutput<TenantSpec> = plainSpec ?? deferred!.spec;
    const rendered: PlainOrOutput<RenderedTenant> = mapPlainOrOutput(spec, renderTenant);
    const children = registerChildren({
      name,
      parent: this,
      rendered,
      structure,
      preflight: exposurePreflight(spec, objectSlots(structure), hostKubeconfig),
      lifecycle: context?.lifecycle ?? dynamicLifecycleResources,
      hostKubeconfig,
      verdict: deferred?.verdict,
      ...hostProviderOptions(name, this, opts, hostKubeconfig, deferred?.verdict),
    });

    const outputs = tenantOutputs(name, rendered, children, deferred?.verdict);
    Object.assign(this, outputs);
    this.registerOutputs(outputs);
  }
}

/**
 * The inputs to validate once they resolve. The host kubeconfig is among them for its own rules,
 * unsecret: it stays out of the spec, which would otherwise be secret as a whole.
 */
function deferredArgs(
  args: TenantArgs,
  platform: object,
  hostKubeconfig: TenantPlatformArgs["hostKubeconfig"],
): object {
  if (hostKubeconfig === undefined) return { ...args, platform };
  return { ...args, platform: { ...platform, hostKubeconfig: pulumi.unsecret(pulumi.output(hostKubeconfig)) } };
}

/** Throws TenantValidationError, before anything is registered, for what is wrong with the inputs resolved already. */
function checkResolvedInputs(name: string, args: TenantArgs): void {
  const problems = resolvedInputProblems(name, resolvedPart(args), pendingPaths(args));
  if (problems.length > 0) throw new TenantValidationError(name, problems);
}

/**
 * The Tenant's outputs, one per field of the outputs schema: the rendered ones once the namespace
 * is registered (so that users of them wait for it), the kubeconfig and status from the wait.
 * Fields the schema marks secret are secret. With a `verdict`, they fail with it.
 */
function tenantOutputs(
  name: string,
  rendered: PlainOrOutput<RenderedTenant>,
  { byRole, readiness }: TenantChildren,
  verdict: pulumi.Output<unknown> | undefined,
): Record<keyof TenantOutputs, pulumi.Output<unknown>> {
  const fromReadiness: Partial<Record<keyof TenantOutputs, pulumi.Output<unknown>>> = {
    kubeconfig: readiness.kubeconfig,
    status: pulumi
      .all([readiness.readyAt, readiness.waitedMs, asleepOf(rendered)])
      .apply(([at, ms, asleep]) => readyStatus(name, at, ms, asleep)),
  };
  const fromRender = (key: keyof TenantOutputs) =>
    byRole
      .get("namespace")!
      .urn.apply(() => mapPlainOrOutput(rendered, (r) => (r.outputs as Partial<TenantOutputs>)[key]));
  const entries = TENANT_OUTPUT_NAMES.map((key) => {
    const value = afterVerdict(verdict, fromReadiness[key] ?? fromRender(key));
    return [key, SECRET_OUTPUTS.has(key) ? pulumi.secret(value) : value];
  });
  return Object.fromEntries(entries) as Record<keyof TenantOutputs, pulumi.Output<unknown>>;
}

/** Whether the rendered tenant sleeps. */
const asleepOf = (rendered: PlainOrOutput<RenderedTenant>): pulumi.Output<boolean> =>
  pulumi.output(mapPlainOrOutput(rendered, (r) => r.readiness.asleep === true));

function validateAndClaim(name: string, plain: unknown, claims: NamespaceClaims): TenantSpec {
  const spec = validateTenant(name, plain, { namespaceOwner: (namespace) => claims.ownerOf(namespace) });
  claims.claim(spec.namespace, name);
  return spec;
}
