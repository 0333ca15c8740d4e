/**
 * `TenantReadiness` for TypeScript programs: a dynamic resource whose create and update wait for
 * the virtual cluster and read its kubeconfig. Multi-language programs get the same operations
 * from the provider plugin instead (dynamic providers cannot load there, pulumi/pulumi#5455).
 */
import * as pulumi from "@pulumi/pulumi";
import { forwardingProvider } from "../util/forwardingProvider";
import type { ReadinessInputs } from "./readinessOperations";

/** Inputs of a TenantReadiness resource. */
export type TenantReadinessArgs = { [K in keyof ReadinessInputs]: pulumi.Input<ReadinessInputs[K]> };

const provider = forwardingProvider("readinessProvider");

/** Waits for a tenant's virtual cluster to be ready and exposes its kubeconfig as a secret. */
export class TenantReadiness extends pulumi.dynamic.Resource {
  /** The tenant's kubeconfig, pointed at its API URL (secret). */
  declare readonly kubeconfig: pulumi.Output<string>;
  /** When the virtual cluster was last seen ready (ISO 8601). */
  declare readonly readyAt: pulumi.Output<string>;
  /** ms the last wait took. */
  declare readonly waitedMs: pulumi.Output<number>;
  /** API requests the last wait made. */
  declare readonly apiRequests: pulumi.Output<number>;

  constructor(name: string, args: TenantReadinessArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { kubeconfig: undefined, readyAt: undefined, waitedMs: undefined, apiRequests: undefined };
    const secrets = { additionalSecretOutputs: ["kubeconfig", "hostKubeconfig"] };
    super(provider, name, { ...args, ...outputs }, { ...opts, ...secrets }, "kubespaces", "TenantReadiness");
  }
}
