/**
 * `TenantCleanup` for TypeScript programs: a dynamic resource that does nothing on create and,
 * on delete, removes the tenant's leftovers. The Helm release and the Certificate depend on it,
 * so the engine deletes it only after them, and before the namespace.
 */
import * as pulumi from "@pulumi/pulumi";
import { forwardingProvider } from "../util/forwardingProvider";
import type { LeftoverInputs } from "./leftovers";

/** Inputs of a TenantCleanup resource. */
export type TenantCleanupArgs = { [K in keyof LeftoverInputs]: pulumi.Input<LeftoverInputs[K]> };

const provider = forwardingProvider("cleanupProvider");

/** Removes, when deleted, what the tenant's release and namespace leave behind. */
export class TenantCleanup extends pulumi.dynamic.Resource {
  constructor(name: string, args: TenantCleanupArgs, opts?: pulumi.CustomResourceOptions) {
    const secrets = { additionalSecretOutputs: ["hostKubeconfig"] };
    super(provider, name, { ...args }, { ...opts, ...secrets }, "kubespaces", "TenantCleanup");
  }
}
