/** The election's Lease on the host's API server (coordination.k8s.io/v1), through @kubernetes/client-node. */
import { CoordinationV1Api, type KubeConfig, type V1Lease } from "@kubernetes/client-node";
import type { LeaseRecord, LeaseStore } from "./leaseElection";
import { statusCodeOf } from "./kubeTenantResources";

/** Lease `name` in `namespace`. */
export class KubeLeaseStore implements LeaseStore {
  private readonly api: CoordinationV1Api;

  constructor(
    config: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
  ) {
    this.api = config.makeApiClient(CoordinationV1Api);
  }

  async read(): Promise<LeaseRecord | undefined> {
    try {
      const lease = await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace });
      return { ...lease.spec, resourceVersion: lease.metadata?.resourceVersion };
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  async create(record: LeaseRecord): Promise<boolean> {
    try {
      await this.api.createNamespacedLease({ namespace: this.namespace, body: this.lease(record) });
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  async replace(record: LeaseRecord): Promise<boolean> {
    try {
      await this.api.replaceNamespacedLease({ name: this.name, namespace: this.namespace, body: this.lease(record) });
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  private lease({ resourceVersion, ...spec }: LeaseRecord): V1Lease {
    return {
      metadata: { name: this.name, namespace: this.namespace, ...(resourceVersion && { resourceVersion }) },
      spec,
    };
  }
}
