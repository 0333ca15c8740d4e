/**
 * TenantReadiness and TenantCleanup as custom resources of the kubespaces provider plugin, for
 * Tenants constructed by the plugin (every language but TypeScript).
 */
import * as pulumi from "@pulumi/pulumi";
import type { LifecycleResources } from "../component/lifecycleResources";
import { TENANT_CLEANUP_TOKEN, TENANT_READINESS_TOKEN } from "../schema/packageSchema";
import type { TenantReadinessArgs } from "../readiness/tenantReadiness";
import type { TenantCleanupArgs } from "../teardown/tenantCleanup";

/** Readiness as a custom resource of this plugin. */
export class PluginTenantReadiness extends pulumi.CustomResource {
  /** The tenant's kubeconfig (secret). */
  declare readonly kubeconfig: pulumi.Output<string>;
  /** When the virtual cluster was last seen ready. */
  declare readonly readyAt: pulumi.Output<string>;
  /** ms the last wait took. */
  declare readonly waitedMs: pulumi.Output<number>;

  constructor(name: string, args: TenantReadinessArgs, opts: pulumi.CustomResourceOptions) {
    const outputs = { kubeconfig: undefined, readyAt: undefined, waitedMs: undefined, apiRequests: undefined };
    super(TENANT_READINESS_TOKEN, name, { ...args, ...outputs }, { ...opts, additionalSecretOutputs: ["kubeconfig", "hostKubeconfig"] });
  }
}

/** Cleanup as a custom resource of this plugin. */
export class PluginTenantCleanup extends pulumi.CustomResource {
  constructor(name: string, args: TenantCleanupArgs, opts: pulumi.CustomResourceOptions) {
    super(TENANT_CLEANUP_TOKEN, name, { ...args }, { ...opts, additionalSecretOutputs: ["hostKubeconfig"] });
  }
}

/** The plugin's factories: its own custom resources, at this plugin's version. */
export function pluginLifecycleResources(version: string): LifecycleResources {
  return {
    readiness: (name, args, opts) => new PluginTenantReadiness(name, args, { ...opts, version }),
    cleanup: (name, args, opts) => new PluginTenantCleanup(name, args, { ...opts, version }),
  };
}
