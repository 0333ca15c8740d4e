/**
 * Which live replica reconciles each tenant: rendezvous (highest random weight) hashing with
 * bounded loads. Each replica ranks every tenant by a hash of both names; the tenants, taken in an
 * order of their own hashes, each go to the replica that ranks them highest among those still
 * under their share (tenants / replicas, rounded down, and rounded up for as many replicas as the
 * remainder). So every replica holds its share, to within one tenant, where plain rendezvous hashing would leave one replica with a quarter more than another
 * at a few hundred tenants; and every replica computes the same owners from the same tenants and
 * replicas, with no coordination beyond those two lists. When a replica joins or goes, mostly the
 * tenants it gains or had move.
 */
import { createHash } from "node:crypto";

/** The owner of each of `tenants` among `replicas` (none when there is no replica). */
export function assignTenants(tenants: Iterable<string>, replicas: readonly string[]): Map<string, string> {
  const owners = new Map<string, string>();
  if (replicas.length === 0) return owners;
  const unique = [...new Set(tenants)];
  // Every replica holds `base` tenants, and `extra` of them one more.
  const base = Math.floor(unique.length / replicas.length);
  let extra = unique.length % replicas.length;
  const held = new Map(replicas.map((replica) => [replica, 0]));
  const hasRoom = (replica: string) => held.get(replica)! < base || (held.get(replica) === base && extra > 0);
  const order = unique.map((tenant) => ({ tenant, key: hashOf(tenant) })).sort(byKeyThenName);
  for (const { tenant } of order) {
    const ranked = replicas.map((replica) => ({ replica, weight: hashOf(`${replica}\0${tenant}`) })).sort(byWeight);
    const owner = ranked.find(({ replica }) => hasRoom(replica))!.replica;
    if (held.get(owner) === base) extra--;
    held.set(owner, held.get(owner)! + 1);
    owners.set(tenant, owner);
  }
  return owners;
}

/** The first 8 bytes of a sha256 of `text`. */
const hashOf = (text: string): bigint => createHash("sha256").update(text).digest().readBigUInt64BE(0);

/** Ascending by key, then by name (ties never seen with sha256, but the same on every replica all the same). */
const byKeyThenName = (a: { tenant: string; key: bigint }, b: { tenant: string; key: bigint }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0;

/** Descending by weight, then ascending by identity. */
const byWeight = (a: { replica: string; weight: bigint }, b: { replica: string; weight: bigint }) =>
  a.weight > b.weight ? -1 : a.weight < b.weight ? 1 : a.replica < b.replica ? -1 : a.replica > b.replica ? 1 : 0;
