/**
 * The inline Pulumi program of one tenant's stack: the Tenant component for the team's request,
 * under the platform's policy. It is the same component a platform's own stack declares, so every
 * door makes the same tenant. The component is loaded when the program runs, not before: reads
 * and `--help` never load it.
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { StackProgram } from "../ports";

/** The stack outputs the program exports; `kubeconfig` is a secret. */
export const STACK_OUTPUTS = ["namespace", "apiServerUrl", "appsDomain", "status", "kubeconfig"] as const;

/** The program for tenant `name`. */
export function tenantProgram(name: string, program: StackProgram): PulumiFn {
  return async () => {
    await program.checkStillWanted?.();
    const { Tenant } = await import("../../component/tenant");
    const tenant = new Tenant(name, { ...(program.request as object), platform: program.platform } as never);
    return Object.fromEntries(STACK_OUTPUTS.map((key) => [key, tenant[key]]));
  };
}

/** A program that declares nothing: its preview shows what a teardown removes. */
export const emptyProgram: PulumiFn = async () => ({});
