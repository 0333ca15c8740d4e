/**
 * The check that the host serves the kinds the tenant creates from CRDs, when asked for: an Output
 * that fails, naming what is missing, and holds back the namespace (and so every other child)
 * until it passes.
 */
import * as pulumi from "@pulumi/pulumi";
import { findMissingKinds, missingKindsMessage, requiredKinds } from "../lifecycle/crdPreflight";
import type { TenantSpec } from "../model/tenantSpec";
import type { ObjectSlot } from "../render/renderTenant";
import type { PlainOrOutput } from "../util/plainOrOutput";

/**
 * The preflight for a tenant whose objects are `slots`, or undefined when none is needed. Not
 * secret: the host kubeconfig it reads with does not flow into the result.
 */
export function exposurePreflight(
  spec: PlainOrOutput<TenantSpec>,
  slots: readonly ObjectSlot[],
  hostKubeconfig: pulumi.Output<string> | undefined,
): pulumi.Output<true> | undefined {
  const required = requiredKinds(slots.filter((slot) => slot.fromCrd));
  if (required.length === 0) return undefined;
  if (!pulumi.Output.isInstance(spec) && !spec.exposure?.verifyCrds) return undefined;
  const checked = pulumi.all([spec, hostKubeconfig]).apply(async ([unwrapped, kubeconfig]) => {
    const s = unwrapped as TenantSpec;
    if (!s.exposure?.verifyCrds) return true as const;
    const missing = await findMissingKinds(kubeconfig, required);
    // A RunError prints as its message alone; a ResourceError here would dump the whole resource.
    if (missing.length > 0) throw new pulumi.RunError(missingKindsMessage(s.name, missing));
    return true as const;
  });
  return pulumi.unsecret(checked);
}
