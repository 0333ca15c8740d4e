/**
 * Caps per owner: how many tenants one person may own, how many of them may be awake, and the sum
 * of their quotas. A ceiling (the policy's `quota.ceilings`) bounds one tenant; a cap bounds what
 * one person holds across all of theirs, so that no one account takes the host's capacity one
 * tenant at a time. The caps are the server's configuration (`caps.perOwner`), never a request's.
 *
 * They are asked where a tenant is asked for or woken: the API and the portal refuse at once,
 * naming the cap and what is in use; a Tenant applied with kubectl meets them when the server
 * provisions a new generation, and is marked Failed with reason InvalidRequest, since admission
 * cannot count. A tenant already running keeps running when a cap is lowered: only a new
 * generation is asked. Two tenants asked for at the same moment on two replicas can both pass.
 */
import { z } from "zod";
import type { OwnerCapsBody } from "../contracts/tenantsApi";
import { quantityValue } from "../model/quantity";
import { quantity } from "../model/schemaParts";
import type { TenantPlatformInput } from "../model/tenantPlatformSchema";
import type { TenantRequestInput } from "../model/tenantRequestSchema";
import { validateRequest } from "../model/validateTenant";
import type { StoredRequest } from "./ports";
import { ownerOf } from "./requestCheck";
import { RequestInvalidError } from "./tenantsErrors";

/** The caps of one owner, as the server's configuration sets them. */
export const ownerCapsSchema = z
  .strictObject({
    tenants: z.int().min(1).optional().describe("Most tenants one owner may have."),
    awake: z
      .int()
      .min(0)
      .optional()
      .describe("Most of an owner's tenants that may be awake (not asked to sleep) at once."),
    cpu: quantity("Most CPU an owner's tenants may ask for together (their quotas' sum).").optional(),
    memory: quantity("Most memory an owner's tenants may ask for together.").optional(),
    storage: quantity("Most storage an owner's tenants may ask for together.").optional(),
  })
  .describe("What one owner may hold across all their tenants; unset means no cap.");

/** The caps per owner. */
export type OwnerCaps = z.output<typeof ownerCapsSchema>;

/** The quota resources a cap sums. */
const SUMMED = ["cpu", "memory", "storage"] as const;

/** What one tenant holds against its owner's caps. */
interface Holding {
  readonly name: string;
  readonly awake: boolean;
  /** Its quota's cpu, memory and storage, as numbers; none for a request the policy refuses (it holds nothing). */
  readonly resources?: Readonly<Record<(typeof SUMMED)[number], number>>;
}

/** What `request` holds under `policy`: its quota as the policy fills it in. */
function holdingOf(name: string, request: TenantRequestInput, policy: TenantPlatformInput): Holding {
  const awake = request.sleep !== true;
  try {
    const { cpu, memory, storage } = validateRequest(name, request, policy).resources;
    return {
      name,
      awake,
      resources: { cpu: quantityValue(cpu), memory: quantityValue(memory), storage: quantityValue(storage) },
    };
  } catch {
    return { name, awake };
  }
}

/** The problems of `wanted` against `caps`, given the owner's other tenants `others`: one `field: rule` line each. */
function capProblems(
  owner: string,
  caps: OwnerCaps,
  wanted: Holding,
  others: readonly Holding[],
  isNew: boolean,
): string[] {
  const problems: string[] = [];
  const names = (held: readonly Holding[]) => (held.length ? held.map((h) => h.name).join(", ") : "none");
  if (isNew && caps.tenants !== undefined && others.length + 1 > caps.tenants)
    problems.push(
      `caps.perOwner.tenants: ${owner} may own ${caps.tenants} tenant(s) and owns ${others.length} (${names(others)})`,
    );
  const awake = others.filter((h) => h.awake);
  if (caps.awake !== undefined && wanted.awake && awake.length + 1 > caps.awake)
    problems.push(
      `caps.perOwner.awake: ${owner} may have ${caps.awake} tenant(s) awake and has ${awake.length} (${names(awake)}); put one to sleep first`,
    );
  for (const resource of SUMMED) {
    const cap = caps[resource];
    if (cap === undefined || !wanted.resources) continue;
    const used = others.reduce((sum, h) => sum + (h.resources?.[resource] ?? 0), 0);
    if (used + wanted.resources[resource] > quantityValue(cap))
      problems.push(
        `caps.perOwner.${resource}: ${owner}'s tenants may ask for ${cap} together; the others (${names(others)}) ask for ${formatAmount(resource, used)}, this one for ${formatAmount(resource, wanted.resources[resource])}`,
      );
  }
  return problems;
}

