/**
 * Leases on the host's API server (coordination.k8s.io/v1), through @kubernetes/client-node: one
 * Lease as a LeaseStore (a replica's own, a tenant's claim), and the Leases of one label listed.
 * Each call is aborted when its signal aborts (the election bounds every call by its renew deadline).
 */
import {
  CoordinationV1Api,
  Observable,
  V1MicroTime,
  type ConfigurationOptions,
  type KubeConfig,
  type RequestContext,
  type ResponseContext,
  type V1Lease,
} from "@kubernetes/client-node";
import type { LeaseRecord, NamedLeaseRecord, RemovableLeaseStore } from "../replicas/leases";
import { statusCodeOf } from "../../util/kubeClientErrors";

/** Lease `name` in `namespace`, made with `labels` (so that a list by label finds it). */
export class KubeLeaseStore implements RemovableLeaseStore {
  private readonly api: CoordinationV1Api;

  constructor(
    config: KubeConfig,
    private readonly namespace: string,
    private readonly name: string,
    private readonly labels: Readonly<Record<string, string>> = {},
  ) {
    this.api = config.makeApiClient(CoordinationV1Api);
  }

  async read(signal?: AbortSignal): Promise<LeaseRecord | undefined> {
    try {
      return recordOf(
        await this.api.readNamespacedLease({ name: this.name, namespace: this.namespace }, abortedBy(signal)),
      );
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw error;
    }
  }

  async create(record: LeaseRecord, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.api.createNamespacedLease({ namespace: this.namespace, body: this.lease(record) }, abortedBy(signal));
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  async replace(record: LeaseRecord, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.api.replaceNamespacedLease(
        { name: this.name, namespace: this.namespace, body: this.lease(record) },
        abortedBy(signal),
      );
      return true;
    } catch (error) {
      if (statusCodeOf(error) === 409) return false;
      throw error;
    }
  }

  async remove(resourceVersion: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.api.deleteNamespacedLease(
        { name: this.name, namespace: this.namespace, body: { preconditions: { resourceVersion } } },
        abortedBy(signal),
      );
    } catch (error) {
      // Gone already, or written since (by a replica that took it over): not this replica's to remove.
      if (statusCodeOf(error) === 404 || statusCodeOf(error) === 409) return;
      throw error;
    }
  }

  private lease({ resourceVersion, acquireTime, renewTime, ...spec }: LeaseRecord): V1Lease {
    return {
      metadata: {
        name: this.name,
        namespace: this.namespace,
        labels: { ...this.labels },
        ...(resourceVersion && { resourceVersion }),
      },
      // MicroTime fields: a plain Date is sent with milliseconds, which the API server refuses.
      spec: { ...spec, acquireTime: microTime(acquireTime), renewTime: microTime(renewTime) },
    };
  }
}

/** The Leases in `namespace` that carry label `selector` (`key=value`). */
export async function listLeases(
  config: KubeConfig,
  namespace: string,
  selector: string,
  signal?: AbortSignal,
): Promise<NamedLeaseRecord[]> {
  const api = config.makeApiClient(CoordinationV1Api);
  const list = await api.listNamespacedLease({ namespace, labelSelector: selector }, abortedBy(signal));
  return list.items.map((lease) => ({ ...recordOf(lease), name: lease.metadata?.name ?? "" }));
}

/** What a Lease says, its times made Dates (the client reads them back as text or as a Date, depending on its deserializer). */
function recordOf(lease: V1Lease): LeaseRecord {
  const { acquireTime, renewTime, ...spec } = lease.spec ?? {};
  return {
    ...spec,
    acquireTime: asDate(acquireTime),
    renewTime: asDate(renewTime),
    resourceVersion: lease.metadata?.resourceVersion,
  };
}

/** Per-call options whose request is aborted by `signal` (the middleware runs after the credentials are applied). */
function abortedBy(signal: AbortSignal | undefined): ConfigurationOptions | undefined {
  if (!signal) return undefined;
  const middleware = {
    pre: (request: RequestContext) => (request.setSignal(signal), new Observable(Promise.resolve(request))),
    post: (response: ResponseContext) => new Observable(Promise.resolve(response)),
  };
  return { middleware: [middleware], middlewareMergeStrategy: "append" };
}

const microTime = (date: Date | undefined): V1MicroTime | undefined => date && new V1MicroTime(date.getTime());
const asDate = (time: Date | string | undefined): Date | undefined => (time === undefined ? undefined : new Date(time));
