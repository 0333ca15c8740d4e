/**
 * Which live replica reconciles a tenant: rendezvous (highest random weight) hashing of the
 * tenant's name over the replicas' identities. Every replica computes the same owner from the same
 * list, with no coordination beyond the list itself; when a replica joins or goes, only the tenants
 * it gains or had move, about 1/N of them, and the rest stay where they are.
 */
import { createHash } from "node:crypto";

/** The replica of `replicas` that reconciles tenant `tenant`; undefined when there is none. */
export function ownerOf(tenant: string, replicas: readonly string[]): string | undefined {
  let owner: string | undefined;
  let best = -1n;
  for (const replica of replicas) {
    const weight = weightOf(replica, tenant);
    // Ties (never seen with sha256, but possible) go to the smaller identity, the same on every replica.
    if (weight > best || (weight === best && owner !== undefined && replica < owner)) {
      best = weight;
      owner = replica;
    }
  }
  return owner;
}

/** Replica `replica`'s weight for tenant `tenant`: the first 8 bytes of a sha256 of both. */
function weightOf(replica: string, tenant: string): bigint {
  return createHash("sha256").update(replica).update("\0").update(tenant).digest().readBigUInt64BE(0);
}
