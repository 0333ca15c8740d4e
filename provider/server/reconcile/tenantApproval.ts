/**
 * The approval gate's facts: what an admin approves (a generation and the digest of its spec),
 * whether a Tenant carries that approval, and the command that gives it. The digest binds the
 * approval to the spec the plan was made from, so a spec patched after the plan is not approved
 * by it, whatever its generation.
 */
import { createHash } from "node:crypto";
import { APPROVED_GENERATION_ANNOTATION, APPROVED_SPEC_SHA256_ANNOTATION } from "../../contracts/tenantResourceNames";
import type { TenantRequestInput } from "../../model/tenantRequestSchema";
import { sortedJson } from "../../util/sortedJson";
import type { TenantResource } from "../tenantResourcePort";

/** The SHA-256 (lowercase hex) of `spec` as compact JSON with its keys sorted (what `jq -cjS .spec` prints). */
export function specSha256(spec: TenantRequestInput): string {
  return createHash("sha256").update(sortedJson(spec)).digest("hex");
}

/** Whether an admin approved the tenant's current generation with exactly its current spec. */
export function isApproved(tenant: TenantResource): boolean {
  const annotations = tenant.metadata.annotations ?? {};
  return (
    annotations[APPROVED_GENERATION_ANNOTATION] === String(tenant.metadata.generation) &&
    annotations[APPROVED_SPEC_SHA256_ANNOTATION] === specSha256(tenant.spec)
  );
}

/** The command by which an admin approves generation `generation` of Tenant `name`, whose spec has digest `sha256`. */
export const approvalCommand = (name: string, generation: number, sha256: string): string =>
  `kubectl annotate tenant ${name} --overwrite ${APPROVED_GENERATION_ANNOTATION}=${generation} ${APPROVED_SPEC_SHA256_ANNOTATION}=${sha256}`;
