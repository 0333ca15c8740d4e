/**
 * The two resources a Tenant needs beyond Kubernetes objects: the readiness wait and the teardown
 * cleanup. A TypeScript program gets them as dynamic resources; the provider plugin, where dynamic
 * providers cannot load (pulumi/pulumi#5455), swaps in custom resources it serves itself.
 */
import type * as pulumi from "@pulumi/pulumi";
import { TenantReadiness, type TenantReadinessArgs } from "../readiness/tenantReadiness";
import { TenantCleanup, type TenantCleanupArgs } from "../teardown/tenantCleanup";

/** What the Tenant reads from its readiness resource. */
export interface ReadinessResource extends pulumi.Resource {
  /** The tenant's kubeconfig (secret). */
  readonly kubeconfig: pulumi.Output<string>;
  /** When the virtual cluster was last seen ready. */
  readonly readyAt: pulumi.Output<string>;
  /** ms the last wait took. */
  readonly waitedMs: pulumi.Output<number>;
}

/** Factories of the readiness and cleanup resources. */
export interface LifecycleResources {
  /** Creates the readiness resource. */
  readiness(name: string, args: TenantReadinessArgs, opts: pulumi.CustomResourceOptions): ReadinessResource;
  /** Creates the cleanup resource. */
  cleanup(name: string, args: TenantCleanupArgs, opts: pulumi.CustomResourceOptions): pulumi.Resource;
}

/** Dynamic resources, for TypeScript programs. */
export const dynamicLifecycleResources: LifecycleResources = {
  readiness: (name, args, opts) => new TenantReadiness(name, args, opts),
  cleanup: (name, args, opts) => new TenantCleanup(name, args, opts),
};

let current: LifecycleResources = dynamicLifecycleResources;

/** The factories in use. */
export function lifecycleResources(): LifecycleResources {
  return current;
}

/** Replaces the factories for this process (the provider plugin does, once, at start). */
export function useLifecycleResources(resources: LifecycleResources): void {
  current = resources;
}
