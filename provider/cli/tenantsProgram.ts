/**
 * The embedded tenants program the `kubespaces` command runs through the Automation API (an inline
 * program): a TenantSet over the command's tenants folder, under the login's platform policy, on
 * the login's host cluster. It is the same component a platform's own stack declares over its
 * Tenant files, so the CLI door and the files door make the same tenants.
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import { TenantSet } from "../tenantFiles/tenantSet";
import { readRequests } from "./requestFiles";

/** What the program needs. */
export interface TenantsProgramArgs {
  /** The folder of Tenant manifests (the command's, or a proposed copy for a preview). */
  readonly tenantsDir: string;
  /** The platform's policy, with the host's kubeconfig and chart filled in. */
  readonly platform: TenantPlatformInput;
  /**
   * Called with the tenants the folder requests, as the program reads it (under the stack lock),
   * before any is declared; throwing stops the update with nothing changed.
   */
  readonly checkBeforeDeclaring?: (names: readonly string[]) => Promise<void>;
}

/** The name of the TenantSet in the tenants stack (its tenants are named after their documents). */
const TENANT_SET_NAME = "tenants";

/** The inline program. */
export function tenantsProgram(args: TenantsProgramArgs): PulumiFn {
  return async () => {
    await args.checkBeforeDeclaring?.([...readRequests(args.tenantsDir).keys()]);
    const set = new TenantSet(TENANT_SET_NAME, { path: args.tenantsDir, platform: args.platform as never });
    return { tenants: set.names };
  };
}

/**
 * The policy the program holds requests to: the login's, with the host's kubeconfig (a secret in
 * the Tenant) and, on a host that packages its own chart (the test bed), that chart.
 */
export function effectivePolicy(policy: TenantPlatformInput, hostKubeconfig: string, chartPath: string | undefined): TenantPlatformInput {
  return { ...policy, ...(chartPath && { chart: { localPath: chartPath } }), hostKubeconfig } as TenantPlatformInput;
}
