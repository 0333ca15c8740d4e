/**
 * The replicas' Leases on the host: each replica's own (replicaMembership.ts) and the tenants'
 * claims (tenantClaims.ts), in the server's namespace, named after `leaseName` and labelled with
 * it, held with the server's lease duration.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import { apiErrorText } from "../../util/kubeClientErrors";
import { KubeLeaseStore, listLeases } from "./kubeLeaseStore";
import type { LeaseOptions } from "../replicas/leases";
import { REPLICA_OF_LABEL, ReplicaMembership, replicaLeaseName } from "../replicas/replicaMembership";
import type { ServerConfig } from "../serverConfig";
import type { LogLevel } from "../serverLog";
import { CLAIM_OF_LABEL, TenantClaims, tenantClaimName } from "../replicas/tenantClaims";

/** Replica `identity`'s membership and claims, over the Leases of `kubeConfig`'s cluster. */
export function kubeReplicaLeases(
  kubeConfig: KubeConfig,
  config: Pick<ServerConfig, "namespace" | "leaseName" | "leaseDurationSeconds">,
  identity: string,
  log: (line: string, level?: LogLevel) => void,
): { readonly membership: ReplicaMembership; readonly claims: TenantClaims } {
  // The renew deadline and the retry period follow from the duration (leases.ts).
  const options: LeaseOptions = {
    identity,
    leaseDurationSeconds: config.leaseDurationSeconds,
    onError: (error) => log(`lease: ${apiErrorText(error)}`, "warn"),
  };
  const labelled = (name: string, label: string) =>
    new KubeLeaseStore(kubeConfig, config.namespace, name, { [label]: config.leaseName });
  const membership = new ReplicaMembership(
    {
      lease: (name) => labelled(name, REPLICA_OF_LABEL),
      list: (signal) => listLeases(kubeConfig, config.namespace, `${REPLICA_OF_LABEL}=${config.leaseName}`, signal),
    },
    replicaLeaseName(config.leaseName, identity),
    options,
  );
  const claims = new TenantClaims(
    (tenant) => labelled(tenantClaimName(config.leaseName, tenant), CLAIM_OF_LABEL),
    options,
    (holder) => membership.isGone(holder),
  );
  return { membership, claims };
}