/** What one owner holds across their tenants, against their caps: the API's answer's `use`. */
export type OwnerUse = OwnerCapsBody["use"];

/** What `owner` holds across `stored` (every stored request), their quotas filled in with `policy`'s defaults. */
export function ownerUse(
  owner: string,
  stored: readonly Pick<StoredRequest, "name" | "spec">[],
  policy: TenantPlatformInput,
): OwnerUse {
  const held = stored.filter((s) => ownerOf(s.spec) === owner).map((s) => holdingOf(s.name, s.spec, policy));
  const sum = (resource: (typeof SUMMED)[number]) =>
    held.reduce((total, h) => total + (h.resources?.[resource] ?? 0), 0);
  return {
    tenants: held.length,
    awake: held.filter((h) => h.awake).length,
    cpu: sum("cpu"),
    memory: sum("memory"),
    storage: sum("storage"),
  };
}

/** `use` against each cap `caps` sets, for people: `tenants 2 of 3`, `memory 16Gi of 48Gi`, ...; none without caps. */
export function capsUseText(caps: OwnerCapsBody["caps"], use: OwnerUse): string[] {
  if (!caps) return [];
  const counts = (["tenants", "awake"] as const)
    .filter((cap) => caps[cap] !== undefined)
    .map((cap) => `${cap} ${use[cap]} of ${caps[cap]}`);
  const sums = SUMMED.filter((cap) => caps[cap] !== undefined).map(
    (cap) => `${cap} ${formatAmount(cap, use[cap])} of ${caps[cap]}`,
  );
  return [...counts, ...sums];
}

/** An amount for people: CPU in cores, memory and storage in GiB. */
function formatAmount(resource: (typeof SUMMED)[number], amount: number): string {
  const rounded = (n: number) => String(Math.round(n * 100) / 100);
  return resource === "cpu" ? rounded(amount) : `${rounded(amount / 2 ** 30)}Gi`;
}

/** A stored Tenant as the caps read it: its name, whether its deletion was asked for, and its request. */
interface CountedTenant {
  readonly metadata: { readonly name: string; readonly deletionTimestamp?: string };
  readonly spec: TenantRequestInput;
}

/** The requests the caps count among `tenants`: every one whose deletion was not asked for. */
export function countedRequests(tenants: readonly CountedTenant[]): Pick<StoredRequest, "name" | "spec">[] {
  return tenants.filter((t) => !t.metadata.deletionTimestamp).map((t) => ({ name: t.metadata.name, spec: t.spec }));
}

/** What a cap check is asked of. */
export interface CapsCheck {
  /** The caps per owner; none: no cap. */
  readonly caps: OwnerCaps | undefined;
  /** The policy whose defaults fill in a request's quota. */
  readonly policy: TenantPlatformInput;
  /** Whether the tenant is new (never provisioned): only a new tenant counts against `tenants`. */
  readonly isNew: boolean;
}

/**
 * Refuses tenant `name`'s `request` when its owner's tenants, with this one as asked, would go
 * above a cap, given every stored request `stored` (the tenant's own, if stored, is left out: it
 * is what changes). The sums count every tenant of the owner, asleep or not (a sleeping tenant
 * keeps its quota and may wake to it); a request to sleep is never refused, as it takes nothing
 * more. Throws RequestInvalidError naming each cap, what the owner holds and in which tenants.
 */
export function refuseOverCaps(
  name: string,
  request: TenantRequestInput,
  stored: readonly Pick<StoredRequest, "name" | "spec">[],
  check: CapsCheck,
): void {
  const owner = ownerOf(request);
  if (!check.caps || owner === undefined || request.sleep === true) return;
  const others = stored
    .filter((s) => s.name !== name && ownerOf(s.spec) === owner)
    .map((s) => holdingOf(s.name, s.spec, check.policy));
  const problems = capProblems(owner, check.caps, holdingOf(name, request, check.policy), others, check.isNew);
  if (problems.length)
    throw new RequestInvalidError(
      `tenant ${name} would take ${owner} above the platform's caps per owner: ${problems.join("; ")}`,
      problems,
    );
}
